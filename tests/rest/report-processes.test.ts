import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureClientBuilt } from '../e2e/browser';
import { createPgDatabase } from '../helpers/pg';
import { pngFacts } from '../helpers/png';
import { startSmtpSink, startWebhookSink } from '../helpers/report-sinks';
import { login, startServer, type Running } from '../helpers/server-process';

// Issue 15: a report due now is delivered once, by real web processes (server/src/main.ts) on one PostgreSQL
// metadata store, each running its own scheduler on the minute.
describe('reports with two web processes', () => {
  let store: Awaited<ReturnType<typeof createPgDatabase>>;
  let data: Awaited<ReturnType<typeof createPgDatabase>>;
  let smtp: Awaited<ReturnType<typeof startSmtpSink>>;
  let hooks: Awaited<ReturnType<typeof startWebhookSink>>;
  const dirs: string[] = [];
  const servers: Running[] = [];

  beforeAll(async () => {
    ensureClientBuilt();
    [store, data, smtp, hooks] = await Promise.all([createPgDatabase(), createPgDatabase(), startSmtpSink(), startWebhookSink()]);
    const client = new pg.Client({ connectionString: data.url });
    await client.connect();
    await client.query(`CREATE TABLE sales (region text, amount numeric); INSERT INTO sales VALUES ('North', 120), ('South', 80), ('West', 150)`);
    await client.end();
    const env = { DATABASE_URL: store.url, SECRET_KEY: 'two-processes', LOAD_EXAMPLES: 'false', REPORTS_SCHEDULER: 'true', SMTP_HOST: '127.0.0.1', SMTP_PORT: String(smtp.port) };
    // One after the other: the first migrates the store.
    for (const name of ['web-a', 'web-b']) {
      const dir = mkdtempSync(join(tmpdir(), 'meridian-report-proc-'));
      dirs.push(dir);
      servers.push(await startServer(dir, { ...env, INSTANCE_NAME: name }));
    }
  }, 300_000);
  afterAll(async () => {
    for (const s of servers) {
      if (s.child.exitCode === null && s.child.signalCode === null) s.child.kill('SIGTERM');
      await s.exited;
    }
    await Promise.all([smtp?.close(), hooks?.close()]);
    await store?.drop();
    await data?.drop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('a report due every minute is sent once per minute, by email with the chart as PNG and to a webhook', async () => {
    const [a, b] = servers as [Running, Running];
    const headers = await login(a.url);
    const post = async (path: string, body: object) => {
      const res = await fetch(`${a.url}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
      expect(res.status, await res.clone().text()).toBe(201);
      return ((await res.json()) as { id: number }).id;
    };
    const database = await post('/api/v1/database/', { database_name: 'sales', sqlalchemy_uri: data.url });
    const dataset = await post('/api/v1/dataset/', { database, schema: 'public', table_name: 'sales' });
    const params = { viz_type: 'pie', datasource: `${dataset}__table`, groupby: ['region'], metric: { expressionType: 'SQL', sqlExpression: 'SUM(amount)', label: 'total' }, adhoc_filters: [], row_limit: 100 };
    const chart = await post('/api/v1/chart/', { slice_name: 'Sales by region', viz_type: 'pie', datasource_id: dataset, datasource_type: 'table', params: JSON.stringify(params) });
    const report = await post('/api/v1/report/', {
      type: 'Report', name: 'Every minute', crontab: '* * * * *', chart, report_format: 'PNG',
      recipients: [{ type: 'Email', recipient_config_json: { target: 'ana@example.com' } }, { type: 'Webhook', recipient_config_json: { target: `${hooks.url}/minute` } }],
    });

    // The next minute: both processes find it due; one claims and sends it.
    const deadline = Date.now() + 150_000;
    while (!(smtp.mails.length && hooks.posts.length) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 500));
    // Switched off at once, then a moment for any second (wrong) delivery of the same minute to arrive.
    await fetch(`${b.url}/api/v1/report/${report}`, { method: 'PUT', headers: await login(b.url), body: JSON.stringify({ active: false }) });
    await new Promise((r) => setTimeout(r, 5000));
    const logs = ((await (await fetch(`${a.url}/api/v1/report/${report}/log/?q=(order_column:id,order_direction:asc)`, { headers })).json()) as { result: Array<{ state: string; scheduled_dttm: string; error_message: string | null }> }).result;
    const success = logs.filter((l) => l.state === 'Success');
    expect(success.length, JSON.stringify(logs)).toBeGreaterThanOrEqual(1);
    // One delivery per scheduled minute, whichever process ran it.
    const minutes = new Set(success.map((l) => l.scheduled_dttm));
    expect(minutes.size).toBe(success.length);
    expect(logs.filter((l) => l.state === 'Working').length).toBe(success.length);
    expect(smtp.mails.length).toBe(success.length);
    expect(hooks.posts.length).toBe(success.length);
    expect(new Date(success[0]!.scheduled_dttm).getUTCSeconds()).toBe(0);
    const png = smtp.mails[0]!.attachments.find((x) => x.contentType === 'image/png')!.content;
    expect(pngFacts(png).colours).toBeGreaterThan(50);
    expect(pngFacts(Buffer.from(hooks.posts[0]!.body.files[0].content_base64, 'base64')).width).toBeGreaterThan(300);
  }, 240_000);
});
