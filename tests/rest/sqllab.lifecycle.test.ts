import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failOrphanedQueries, ORPHANED_QUERY_MESSAGE } from '../../server/src/query/query.repository';
import { startTestApp, type TestApp } from '../helpers/app';
import { createPgDatabase } from '../helpers/pg';
import { bearer, clientId, queryState, registerDatabase, waitFor } from './sqllab.helpers';

describe('query lifecycle: result expiry and restart', () => {
  let t: TestApp;
  let admin: string;
  let dir: string;
  let db: number;

  beforeAll(async () => {
    process.env.RESULTS_TTL_SECONDS = '1';
    t = await startTestApp({ metadata: process.env.SQLLAB_METADATA === 'postgres' ? 'postgres' : 'pglite' });
    delete process.env.RESULTS_TTL_SECONDS;
    admin = await t.token();
    dir = mkdtempSync(join(tmpdir(), 'meridian-life-'));
    db = await registerDatabase(t, admin, { database_name: 'life', sqlalchemy_uri: `duckdb:///${join(dir, 'life.duckdb')}` });
  });
  afterAll(async () => {
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers 410 once the results backend expired the result', async () => {
    const res = await t.http.post('/api/v1/sqllab/execute/').set(bearer(admin)).send({ database_id: db, sql: 'SELECT 1 AS one', client_id: clientId() });
    expect(res.status).toBe(200);
    const key = res.body.query.resultsKey;
    await waitFor('result expiry', async () => (await t.services.queryRuntime.results.getMeta(key)) === null);
    const page = await t.http.get('/api/v1/sqllab/results/').query({ q: `(key:'${key}')` }).set(bearer(admin));
    expect(page.status).toBe(410);
    expect(page.body.errors[0].message).toBe('Data could not be retrieved from the results backend. You need to re-run the original query.');
  });

  it('marks queries left running by a previous process as failed', async () => {
    const id = clientId();
    await t.services.db.insertInto('query').values({ client_id: id, database_id: db, user_id: 1, status: 'running', sql: 'SELECT 1', start_time: Date.now() }).execute();
    expect(await failOrphanedQueries(t.services.db)).toBeGreaterThanOrEqual(1);
    expect(await queryState(t, admin, id)).toMatchObject({ state: 'failed', errorMessage: ORPHANED_QUERY_MESSAGE });
  });
});

describe('async SQL Lab queries with GLOBAL_ASYNC_QUERIES', () => {
  let t: TestApp;
  let admin: string;
  let dir: string;

  beforeAll(async () => {
    t = await startTestApp({ env: { FEATURE_GLOBAL_ASYNC_QUERIES: 'true' } });
    admin = await t.token();
    dir = mkdtempSync(join(tmpdir(), 'meridian-gaq-'));
  });
  afterAll(async () => {
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('publishes an async event carrying the results url when the query finishes', async () => {
    const db = await registerDatabase(t, admin, { database_name: 'gaq', sqlalchemy_uri: `duckdb:///${join(dir, 'gaq.duckdb')}`, allow_run_async: true });
    const id = clientId();
    const res = await t.http.post('/api/v1/sqllab/execute/').set(bearer(admin)).send({ database_id: db, sql: 'SELECT 5 AS five', client_id: id, runAsync: true });
    expect(res.status).toBe(202);
    const event = await waitFor('async event', async () => {
      const events = await t.http.get('/api/v1/async_event/').set(bearer(admin));
      return (events.body.result as { job_id: string; status: string; result_url: string }[]).find((e) => e.job_id === id);
    });
    expect(event.status).toBe('done');
    const rows = await t.http.get(event.result_url).set(bearer(admin));
    expect(rows.status).toBe(200);
    expect(rows.body.data).toEqual([{ five: 5 }]);
  });
});

describe('queries waiting for a worker thread (one thread)', () => {
  let t: TestApp;
  let admin: string;
  let pgDb: Awaited<ReturnType<typeof createPgDatabase>>;
  let db: number;

  beforeAll(async () => {
    t = await startTestApp({ env: { WORKER_POOL_SIZE: '1', SQLLAB_TIMEOUT: '1' } });
    admin = await t.token();
    pgDb = await createPgDatabase();
    db = await registerDatabase(t, admin, { database_name: 'one-thread', sqlalchemy_uri: pgDb.url, allow_run_async: true, allow_dml: true });
  });
  afterAll(async () => {
    await t?.close();
    await pgDb?.drop();
  });

  const execute = (body: Record<string, unknown>) => t.http.post('/api/v1/sqllab/execute/').set(bearer(admin)).send({ database_id: db, client_id: clientId(), ...body });

  it('stops a queued query at once and times out a queued sync query; neither reaches the database', async () => {
    expect((await execute({ sql: 'CREATE TABLE marker (n int)' })).status).toBe(200);
    const long = clientId();
    expect((await execute({ sql: 'SELECT pg_sleep(60)', client_id: long, runAsync: true })).status).toBe(202);
    await waitFor('the long query to run', async () => (await queryState(t, admin, long))?.state === 'running');

    const queued = clientId();
    expect((await execute({ sql: 'INSERT INTO marker VALUES (1)', client_id: queued, runAsync: true })).status).toBe(202);
    const stop = await t.http.post('/api/v1/query/stop').set(bearer(admin)).send({ client_id: queued });
    expect(stop.status).toBe(200);
    expect(await queryState(t, admin, queued)).toMatchObject({ state: 'stopped' });

    // SQLLAB_TIMEOUT (1 s) counts from submission: the thread stays busy, so the sync query times out queued.
    const timedOut = await execute({ sql: 'INSERT INTO marker VALUES (2)' });
    expect(timedOut.status).toBe(408);
    expect(timedOut.body.errors[0]).toMatchObject({ error_type: 'SQLLAB_TIMEOUT_ERROR', message: 'The query was killed after 1 seconds. It might be too complex, or the database might be under heavy load.' });
    expect(await queryState(t, admin, long)).toMatchObject({ state: 'running' });

    expect((await t.http.post('/api/v1/query/stop').set(bearer(admin)).send({ client_id: long })).status).toBe(200);
    await t.services.sqllab.idle();
    const count = await execute({ sql: 'SELECT count(*) AS n FROM marker' });
    expect(count.status).toBe(200);
    expect(count.body.data).toEqual([{ n: 0 }]);
  });
});
