import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { BullJobQueue } from '../../server/src/jobs/job-queue';
import type { MeridianJobs } from '../../server/src/jobs/jobs';
import { createLogger } from '../../server/src/logger';
import { WORKER_LOST_MESSAGE } from '../../server/src/sqllab/sqllab.service';
import { createPgDatabase, PG_ADMIN_URL } from '../helpers/pg';
import { startWebhookSink } from '../helpers/report-sinks';
import { login, startServer, startWorker, type Running } from '../helpers/server-process';
import { waitFor } from './sqllab.helpers';

const REDIS_URL = 'redis://127.0.0.1:6379/14';

type Worker = Awaited<ReturnType<typeof startWorker>>;

/**
 * The deployment of issue 16: two web processes that take no jobs (WEB_RUNS_JOBS=false) and two
 * `meridian worker` processes, all real processes on one PostgreSQL metadata store and one Redis.
 */
describe('2 web processes + 2 workers on PostgreSQL and Redis', () => {
  let store: Awaited<ReturnType<typeof createPgDatabase>>;
  let target: Awaited<ReturnType<typeof createPgDatabase>>;
  let admin: pg.Client;
  let redis: Redis;
  const dirs: string[] = [];
  let env: Record<string, string>;
  let webA: Running;
  let webB: Running;
  const workers: Worker[] = [];
  let headersA: Record<string, string>;
  let headersB: Record<string, string>;
  let database: number;
  let socket: WebSocket;
  let hooks: Awaited<ReturnType<typeof startWebhookSink>>;
  const events: Array<Record<string, unknown>> = [];

  const api = async (web: Running, headers: Record<string, string>, path: string, init: { method?: string; body?: unknown } = {}) => {
    const res = await fetch(`${web.url}${path}`, { method: init.method ?? 'GET', headers, body: init.body === undefined ? undefined : JSON.stringify(init.body) });
    const text = await res.text();
    return { status: res.status, text, json: () => JSON.parse(text) as Record<string, any> };
  };
  const query = async (web: Running, headers: Record<string, string>, id: string) =>
    ((await api(web, headers, '/api/v1/query/updated_since?q=(last_updated_ms:0)')).json().result as Array<Record<string, any>>).find((q) => q.id === id);
  const submit = async (sql: string) => {
    const id = randomBytes(8).toString('base64url').slice(0, 11);
    const res = await api(webA, headersA, '/api/v1/sqllab/execute/', { method: 'POST', body: { database_id: database, sql, client_id: id, runAsync: true } });
    expect(res.status, res.text).toBe(202);
    return id;
  };
  /** Submits a long pg_sleep and waits until a worker runs it with its cancel id recorded (read through web B). */
  const sleeping = async (marker: string) => {
    const id = await submit(`SELECT pg_sleep(120) AS ${marker}`);
    const running = await waitFor('running with a cancel id', async () => {
      const q = await query(webB, headersB, id);
      return q?.state === 'running' && q.extra?.cancel_query ? q : null;
    });
    return { id, running };
  };
  /** The worker processes' runs, by run id, from the shared query_runner table. */
  const workerRuns = async () => {
    const rows = await new pg.Client({ connectionString: store.url });
    await rows.connect();
    try {
      const r = await rows.query<{ id: string; instance_name: string }>("SELECT id, instance_name FROM query_runner WHERE instance_name LIKE '%:worker:%'");
      return new Map(r.rows.map((row) => [row.id, Number(row.instance_name.split(':').pop())]));
    } finally {
      await rows.end();
    }
  };
  const backendState = async (pid: number) =>
    ((await admin.query('SELECT state FROM pg_stat_activity WHERE pid = $1 AND datname = $2', [pid, target.name])).rows[0]?.state as string | undefined) ?? null;
  const startWeb = () => {
    const dir = mkdtempSync(join(tmpdir(), 'meridian-web-'));
    dirs.push(dir);
    return startServer(dir, env);
  };

  beforeAll(async () => {
    store = await createPgDatabase();
    target = await createPgDatabase();
    admin = new pg.Client({ connectionString: PG_ADMIN_URL });
    await admin.connect();
    const data = new pg.Client({ connectionString: target.url });
    await data.connect();
    await data.query(`CREATE TABLE sales (region text, amount numeric); INSERT INTO sales VALUES ('North', 120), ('South', 80), ('East', 45), ('West', 150)`);
    await data.end();
    hooks = await startWebhookSink();
    redis = new Redis(REDIS_URL);
    await redis.flushdb();
    env = {
      DATABASE_URL: store.url,
      REDIS_URL,
      JOB_QUEUE: `meridian-scaleout-${randomBytes(4).toString('hex')}`,
      SECRET_KEY: 'scale-out-secret',
      WEB_RUNS_JOBS: 'false',
      JOB_LOCK_SECONDS: '2',
      LOAD_EXAMPLES: 'false',
      FEATURE_GLOBAL_ASYNC_QUERIES: 'true',
      SHUTDOWN_GRACE_SECONDS: '2',
      FEATURE_ALERT_REPORTS: 'true',
    };
    // A first, so that one process migrates a fresh store and seeds the admin; then the rest together.
    webA = await startWeb();
    const started = await Promise.all([startWeb(), startWorker(env), startWorker(env)]);
    webB = started[0];
    workers.push(started[1], started[2]);
    headersA = await login(webA.url);
    headersB = await login(webB.url);
    const created = await api(webA, headersA, '/api/v1/database/', { method: 'POST', body: { database_name: 'scale-out target', sqlalchemy_uri: target.url, expose_in_sqllab: true, allow_run_async: true } });
    expect(created.status, created.text).toBe(201);
    database = created.json().id;
    // Events are read from web B, though every query is submitted to web A.
    socket = new WebSocket(`${webB.url.replace('http', 'ws')}/ws`, { headers: { Authorization: headersB.Authorization } });
    socket.on('message', (data) => events.push(JSON.parse(String(data))));
    await new Promise((done, fail) => {
      socket.once('open', done);
      socket.once('error', fail);
    });
  }, 240_000);

  afterAll(async () => {
    socket?.close();
    for (const p of [webA, webB, ...workers]) p?.child.kill('SIGKILL');
    await Promise.all([webA, webB, ...workers].map((p) => p?.exited));
    await hooks?.close();
    await redis?.flushdb();
    redis?.disconnect();
    await admin?.end();
    await target?.drop();
    await store?.drop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('runs a query submitted through web A on a worker; its event reaches a socket on web B, which serves and exports its results', async () => {
    const id = await submit('SELECT n, n * 2 AS twice FROM generate_series(1, 5000) AS n');
    const event = await waitFor('done event on web B', async () => events.find((e) => e.job_id === id && e.status === 'done'));
    expect(event.result_url).toMatch(/^\/api\/v1\/sqllab\/results\//);
    const record = await query(webB, headersB, id);
    expect(record).toMatchObject({ state: 'success', rows: 5000 });
    expect([...(await workerRuns()).keys()]).toContain(record!.extra.runner);

    const results = await api(webB, headersB, event.result_url as string);
    expect(results.status).toBe(200);
    expect(results.json().data).toHaveLength(5000);
    expect(results.json().data[4999]).toEqual({ n: 5000, twice: 10000 });
    const csv = await api(webB, headersB, `/api/v1/sqllab/export/${id}/`);
    expect(csv.status).toBe(200);
    const lines = csv.text.trim().split(/\r?\n/);
    expect(lines[0]).toBe('n,twice');
    expect(lines).toHaveLength(5001);
  });

  it('runs async chart data and a report run on the workers: the chart answer is read from web B, the report reaches its webhook', async () => {
    // Found rather than created on a retry of this test: a table has one dataset.
    const listed = await api(webA, headersA, `/api/v1/dataset/?q=(filters:!((col:table_name,opr:eq,value:sales)))`);
    let datasetId = listed.json().result?.[0]?.id as number | undefined;
    if (datasetId === undefined) {
      const dataset = await api(webA, headersA, '/api/v1/dataset/', { method: 'POST', body: { database, schema: 'public', table_name: 'sales' } });
      expect(dataset.status, dataset.text).toBe(201);
      datasetId = dataset.json().id as number;
    }
    const metric = { expressionType: 'SQL', sqlExpression: 'SUM(amount)', label: 'total' };
    const job = await api(webA, headersA, '/api/v1/chart/data', {
      method: 'POST',
      body: { datasource: { id: datasetId, type: 'table' }, queries: [{ columns: ['region'], metrics: [metric], orderby: [[metric, false]], row_limit: 10 }], result_format: 'json', result_type: 'full' },
    });
    expect(job.status, job.text).toBe(202);
    const done = await waitFor('chart data event on web B', async () => events.find((e) => e.job_id === job.json().job_id && e.status === 'done'));
    const answer = await api(webB, headersB, done.result_url as string);
    expect(answer.status, answer.text).toBe(200);
    expect(answer.json().result[0].data.map((r: Record<string, unknown>) => r.region)).toEqual(['West', 'North', 'South', 'East']);

    // A report run as a web process's scheduler queues it once claimed (its crontab is never due here).
    const params = { viz_type: 'table', datasource: `${datasetId}__table`, groupby: ['region'], metrics: [metric], adhoc_filters: [], row_limit: 100 };
    const chart = await api(webA, headersA, '/api/v1/chart/', { method: 'POST', body: { slice_name: 'Sales by region', viz_type: 'table', datasource_id: datasetId, datasource_type: 'table', params: JSON.stringify(params) } });
    expect(chart.status, chart.text).toBe(201);
    const report = await api(webA, headersA, '/api/v1/report/', {
      method: 'POST',
      body: { type: 'Report', name: 'Sales from a worker', crontab: '0 0 1 1 *', chart: chart.json().id, report_format: 'TEXT', recipients: [{ type: 'Webhook', recipient_config_json: { target: `${hooks.url}/sales` } }] },
    });
    expect(report.status, report.text).toBe(201);
    const queue = new BullJobQueue<MeridianJobs>({ redisUrl: REDIS_URL, queueName: env.JOB_QUEUE, lockSeconds: 2, logger: createLogger('silent') });
    await queue.submit('report', { reportId: report.json().id, scheduledAt: new Date().toISOString() });
    await queue.close();
    const post = await waitFor('webhook post from a worker', async () => hooks.posts.find((p) => p.path === '/sales'));
    expect(post.body.report).toMatchObject({ name: 'Sales from a worker' });
    expect(post.body.blocks[1].text.text).toContain('West');
    // The log turns from Working to Success once the webhook has answered, so it is waited for.
    const states = await waitFor('report log reads Success', async () => {
      const logs = (await api(webB, headersB, `/api/v1/report/${report.json().id}/log/`)).json().result as Array<Record<string, unknown>>;
      const seen = logs.map((l) => l.state);
      return seen.includes('Success') || seen.includes('Error') ? seen : null;
    });
    expect(states).toContain('Success');
  });

  it('stops from web B a query a worker runs: the statement leaves PostgreSQL and the query reads stopped', async () => {
    const { id, running } = await sleeping('stop_me');
    const pid = Number(running.extra.cancel_query);
    await waitFor('statement active on PostgreSQL', async () => (await backendState(pid)) === 'active');
    const stop = await api(webB, headersB, '/api/v1/query/stop', { method: 'POST', body: { client_id: id } });
    expect(stop.status, stop.text).toBe(200);
    await waitFor('backend gone from pg_stat_activity', async () => (await backendState(pid)) === null);
    expect(await query(webA, headersA, id)).toMatchObject({ state: 'stopped' });
  });

  it('fails the query of a worker killed mid-query with a clear error, cancels it on PostgreSQL, and the other worker keeps serving', async () => {
    const { id, running } = await sleeping('killed');
    const pid = Number(running.extra.cancel_query);
    const victimPid = (await workerRuns()).get(running.extra.runner as string);
    const victim = workers.find((w) => w.child.pid === victimPid);
    expect(victim, 'the query runs on one of the two workers').toBeDefined();
    victim!.child.kill('SIGKILL');
    await victim!.exited;

    const failed = await waitFor('query failed', async () => {
      const q = await query(webB, headersB, id);
      return q?.state === 'failed' ? q : null;
    }, 60_000);
    expect(failed.errorMessage).toBe(WORKER_LOST_MESSAGE);
    expect((await waitFor('error event on web B', async () => events.find((e) => e.job_id === id && e.status === 'error'))).errors).toEqual([expect.objectContaining({ message: WORKER_LOST_MESSAGE })]);
    await waitFor('statement cancelled on PostgreSQL', async () => (await backendState(pid)) !== 'active');

    const next = await submit('SELECT 42 AS answer');
    await waitFor('done event after the kill', async () => events.find((e) => e.job_id === next && e.status === 'done'));
    const survivor = workers.find((w) => w !== victim)!;
    expect((await workerRuns()).get((await query(webB, headersB, next))!.extra.runner as string)).toBe(survivor.child.pid);
  });

  it('restarting a web process loses no saved object and no finished result', async () => {
    const saved = await api(webA, headersA, '/api/v1/saved_query/', { method: 'POST', body: { db_id: database, label: 'kept across restarts', sql: 'SELECT 1' } });
    expect(saved.status, saved.text).toBe(201);
    const id = await submit('SELECT 7 AS seven');
    const done = await waitFor('done', async () => events.find((e) => e.job_id === id && e.status === 'done'));

    webA.child.kill('SIGTERM');
    expect((await webA.exited).code).toBe(0);
    webA = await startWeb();
    headersA = await login(webA.url);
    const again = await api(webA, headersA, `/api/v1/saved_query/${saved.json().id}`);
    expect(again.status).toBe(200);
    expect(again.json().result).toMatchObject({ label: 'kept across restarts', sql: 'SELECT 1' });
    const results = await api(webA, headersA, done.result_url as string);
    expect(results.status).toBe(200);
    expect(results.json().data).toEqual([{ seven: 7 }]);
  });
});
