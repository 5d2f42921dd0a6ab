import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failOrphanedQueries, ORPHANED_QUERY_MESSAGE } from '../../server/src/query/query.repository';
import { startTestApp, type TestApp } from '../helpers/app';
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
