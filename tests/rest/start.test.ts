import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { ORPHANED_QUERY_MESSAGE } from '../../server/src/query/query.repository';
import { createPgDatabase } from '../helpers/pg';
import { buildServer, login, startServer, type Running } from '../helpers/server-process';
import { clientId } from './sqllab.helpers';

describe('starting the real server on the embedded default', () => {
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

  it('the built server (what pnpm start runs) builds and registers the examples, serves big integers exactly, and exits 0 on SIGTERM', async () => {
    buildServer();
    server = await startServer(dataDir, {}, { built: true });
    started.push(server);
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
