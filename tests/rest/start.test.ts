import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { ORPHANED_QUERY_MESSAGE } from '../../server/src/query/query.repository';
import { createPgDatabase } from '../helpers/pg';
import { clientId } from './sqllab.helpers';

const ROOT = resolve(import.meta.dirname, '../..');

/** A port nothing listens on now (the server is told it through PORT, as an operator would). */
function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const probe = createServer();
    probe.once('error', fail);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? done(address.port) : fail(new Error('no port'))));
    });
  });
}

interface Running {
  child: ChildProcess;
  url: string;
  output: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Starts `server/src/main.ts` under tsx, as scripts/start.mjs does, and waits until /health answers. */
async function startServer(dataDir: string, env: Record<string, string> = {}): Promise<Running> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'server/src/main.ts')], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      NODE_ENV: 'development',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      REDIS_URL: '',
      LOAD_EXAMPLES: 'true',
      EXAMPLES_SALES_ROWS: '2000',
      LOG_LEVEL: 'warn',
      WORKER_POOL_SIZE: '1',
      ...env,
    },
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) => child.once('exit', (code, signal) => done({ code, signal })));
  let gone = false;
  void exited.then(() => (gone = true));
  const url = `http://127.0.0.1:${port}`;
  const start = Date.now();
  for (;;) {
    if (gone) throw new Error(`the server exited before answering /health:\n${output}`);
    const health = await fetch(`${url}/health`).catch(() => null);
    if (health?.status === 200 && (await health.text()) === 'OK') break;
    if (Date.now() - start > 150_000) {
      child.kill('SIGKILL');
      throw new Error(`gave up waiting for /health:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return { child, url, output: () => output, exited };
}

async function login(url: string): Promise<Record<string, string>> {
  const res = await fetch(`${url}/api/v1/security/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'admin', password: 'admin', provider: 'db' }) });
  expect(res.status).toBe(200);
  const { access_token } = (await res.json()) as { access_token: string };
  return { Authorization: `Bearer ${access_token}`, 'content-type': 'application/json' };
}

describe('starting the real server (server/src/main.ts) on the embedded default', () => {
  let dataDir: string;
  let server: Running | null = null;
  const started: Running[] = [];
  const start = async () => {
    const running = await startServer(dataDir);
    started.push(running);
    return running;
  };

  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'meridian-start-'));
  });
  afterAll(async () => {
    for (const running of started) {
      if (running.child.exitCode !== null || running.child.signalCode !== null) continue;
      running.child.kill('SIGKILL');
      await running.exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('builds and registers the examples, serves big integers exactly, and exits 0 on SIGTERM', async () => {
    server = await start();
    const headers = await login(server.url);

    const databases = (await (await fetch(`${server.url}/api/v1/database/`, { headers })).json()) as { result: { id: number; database_name: string; backend: string }[] };
    const examples = databases.result.find((d) => d.database_name === 'examples');
    expect(examples).toMatchObject({ backend: 'duckdb' });

    const datasets = (await (await fetch(`${server.url}/api/v1/dataset/?q=(page_size:100)`, { headers })).json()) as { result: { table_name: string; database: { id: number } }[] };
    const exampleTables = datasets.result.filter((d) => d.database.id === examples!.id).map((d) => d.table_name).sort();
    expect(exampleTables).toEqual(['big_ids', 'birth_names', 'cleaned_sales_data', 'wb_health_population']);

    const execute = (sql: string) =>
      fetch(`${server!.url}/api/v1/sqllab/execute/`, { method: 'POST', headers, body: JSON.stringify({ database_id: examples!.id, sql, client_id: clientId(), queryLimit: 1000 }) });
    const bigIds = await execute('SELECT * FROM big_ids ORDER BY id');
    expect(bigIds.status).toBe(200);
    const text = await bigIds.text();
    // Read as text: JSON.parse would round these to doubles.
    for (const id of ['9007199254740993', '9223372036854775807', '-9223372036854775808', '12345678901234567']) expect(text).toContain(`"id":${id},`);
    const sales = await execute('SELECT count(*) AS n FROM cleaned_sales_data');
    expect(((await sales.json()) as { data: { n: number }[] }).data).toEqual([{ n: 2000 }]);

    server.child.kill('SIGTERM');
    expect(await server.exited).toEqual({ code: 0, signal: null });
  }, 240_000);

  it('marks a query that was running when the process died as failed after a restart', async () => {
    server = await start();
    let headers = await login(server.url);
    const databases = (await (await fetch(`${server.url}/api/v1/database/`, { headers })).json()) as { result: { id: number; database_name: string }[] };
    const examples = databases.result.find((d) => d.database_name === 'examples')!;
    const id = clientId();
    // Hours of work for DuckDB: still running when the process is killed.
    const res = await fetch(`${server.url}/api/v1/sqllab/execute/`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ database_id: examples.id, sql: 'SELECT count(*) FROM range(1000000000000) a', client_id: id, runAsync: true }),
    });
    expect(res.status).toBe(202);
    const queryId = ((await res.json()) as { query: { serverId: number } }).query.serverId;
    const state = async () => ((await (await fetch(`${server!.url}/api/v1/query/${queryId}`, { headers })).json()) as { result: { status: string; error_message: string | null } }).result;
    for (let i = 0; i < 600 && (await state()).status !== 'running'; i++) await new Promise((r) => setTimeout(r, 100));
    expect((await state()).status).toBe('running');

    server.child.kill('SIGKILL');
    expect((await server.exited).signal).toBe('SIGKILL');

    server = await start();
    headers = await login(server.url);
    const after = (await (await fetch(`${server.url}/api/v1/query/${queryId}`, { headers })).json()) as { result: { status: string; error_message: string | null } };
    expect(after.result).toMatchObject({ status: 'failed', error_message: ORPHANED_QUERY_MESSAGE });

    server.child.kill('SIGTERM');
    expect(await server.exited).toEqual({ code: 0, signal: null });
  }, 240_000);
});

describe('starting the real server on a PostgreSQL metadata store', () => {
  it('registers its run in query_runner while serving and removes it on SIGTERM', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'meridian-start-pg-'));
    const store = await createPgDatabase();
    const client = new pg.Client({ connectionString: store.url });
    let server: Running | null = null;
    try {
      server = await startServer(dataDir, { DATABASE_URL: store.url, LOAD_EXAMPLES: 'false', INSTANCE_NAME: 'start-test-instance' });
      await client.connect();
      const runs = await client.query('SELECT instance_name FROM query_runner');
      expect(runs.rows).toEqual([{ instance_name: 'start-test-instance' }]);
      server.child.kill('SIGTERM');
      expect(await server.exited).toEqual({ code: 0, signal: null });
      expect((await client.query('SELECT count(*)::int AS n FROM query_runner')).rows[0].n).toBe(0);
    } finally {
      if (server && server.child.exitCode === null && server.child.signalCode === null) {
        server.child.kill('SIGKILL');
        await server.exited;
      }
      await client.end().catch(() => undefined);
      await store.drop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 240_000);
});
