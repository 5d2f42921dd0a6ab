import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app';
import { createPgDatabase } from '../helpers/pg';
import { freePort } from '../helpers/server-process';
import { bearer, clientId, queryState, registerDatabase, waitFor } from './sqllab.helpers';

const PG_BIN = join('/usr/lib/postgresql', readdirSync('/usr/lib/postgresql').sort().at(-1)!, 'bin');
const asPostgres = (command: string, args: string[]) => execFileSync('runuser', ['-u', 'postgres', '--', join(PG_BIN, command), ...args], { stdio: 'pipe' });

/**
 * The metadata PostgreSQL and Redis restart for real under a running app. Each is a private server
 * of this test (its own cluster and port, its own redis-server), so the rest of the suite, which
 * shares the machine's services, runs on undisturbed.
 */
describe('the metadata PostgreSQL and Redis restart under a running app', () => {
  let pgDir: string;
  let pgPort: number;
  let redisPort: number;
  let redis: ChildProcess | null = null;
  let data: Awaited<ReturnType<typeof createPgDatabase>>;
  let t: TestApp;
  let admin: string;
  let database: number;

  const pgCtl = (action: 'start' | 'restart' | 'stop') =>
    asPostgres('pg_ctl', ['-D', pgDir, '-w', '-m', 'fast', '-l', join(pgDir, 'log'), '-o', `-p ${pgPort} -k /tmp -c listen_addresses=127.0.0.1 -c fsync=off`, action]);

  const startRedis = async () => {
    redis = spawn('redis-server', ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
    await waitFor('redis up', async () => {
      const probe = spawn('redis-cli', ['-p', String(redisPort), 'ping']);
      let out = '';
      probe.stdout.on('data', (c) => (out += c));
      await new Promise((done) => probe.once('exit', done));
      return out.trim() === 'PONG';
    });
  };
  const stopRedis = async () => {
    const child = redis;
    redis = null;
    if (!child || child.exitCode !== null) return;
    child.kill('SIGTERM');
    await new Promise((done) => child.once('exit', done));
  };

  /** An async SQL Lab query: it goes through the job queue on Redis and leaves its rows in Redis. Retried while the queue reconnects (503). */
  async function asyncQuery(sql: string) {
    const id = clientId();
    await waitFor('queued', async () => (await t.http.post('/api/v1/sqllab/execute/').set(bearer(admin)).send({ database_id: database, sql, client_id: id, runAsync: true })).status === 202, 20_000);
    return waitFor('finished', async () => {
      const q = await queryState(t, admin, id);
      return q?.state === 'success' || q?.state === 'failed' ? q : null;
    });
  }

  beforeAll(async () => {
    pgDir = mkdtempSync(join(tmpdir(), 'meridian-pg-'));
    chmodSync(pgDir, 0o777);
    execFileSync('chown', ['postgres', pgDir]);
    asPostgres('initdb', ['-D', pgDir, '-A', 'trust', '-U', 'postgres', '--no-sync']);
    [pgPort, redisPort] = [await freePort(), await freePort()];
    pgCtl('start');
    const setup = new pg.Client({ connectionString: `postgresql://postgres@127.0.0.1:${pgPort}/postgres` });
    await setup.connect();
    await setup.query('CREATE DATABASE meta');
    await setup.end();
    await startRedis();
    data = await createPgDatabase();
    t = await startTestApp({ metadataUrl: `postgresql://postgres@127.0.0.1:${pgPort}/meta`, env: { REDIS_URL: `redis://127.0.0.1:${redisPort}/0` } });
    admin = await t.token();
    database = await registerDatabase(t, admin, { database_name: 'restart data', sqlalchemy_uri: data.url, allow_run_async: true });
  }, 120_000);

  afterAll(async () => {
    await t?.close();
    await stopRedis();
    try {
      pgCtl('stop');
    } catch {
      /* already stopped */
    }
    rmSync(pgDir, { recursive: true, force: true });
    await data?.drop();
  });

  it('the metadata PostgreSQL restarts: calls go on after it is back, and nothing saved is lost', async () => {
    const saved = await t.http.post('/api/v1/saved_query/').set(bearer(admin)).send({ db_id: database, label: 'before the restart', sql: 'SELECT 1' });
    expect(saved.status, saved.text).toBe(201);
    pgCtl('restart');
    // The pool's connections died with the server: the next calls connect again.
    const listed = await waitFor('saved queries listed', async () => {
      const res = await t.http.get('/api/v1/saved_query/').set(bearer(admin));
      return res.status === 200 ? res.body : null;
    });
    expect(listed.result.map((q: { label: string }) => q.label)).toContain('before the restart');
    const again = await t.http.post('/api/v1/saved_query/').set(bearer(admin)).send({ db_id: database, label: 'after the restart', sql: 'SELECT 2' });
    expect(again.status, again.text).toBe(201);
    expect(await asyncQuery('SELECT 42 AS answer')).toMatchObject({ state: 'success', rows: 1 });
  });

  it('Redis restarts empty: a result it held answers 410, and queries, jobs, caches and logins carry on', async () => {
    const before = await asyncQuery('SELECT n FROM generate_series(1, 3) AS n');
    expect(before).toMatchObject({ state: 'success', rows: 3 });
    await stopRedis();
    await startRedis();
    const lost = await t.http.get(`/api/v1/sqllab/results/?q=(key:'${before.resultsKey}')`).set(bearer(admin));
    expect(lost.status, lost.text).toBe(410);
    expect(lost.body.errors[0]).toMatchObject({ error_type: 'RESULTS_BACKEND_ERROR' });

    const after = await asyncQuery('SELECT n FROM generate_series(1, 5) AS n');
    expect(after).toMatchObject({ state: 'success', rows: 5 });
    const rows = await t.http.get(`/api/v1/sqllab/results/?q=(key:'${after.resultsKey}')`).set(bearer(admin));
    expect(rows.status, rows.text).toBe(200);
    expect(rows.body.data).toHaveLength(5);
    // Logins count failures in Redis; a new token is issued.
    expect(await t.token()).toEqual(expect.any(String));
  });
});
