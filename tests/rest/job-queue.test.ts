import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failOrphanedQueries, QUEUE_EXPIRED_MESSAGE } from '../../server/src/query/query.repository';
import { ReportScheduler } from '../../server/src/report/report-scheduler';
import { WORKER_LOST_MESSAGE } from '../../server/src/sqllab/sqllab.service';
import { startTestApp, type TestApp } from '../helpers/app';
import { createPgDatabase } from '../helpers/pg';
import { startWebhookSink } from '../helpers/report-sinks';
import { bearer, clientId, queryState, registerDatabase, waitFor } from './sqllab.helpers';

const REDIS_URL = 'redis://127.0.0.1:6379/0';

/**
 * The job queue on Redis inside one process: a web process that takes no jobs leaves async queries
 * queued; a job handed over again after its process died runs only when it never started and cannot
 * write; the report scheduler queues claimed runs for whichever process takes them.
 */
describe('the job queue on Redis (BullMQ)', () => {
  let store: Awaited<ReturnType<typeof createPgDatabase>>;
  let data: Awaited<ReturnType<typeof createPgDatabase>>;
  let hooks: Awaited<ReturnType<typeof startWebhookSink>>;
  let idle: TestApp;
  let busy: TestApp;
  let token: string;
  let database: number;

  beforeAll(async () => {
    [store, data, hooks] = await Promise.all([createPgDatabase(), createPgDatabase(), startWebhookSink()]);
    const client = new pg.Client({ connectionString: data.url });
    await client.connect();
    await client.query(`CREATE TABLE sales (region text, amount numeric); INSERT INTO sales VALUES ('North', 120), ('West', 150)`);
    await client.end();
    // Two processes on one store and one queue: `idle` takes no jobs, `busy` takes them.
    const queue = `meridian-test-jobs-${randomUUID().slice(0, 8)}`;
    idle = await startTestApp({ metadataUrl: store.url, env: { REDIS_URL, JOB_QUEUE: queue, WEB_RUNS_JOBS: 'false' } });
    token = await idle.token();
    database = await registerDatabase(idle, token, { database_name: 'queued', sqlalchemy_uri: data.url, allow_run_async: true });
    busy = await startTestApp({ metadataUrl: store.url, env: { REDIS_URL, JOB_QUEUE: queue } });
  }, 120_000);
  afterAll(async () => {
    await idle?.close();
    await busy?.close();
    await hooks?.close();
    await store?.drop();
    await data?.drop();
  });

  /** A pending async query recorded through `idle`, and the task a worker would be given for it. */
  async function queuedQuery(sql: string) {
    const id = clientId();
    // A queue nobody takes from: the query stays pending, as when every worker is busy.
    const lonely = await startTestApp({ metadataUrl: store.url, env: { REDIS_URL, WEB_RUNS_JOBS: 'false' } });
    try {
      const res = await lonely.http.post('/api/v1/sqllab/execute/').set(bearer(await lonely.token())).send({ database_id: database, sql, client_id: id, runAsync: true });
      expect(res.status, res.text).toBe(202);
      const row = await lonely.services.db.selectFrom('query').select(['id', 'extra_json']).where('client_id', '=', id).executeTakeFirstOrThrow();
      expect(JSON.parse(row.extra_json ?? '{}')).toEqual({ queued: true });
      return { id, queryId: row.id, task: { uri: data.url, queryId: id, sql, limit: 100, resultsKey: randomUUID(), timeoutMs: 10_000, allowDml: false, ctas: null } };
    } finally {
      await lonely.close();
    }
  }

  it('runs a queued query in the process that takes jobs, not the one that received it', async () => {
    const id = clientId();
    const res = await idle.http.post('/api/v1/sqllab/execute/').set(bearer(token)).send({ database_id: database, sql: 'SELECT max(amount) AS top FROM sales', client_id: id, runAsync: true });
    expect(res.status).toBe(202);
    const done = await waitFor('success', async () => {
      const q = await queryState(idle, token, id);
      return q?.state === 'success' ? q : null;
    });
    expect(done.extra.runner).toBe(busy.services.queryRuntime.runner.id);
  });

  it('a query handed over again runs when it never started and cannot write; otherwise it fails with a clear error', async () => {
    const neverStarted = await queuedQuery('SELECT 1 AS one');
    await busy.services.sqllab.runQueued({ queryId: neverStarted.queryId, task: neverStarted.task, readOnly: true }, { redelivered: true });
    expect(await queryState(idle, token, neverStarted.id)).toMatchObject({ state: 'success', rows: 1 });

    const mayWrite = await queuedQuery('SELECT 2 AS two');
    await busy.services.sqllab.runQueued({ queryId: mayWrite.queryId, task: mayWrite.task, readOnly: false }, { redelivered: true });
    expect(await queryState(idle, token, mayWrite.id)).toMatchObject({ state: 'failed', errorMessage: WORKER_LOST_MESSAGE });

    const started = await queuedQuery('SELECT 3 AS three');
    await idle.services.db.updateTable('query').set({ status: 'running' }).where('id', '=', started.queryId).execute();
    await busy.services.sqllab.runQueued({ queryId: started.queryId, task: started.task, readOnly: true }, { redelivered: true });
    expect(await queryState(idle, token, started.id)).toMatchObject({ state: 'failed', errorMessage: WORKER_LOST_MESSAGE });

    // A query stopped while it waited is not run when its job comes.
    const stopped = await queuedQuery('SELECT 4 AS four');
    expect((await idle.http.post('/api/v1/query/stop').set(bearer(token)).send({ client_id: stopped.id })).status).toBe(200);
    await busy.services.sqllab.runQueued({ queryId: stopped.queryId, task: stopped.task, readOnly: true }, { redelivered: false });
    expect(await queryState(idle, token, stopped.id)).toMatchObject({ state: 'stopped', rows: null });
  });

  it('a query left in the queue past its time limit (the queue lost it, no worker came) is failed by the heartbeat sweep, not before', async () => {
    const waiting = await queuedQuery('SELECT 5 AS five');
    // Told of what it failed, so the process can send those queries' users an error event.
    const told: number[][] = [];
    const sweep = (queuedMaxMs: number) => failOrphanedQueries(idle.services.db, { instanceName: 'sweeper', runnerId: 'sweeper-run', queuedMaxMs, onFailed: async (ids) => void told.push(ids) });
    await sweep(60_000);
    expect(await queryState(idle, token, waiting.id)).toMatchObject({ state: 'pending' });
    expect(told).toEqual([]);
    await new Promise((r) => setTimeout(r, 20));
    await sweep(10);
    expect(await queryState(idle, token, waiting.id)).toMatchObject({ state: 'failed', errorMessage: QUEUE_EXPIRED_MESSAGE });
    expect(told).toEqual([[waiting.queryId]]);
  });

  it('the report scheduler queues a claimed run, and the process that takes jobs sends it', async () => {
    const admin = (path: string, body: object) => idle.http.post(path).set(bearer(token)).send(body);
    const dataset = (await admin('/api/v1/dataset/', { database, schema: 'public', table_name: 'sales' })).body.id;
    const params = { viz_type: 'table', datasource: `${dataset}__table`, groupby: ['region'], metrics: [{ expressionType: 'SQL', sqlExpression: 'SUM(amount)', label: 'total' }], adhoc_filters: [], row_limit: 100 };
    const chart = (await admin('/api/v1/chart/', { slice_name: 'Sales', viz_type: 'table', datasource_id: dataset, datasource_type: 'table', params: JSON.stringify(params) })).body.id;
    const report = await admin('/api/v1/report/', { type: 'Report', name: 'Queued sales', crontab: '* * * * *', chart, report_format: 'TEXT', recipients: [{ type: 'Webhook', recipient_config_json: { target: `${hooks.url}/queued` } }] });
    expect(report.status, report.text).toBe(201);
    // The scheduler of the process that takes no jobs claims the run and queues it: it runs nothing itself.
    expect(await idle.services.reportScheduler.tick(new Date(Math.ceil(Date.now() / 60_000) * 60_000))).toBe(0);
    const post = await waitFor('webhook post', async () => hooks.posts.find((p) => p.path === '/queued'));
    expect(post.body.report).toMatchObject({ name: 'Queued sales' });
    await busy.services.jobs.idle();
    const logs = await idle.services.db.selectFrom('report_execution_log').select(['state']).where('report_schedule_id', '=', report.body.id).execute();
    expect(logs.map((l) => l.state)).toContain('Success');

    // When the queue refuses the claimed run (Redis is away), the process that claimed it runs it rather than lose it.
    const refused = await admin('/api/v1/report/', { type: 'Report', name: 'Refused by the queue', crontab: '* * * * *', chart, report_format: 'TEXT', recipients: [{ type: 'Webhook', recipient_config_json: { target: `${hooks.url}/refused` } }] });
    await idle.services.db.updateTable('report_schedule').set({ active: false }).where('id', '=', report.body.id).execute();
    const { reports, reportExecutor, logger, db } = idle.services;
    const scheduler = new ReportScheduler({ db, reports, executor: reportExecutor, logger, instance: 'refused', tickSeconds: 60, jobs: () => ({ distributed: true, submit: () => Promise.reject(new Error('Redis is away')) }) });
    expect(await scheduler.tick(new Date(Math.ceil(Date.now() / 60_000) * 60_000 + 60_000))).toBe(1);
    expect(hooks.posts.find((p) => p.path === '/refused')?.body.report).toMatchObject({ name: 'Refused by the queue' });
    expect(refused.status).toBe(201);
  });
});
