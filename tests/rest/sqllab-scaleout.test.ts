import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ORPHANED_QUERY_MESSAGE } from '../../server/src/query/query.repository';
import { QueryRunnerHeartbeat } from '../../server/src/query/query-runner';
import { startTestApp, type TestApp } from '../helpers/app';
import { createPgDatabase, PG_ADMIN_URL } from '../helpers/pg';
import { bearer, clientId, queryState, registerDatabase, waitFor } from './sqllab.helpers';

/** Beats only when told (and once on start): a test decides when a process looks dead. */
const NEVER = 3_600_000;

/**
 * Two server processes (apps) on ONE PostgreSQL metadata store, as when scaling out: a query
 * running in A is stopped through B by its stored cancel id, and B's orphan sweep leaves A's live
 * queries alone but fails them once A stops beating.
 */
describe('two app instances sharing a PostgreSQL metadata store', () => {
  let store: Awaited<ReturnType<typeof createPgDatabase>>;
  let target: Awaited<ReturnType<typeof createPgDatabase>>;
  let admin: pg.Client;
  let a: TestApp;
  let b: TestApp;
  let tokenA: string;
  let tokenB: string;
  let database: number;
  const heartbeats: QueryRunnerHeartbeat[] = [];

  beforeAll(async () => {
    store = await createPgDatabase();
    target = await createPgDatabase();
    admin = new pg.Client({ connectionString: PG_ADMIN_URL });
    await admin.connect();
    // Async events on, so a query the sweep fails can be seen to reach its user (one process's events: no Redis here).
    a = await startTestApp({ metadataUrl: store.url, env: { FEATURE_GLOBAL_ASYNC_QUERIES: 'true' } });
    b = await startTestApp({ metadataUrl: store.url, env: { FEATURE_GLOBAL_ASYNC_QUERIES: 'true' } });
    tokenA = await a.token();
    tokenB = await b.token();
    database = await registerDatabase(a, tokenA, { database_name: 'scaleout', sqlalchemy_uri: target.url, allow_run_async: true });
  });
  afterAll(async () => {
    for (const heartbeat of heartbeats) await heartbeat.stop().catch(() => undefined);
    await a?.close();
    await b?.close();
    await admin?.end();
    await target?.drop();
    await store?.drop();
  });

  const heartbeat = (t: TestApp, runner = t.services.queryRuntime.runner) => {
    const made = new QueryRunnerHeartbeat({ db: t.services.db, runner, logger: t.services.logger, intervalMs: NEVER, onFailed: (ids) => t.services.sqllab.announceFailed(ids) });
    heartbeats.push(made);
    return made;
  };

  /** Starts a long pg_sleep in A (async) and waits until it runs on PostgreSQL with its cancel id recorded. */
  async function longQueryInA(marker: string): Promise<{ id: string; pid: number }> {
    const id = clientId();
    const res = await a.http.post('/api/v1/sqllab/execute/').set(bearer(tokenA)).send({ database_id: database, sql: `SELECT pg_sleep(120) AS ${marker}`, client_id: id, runAsync: true });
    expect(res.status).toBe(202);
    const query = await waitFor('cancel id recorded', async () => {
      const q = await queryState(b, tokenB, id);
      return q?.state === 'running' && q.extra?.cancel_query ? q : null;
    });
    const pid = Number(query.extra.cancel_query);
    await waitFor('statement active on PostgreSQL', async () => (await backendState(pid)) === 'active');
    return { id, pid };
  }

  async function backendState(pid: number): Promise<string | null> {
    const r = await admin.query('SELECT state FROM pg_stat_activity WHERE pid = $1 AND datname = $2', [pid, target.name]);
    return r.rows[0]?.state ?? null;
  }

  it('stops a query running in another process: the statement leaves PostgreSQL and the query reads stopped', async () => {
    const { id, pid } = await longQueryInA('stop_me');
    expect(b.services.queryRuntime.pool.isRunning(id)).toBe(false);
    const stop = await b.http.post('/api/v1/query/stop').set(bearer(tokenB)).send({ client_id: id });
    expect(stop.status).toBe(200);
    expect(stop.body).toEqual({ result: 'OK' });
    // Cancelled on PostgreSQL: A's run fails and closes its connection, so the backend is gone.
    await waitFor('backend gone from pg_stat_activity', async () => (await backendState(pid)) === null);
    await waitFor('A released the query', async () => !a.services.queryRuntime.pool.isRunning(id));
    expect(await queryState(b, tokenB, id)).toMatchObject({ state: 'stopped' });
    expect(await queryState(a, tokenA, id)).toMatchObject({ state: 'stopped' });
  });

  it("leaves a live process's running query alone, and fails it with the restart message once that process stops beating", async () => {
    await heartbeat(a).start();
    const { id } = await longQueryInA('keep_me');
    // B starts: its first beat sweeps orphans, and A is alive.
    await heartbeat(b).start();
    expect(await queryState(b, tokenB, id)).toMatchObject({ state: 'running' });

    // A dies without a goodbye: its heartbeat grows old. B's next beat fails the query.
    await sql`UPDATE query_runner SET heartbeat_at = now() - interval '1 hour' WHERE id = ${a.services.queryRuntime.runner.id}`.execute(b.services.db);
    expect(await heartbeats[1].beat()).toBeGreaterThanOrEqual(1);
    expect(await queryState(b, tokenB, id)).toMatchObject({ state: 'failed', errorMessage: ORPHANED_QUERY_MESSAGE });
    // Its user, waiting on events, is told by the process whose sweep failed it.
    const events = (await b.http.get('/api/v1/async_event/').set(bearer(tokenB))).body.result as Array<Record<string, any>>;
    expect(events.find((e) => e.job_id === id)).toMatchObject({ status: 'error', errors: [expect.objectContaining({ message: ORPHANED_QUERY_MESSAGE })] });
    // A's own run ending later never overwrites that.
    await a.services.queryRuntime.pool.stop(id);
    await waitFor('A released the query', async () => !a.services.queryRuntime.pool.isRunning(id));
    await a.services.sqllab.idle();
    expect(await queryState(b, tokenB, id)).toMatchObject({ state: 'failed', errorMessage: ORPHANED_QUERY_MESSAGE });
  });

  it("a restart of the same instance fails its previous run's queries at once, even with a fresh heartbeat", async () => {
    await heartbeats[0].beat();
    const { id } = await longQueryInA('restarted');
    await heartbeats[1].beat();
    expect(await queryState(b, tokenB, id)).toMatchObject({ state: 'running' });
    // The same instance name with a new run id: what A's process does when it starts again.
    const restarted = heartbeat(b, { id: randomUUID(), instanceName: a.services.queryRuntime.runner.instanceName });
    expect(await restarted.start()).toBeGreaterThanOrEqual(1);
    expect(await queryState(b, tokenB, id)).toMatchObject({ state: 'failed', errorMessage: ORPHANED_QUERY_MESSAGE });
    await a.services.queryRuntime.pool.stop(id);
  });
});
