import { request as httpRequest } from 'node:http';
import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app';
import { createPgDatabase } from '../helpers/pg';
import { bearer, clientId, queryState, registerDatabase, waitFor } from './sqllab.helpers';

/** Redis database used only by this file: its connections can be cut without touching another test's. */
const REDIS_DB = 11;

/**
 * Issue 16, faults against the real services: the analytic database drops a running query's connection, the
 * metadata store drops every connection (as a restart does), Redis drops the app's connections, and a client leaves
 * in the middle of a streamed export. Each ends in a clear state and error, nothing stored is lost, and the server
 * keeps serving without a restart. Connections are cut one app at a time (pg_terminate_backend on its own
 * databases, CLIENT KILL on its own Redis database), so the rest of the suite runs on.
 */
describe('faults', () => {
  let store: Awaited<ReturnType<typeof createPgDatabase>>;
  let data: Awaited<ReturnType<typeof createPgDatabase>>;
  let t: TestApp;
  let admin: string;
  let database: number;
  let chart: number;
  let dataset: number;

  const admin_pg = async <T>(sql: string, params: unknown[] = []): Promise<T[]> => {
    const client = new pg.Client({ connectionString: data.url.replace(/\/[^/]*$/, '/test') });
    await client.connect();
    try {
      return (await client.query(sql, params)).rows as T[];
    } finally {
      await client.end();
    }
  };
  const execute = (sql: string, extra: Record<string, unknown> = {}) =>
    t.http.post('/api/v1/sqllab/execute/').set(bearer(admin)).send({ database_id: database, sql, client_id: clientId(), runAsync: false, queryLimit: 1_000_000, ...extra });

  beforeAll(async () => {
    [store, data] = await Promise.all([createPgDatabase(), createPgDatabase()]);
    const client = new pg.Client({ connectionString: data.url });
    await client.connect();
    await client.query('CREATE TABLE numbers AS SELECT g AS n, md5(g::text) AS word FROM generate_series(1, 200000) g');
    await client.end();
    const redis = new Redis(`redis://127.0.0.1:6379/${REDIS_DB}`);
    await redis.flushdb();
    redis.disconnect();
    t = await startTestApp({ metadataUrl: store.url, listen: true, env: { REDIS_URL: `redis://127.0.0.1:6379/${REDIS_DB}`, SQLLAB_TIMEOUT: '120' } });
    admin = await t.token();
    database = await registerDatabase(t, admin, { database_name: 'fault data', sqlalchemy_uri: data.url, allow_run_async: true, expose_in_sqllab: true });
    dataset = (await t.http.post('/api/v1/dataset/').set(bearer(admin)).send({ database, schema: 'public', table_name: 'numbers' })).body.id;
    chart = (await t.http.post('/api/v1/chart/').set(bearer(admin)).send({ slice_name: 'Numbers', viz_type: 'table', datasource_id: dataset, datasource_type: 'table', params: '{}' })).body.id;
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await store?.drop();
    await data?.drop();
  });

  it('the analytic database drops a running query: the query fails with the database’s reason, and the next one runs', async () => {
    const id = clientId();
    // supertest sends on then(): start it now, answer later.
    const running = execute('SELECT pg_sleep(30), 1 AS one', { client_id: id }).then((r) => r);
    const pid = await waitFor('the sleeping query', async () =>
      (await admin_pg<{ pid: number }>(`SELECT pid FROM pg_stat_activity WHERE datname = $1 AND query LIKE '%pg_sleep(30)%' AND pid <> pg_backend_pid()`, [data.name]))[0]?.pid,
    );
    await admin_pg('SELECT pg_terminate_backend($1)', [pid]);
    const res = await running;
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(600);
    expect(JSON.stringify(res.body.errors ?? res.body)).toMatch(/terminat/i);
    const failed = await queryState(t, admin, id);
    expect(failed?.state).toBe('failed');
    const next = await execute('SELECT count(*) AS n FROM numbers');
    expect(next.status, next.text).toBe(200);
    expect(Number(next.body.data[0].n)).toBe(200000);
  });

  it('a query thread dies mid-query: that query fails with a clear error, the pool replaces the thread, and the next query runs', async () => {
    const id = clientId();
    const running = execute('SELECT pg_sleep(20), 2 AS two', { client_id: id }).then((r) => r);
    // On the database already, so a thread holds it (not the pool's queue).
    await waitFor('the sleeping query', async () =>
      (await admin_pg<{ pid: number }>(`SELECT pid FROM pg_stat_activity WHERE datname = $1 AND query LIKE '%pg_sleep(20)%' AND pid <> pg_backend_pid()`, [data.name]))[0]?.pid,
    );
    await Promise.all(t.services.queryRuntime.pool.piscina.threads.map((thread) => thread.terminate()));
    const res = await running;
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(JSON.stringify(res.body)).toContain("The query's worker stopped while running it");
    expect((await queryState(t, admin, id))?.state).toBe('failed');
    const next = await execute('SELECT 3 AS three');
    expect(next.status, next.text).toBe(200);
    expect(next.body.data).toEqual([{ three: 3 }]);
  });

  it('the metadata store drops every connection (a restart): calls go on, and nothing saved is lost', async () => {
    const before = (await t.http.get('/api/v1/chart/').set(bearer(admin))).body.count as number;
    const killed = await admin_pg<{ ok: boolean }>('SELECT pg_terminate_backend(pid) AS ok FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [store.name]);
    expect(killed.length).toBeGreaterThan(0);
    // A call may meet a dropped connection (at most one per pooled connection); it answers an error, never hangs,
    // and calls succeed again without a restart.
    const answers: number[] = [];
    while (answers.length < 12 && answers.at(-1) !== 200) answers.push((await t.http.get('/api/v1/chart/').set(bearer(admin))).status);
    expect(answers.at(-1), answers.join(' ')).toBe(200);
    for (let i = 0; i < 3; i++) expect((await t.http.get('/api/v1/chart/').set(bearer(admin))).status).toBe(200);
    expect((await t.http.get('/api/v1/chart/').set(bearer(admin))).body.count).toBe(before);
    expect((await t.http.get(`/api/v1/chart/${chart}`).set(bearer(admin))).body.result.slice_name).toBe('Numbers');
    expect((await t.http.put(`/api/v1/chart/${chart}`).set(bearer(admin)).send({ description: 'after the restart' })).status).toBe(200);
  });

  it('Redis drops the app’s connections: results, caches and events carry on', async () => {
    const redis = new Redis('redis://127.0.0.1:6379/0');
    try {
      const clients = String(await redis.client('LIST')).split('\n').filter((line) => new RegExp(`\\bdb=${REDIS_DB}\\b`).test(line));
      expect(clients.length).toBeGreaterThan(0);
      for (const line of clients) await redis.client('KILL', 'ID', /\bid=(\d+)/.exec(line)![1]);
    } finally {
      redis.disconnect();
    }
    // An async query: its results go through the Redis results backend.
    const id = clientId();
    const submitted = await t.http.post('/api/v1/sqllab/execute/').set(bearer(admin)).send({ database_id: database, sql: 'SELECT n FROM numbers ORDER BY n LIMIT 5', client_id: id, runAsync: true });
    expect(submitted.status, submitted.text).toBe(202);
    const done = await waitFor('the async query', async () => {
      const q = await queryState(t, admin, id);
      return q?.state === 'success' || q?.state === 'failed' ? q : null;
    });
    expect(done.state).toBe('success');
    const results = await t.http.get(`/api/v1/sqllab/results/?q=(key:'${done.resultsKey}')`).set(bearer(admin));
    expect(results.status, results.text).toBe(200);
    expect(results.body.data.map((r: { n: number }) => Number(r.n))).toEqual([1, 2, 3, 4, 5]);
    // Chart data through the Redis cache: the second answer is the cached one.
    const body = { datasource: { id: dataset, type: 'table' }, queries: [{ metrics: [{ expressionType: 'SQL', sqlExpression: 'COUNT(*)', label: 'n' }] }], result_format: 'json', result_type: 'full' };
    const first = await t.http.post('/api/v1/chart/data').set(bearer(admin)).send(body);
    expect(first.status, first.text).toBe(200);
    const second = await t.http.post('/api/v1/chart/data').set(bearer(admin)).send(body);
    expect(second.body.result[0]).toMatchObject({ is_cached: true, data: [{ n: 200000 }] });
  });

  it('a client that leaves in the middle of a streamed export does not stop the server', async () => {
    const id = clientId();
    const ran = await execute('SELECT * FROM numbers', { client_id: id });
    expect(ran.status, ran.text).toBe(200);
    const url = new URL(`/api/v1/sqllab/export/${id}/`, t.url);
    const received = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(url, { headers: bearer(admin) }, (res) => {
        let bytes = 0;
        res.on('data', (chunk: Buffer) => {
          bytes += chunk.length;
          // Gone after the first chunks, well before the end.
          if (bytes > 64 * 1024) {
            req.destroy();
            resolve(bytes);
          }
        });
        res.on('end', () => resolve(bytes));
      });
      req.on('error', (error) => (error.message.includes('socket hang up') || error.message.includes('aborted') ? undefined : reject(error)));
      req.end();
    });
    expect(received).toBeGreaterThan(64 * 1024);
    // The server serves on, the export included.
    const again = await t.http.get(`/api/v1/sqllab/export/${id}/`).set(bearer(admin));
    expect(again.status).toBe(200);
    // The header and every row kept (SQL_MAX_ROW caps a query at 100,000).
    expect(again.text.split('\n').filter(Boolean).length).toBe(100_001);
  });

  it('more chart queries than the pool queues are refused with 503 and the envelope, never a 500, and the rest answer', async () => {
    const busy = await startTestApp({ env: { WORKER_POOL_SIZE: '1', WORKER_QUEUE_SIZE: '1' } });
    try {
      const token = await busy.token();
      const db = await registerDatabase(busy, token, { database_name: 'busy data', sqlalchemy_uri: data.url });
      const ds = (await busy.http.post('/api/v1/dataset/').set(bearer(token)).send({ database: db, schema: 'public', table_name: 'numbers' })).body.id;
      const body = { datasource: { id: ds, type: 'table' }, queries: [{ metrics: [{ expressionType: 'SQL', sqlExpression: 'SUM(n)', label: 'total' }] }], result_format: 'json', result_type: 'full', force: true };
      const answers = await Promise.all(Array.from({ length: 12 }, () => busy.http.post('/api/v1/chart/data').set(bearer(token)).send(body).then((r) => r)));
      const statuses = answers.map((r) => r.status);
      expect(statuses.every((s) => s === 200 || s === 503), statuses.join(' ')).toBe(true);
      expect(statuses).toContain(200);
      expect(statuses).toContain(503);
      const refused = answers.find((r) => r.status === 503)!;
      expect(refused.body.errors[0]).toMatchObject({ error_type: 'ASYNC_WORKERS_ERROR', message: 'The query queue is full: too many queries are running. Try again shortly.' });
    } finally {
      await busy.close();
    }
  });
});
