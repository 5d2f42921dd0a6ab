import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPORT_MESSAGES } from '../../contracts/src/rules/report';
import { pythonIsoformat } from '../../contracts/src/rules/dates';
import { startTestApp, type TestApp } from '../helpers/app';
import { createPgDatabase } from '../helpers/pg';
import { pngFacts } from '../helpers/png';
import { startSmtpSink, startWebhookSink } from '../helpers/report-sinks';
import { ensureClientBuilt } from '../e2e/browser';
import { bearer, registerDatabase } from './sqllab.helpers';

const keep = (name: string, bytes: Buffer) => {
  mkdirSync('test-results/screens', { recursive: true });
  writeFileSync(join('test-results/screens', name), bytes);
};

// Issue 15: reports and alerts — the API, the scheduler (exactly once across web processes), content and delivery.
describe('reports and alerts', () => {
  let store: Awaited<ReturnType<typeof createPgDatabase>>;
  let data: Awaited<ReturnType<typeof createPgDatabase>>;
  let smtp: Awaited<ReturnType<typeof startSmtpSink>>;
  let hooks: Awaited<ReturnType<typeof startWebhookSink>>;
  let a: TestApp;
  let b: TestApp;
  let admin: string;
  let database: number;
  let chart: number;
  let dashboard: number;

  const api = (t: TestApp = a, token = admin) => ({
    get: (path: string) => t.http.get(path).set(bearer(token)),
    post: (path: string, body: object) => t.http.post(path).set(bearer(token)).send(body),
    put: (path: string, body: object) => t.http.put(path).set(bearer(token)).send(body),
    delete: (path: string) => t.http.delete(path).set(bearer(token)),
  });
  const logsOf = async (id: number) => (await api().get(`/api/v1/report/${id}/log/`).query({ q: '(order_column:id,order_direction:asc)' })).body.result as Array<Record<string, any>>;
  let minute = Math.floor(Date.now() / 60_000) * 60_000;
  /** A moment on a new minute boundary each time (the next minutes from now), as the scheduler's clock. */
  const nextMinute = () => new Date((minute += 60_000));

  beforeAll(async () => {
    ensureClientBuilt();
    [store, data, smtp, hooks] = await Promise.all([createPgDatabase(), createPgDatabase(), startSmtpSink(), startWebhookSink()]);
    const client = new pg.Client({ connectionString: data.url });
    await client.connect();
    await client.query(`CREATE TABLE sales (region text, amount numeric); INSERT INTO sales VALUES ('North', 120), ('South', 80), ('East', 45), ('West', 150)`);
    await client.end();
    // Two web processes on one metadata store, each with its own scheduler, connection pool and browser.
    const env = { SMTP_HOST: '127.0.0.1', SMTP_PORT: String(smtp.port), SMTP_MAIL_FROM: 'reports@meridian.test', WEBDRIVER_BASEURL_USER_FRIENDLY: 'https://bi.example.com' };
    a = await startTestApp({ metadataUrl: store.url, listen: true, env });
    b = await startTestApp({ metadataUrl: store.url, listen: true, env });
    admin = await a.token();
    database = await registerDatabase(a, admin, { database_name: 'report data', sqlalchemy_uri: data.url });
    const dataset = (await api().post('/api/v1/dataset/', { database, schema: 'public', table_name: 'sales' })).body.id;
    const params = { viz_type: 'pie', datasource: `${dataset}__table`, groupby: ['region'], metric: { expressionType: 'SQL', sqlExpression: 'SUM(amount)', label: 'total' }, adhoc_filters: [], row_limit: 100 };
    const created = await api().post('/api/v1/chart/', { slice_name: 'Sales by region', viz_type: 'pie', datasource_id: dataset, datasource_type: 'table', params: JSON.stringify(params) });
    expect(created.status).toBe(201);
    chart = created.body.id;
    dashboard = (await api().post('/api/v1/dashboard/', { dashboard_title: 'Sales' })).body.id;
  }, 180_000);
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await Promise.all([smtp?.close(), hooks?.close()]);
    await store?.drop();
    await data?.drop();
  });

  it('creates, reads, lists by chart, dashboard, creation method and creator, toggles and deletes reports', async () => {
    const body = {
      type: 'Report', name: 'Weekly sales', description: 'Every Monday', crontab: '0 9 * * 1', timezone: 'Europe/Paris', creation_method: 'charts', chart,
      report_format: 'PNG', recipients: [{ type: 'Email', recipient_config_json: { target: 'team@example.com' } }],
    };
    const created = await api().post('/api/v1/report/', body);
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ id: expect.any(Number), result: body });
    const id = created.body.id;
    const got = (await api().get(`/api/v1/report/${id}`)).body.result;
    expect(got).toMatchObject({
      id, name: 'Weekly sales', type: 'Report', active: true, crontab: '0 9 * * 1', timezone: 'Europe/Paris', creation_method: 'charts', report_format: 'PNG',
      chart: { id: chart, slice_name: 'Sales by region', viz_type: 'pie' }, dashboard: null, grace_period: 14400, working_timeout: 3600, log_retention: 90,
      last_state: 'Not triggered', owners: [{ id: expect.any(Number), first_name: 'Admin', last_name: 'User' }],
      recipients: [{ id: expect.any(Number), type: 'Email', recipient_config_json: JSON.stringify({ target: 'team@example.com' }) }],
    });

    // The header's lookup (spec 02 §7): by chart id, creation method and creator.
    const me = (await api().get('/api/v1/me/')).body.result.id;
    const q = `(filters:!((col:chart_id,opr:eq,value:${chart}),(col:creation_method,opr:eq,value:charts),(col:created_by,opr:rel_o_m,value:${me})))`;
    const listed = await api().get('/api/v1/report/').query({ q });
    expect(listed.body.count).toBe(1);
    expect(listed.body.result[0]).toMatchObject({ id, name: 'Weekly sales', crontab_humanized: 'At 09:00 AM, only on Monday', recipients: [{ id: expect.any(Number), type: 'Email' }], owners: [{ first_name: 'Admin' }] });
    expect((await api().get('/api/v1/report/').query({ q: `(filters:!((col:dashboard_id,opr:eq,value:${dashboard})))` })).body.count).toBe(0);

    // One header report per user and chart.
    const again = await api().post('/api/v1/report/', { ...body, name: 'Another' });
    expect(again.status).toBe(422);
    expect(again.body.message).toEqual({ creation_method: [REPORT_MESSAGES.alreadyAttached] });

    // Active alone toggles it.
    expect((await api().put(`/api/v1/report/${id}`, { active: false })).status).toBe(200);
    expect((await api().get(`/api/v1/report/${id}`)).body.result.active).toBe(false);

    // A Gamma neither sees nor changes the admin's report.
    const gamma = await a.userWithRoles('report_gamma', ['Gamma']);
    expect((await api(a, gamma).get('/api/v1/report/')).body.count).toBe(0);
    expect((await api(a, gamma).put(`/api/v1/report/${id}`, { active: true })).status).toBe(403);
    expect((await api(a, gamma).delete(`/api/v1/report/${id}`)).status).toBe(403);

    expect((await api().delete(`/api/v1/report/${id}`)).body).toEqual({ message: 'OK' });
    expect((await api().get(`/api/v1/report/${id}`)).status).toBe(404);
  });

  it('refuses bad input with the right field errors, and keeps what is stored', async () => {
    const base = { type: 'Report', name: 'Checks', crontab: '0 * * * *', chart };
    const cases: Array<[object, Record<string, string[]>]> = [
      [{ crontab: '61 * * * *' }, { crontab: [REPORT_MESSAGES.crontabInvalid] }],
      [{ crontab: '* * * *' }, { crontab: [REPORT_MESSAGES.crontabInvalid] }],
      [{ dashboard }, { chart: [REPORT_MESSAGES.chartOrDashboard] }],
      [{ chart: null }, { chart: [REPORT_MESSAGES.chartOrDashboardRequired] }],
      [{ type: 'Alert' }, { database: [REPORT_MESSAGES.databaseRequired], sql: [REPORT_MESSAGES.sqlRequired] }],
      [{ chart: 999999 }, { chart: ['Chart does not exist'] }],
      [{ chart: null, dashboard, report_format: 'CSV' }, { report_format: ['A dashboard is sent as PNG or PDF'] }],
      [{ report_format: 'PDF' }, { report_format: ['A chart is sent as PNG, CSV or TEXT'] }],
    ];
    for (const [change, errors] of cases) {
      const res = await api().post('/api/v1/report/', { ...base, ...change });
      expect(res.status, JSON.stringify(change)).toBe(422);
      expect(res.body.message).toEqual(errors);
    }
    expect((await api().post('/api/v1/report/', { ...base, timezone: 'Mars/Olympus' })).status).toBe(400);
    expect((await api().post('/api/v1/report/', { ...base, report_format: 'GIF' })).status).toBe(400);
    const first = await api().post('/api/v1/report/', base);
    expect(first.status).toBe(201);
    expect((await api().post('/api/v1/report/', base)).body.message).toEqual({ name: [REPORT_MESSAGES.nameUnique] });
    const bad = await api().put(`/api/v1/report/${first.body.id}`, { crontab: 'every day' });
    expect(bad.status).toBe(422);
    expect((await api().get(`/api/v1/report/${first.body.id}`)).body.result.crontab).toBe('0 * * * *');
    // Moving a chart's CSV report to a dashboard is refused too, and the report stays as it was.
    await api().put(`/api/v1/report/${first.body.id}`, { report_format: 'CSV' });
    expect((await api().put(`/api/v1/report/${first.body.id}`, { chart: null, dashboard })).body.message).toEqual({ report_format: ['A dashboard is sent as PNG or PDF'] });
    expect((await api().get(`/api/v1/report/${first.body.id}`)).body.result).toMatchObject({ report_format: 'CSV', chart: { id: chart } });
    // _info and related
    const info = (await api().get('/api/v1/report/_info').query({ q: '(keys:!(permissions,filters))' })).body;
    expect(info.permissions).toEqual(['can_read', 'can_write']);
    expect(info.filters.chart_id).toBeDefined();
    const related = (await api().get('/api/v1/report/related/chart').query({ q: '(filter:Sales)' })).body;
    expect(related.result).toEqual([{ value: chart, text: 'Sales by region', extra: {} }]);
    expect((await api().get('/api/v1/report/related/owners')).body.result.length).toBeGreaterThan(0);
    // Bulk delete
    expect((await api().delete(`/api/v1/report/`).query({ q: `!(${first.body.id})` })).body).toEqual({ message: 'Deleted 1 report schedule' });
  });

  it('a due report runs once with two web processes: a real PNG of the chart by email and to a webhook, logged Working then Success', async () => {
    const created = await api().post('/api/v1/report/', {
      type: 'Report', name: 'Every minute', crontab: '* * * * *', chart, report_format: 'PNG', description: 'Sales by region, every minute',
      recipients: [{ type: 'Email', recipient_config_json: { target: 'ana@example.com', ccTarget: 'bo@example.com' } }, { type: 'Webhook', recipient_config_json: { target: `${hooks.url}/sales` } }],
    });
    const id = created.body.id;
    const mailsBefore = smtp.mails.length;
    const postsBefore = hooks.posts.length;
    const at = nextMinute();
    // Both processes find it due at the same scheduled time; one claims the run.
    const runs = await Promise.all([a.services.reportScheduler.tick(at), b.services.reportScheduler.tick(at)]);
    expect(runs.sort()).toEqual([0, 1]);
    // A later tick of the same minute does not run it again.
    expect(await b.services.reportScheduler.tick(new Date(at.getTime() + 30_000))).toBe(0);

    const mails = smtp.mails.slice(mailsBefore);
    expect(mails).toHaveLength(1);
    const mail = mails[0];
    expect(mail.subject).toBe('[Meridian] Every minute');
    expect(mail.from?.text).toBe('reports@meridian.test');
    expect(mail.cc && !Array.isArray(mail.cc) ? mail.cc.text : '').toBe('bo@example.com');
    expect(mail.html).toContain(`href="https://bi.example.com/explore/?slice_id=${chart}"`);
    const image = mail.attachments.find((x) => x.contentType === 'image/png')!;
    expect(image.contentDisposition).toBe('inline');
    expect(mail.html).toContain(`cid:${image.cid}`);
    keep('report-email-chart.png', image.content);
    const facts = pngFacts(image.content);
    expect(facts.width).toBeGreaterThan(300);
    expect(facts.colours).toBeGreaterThan(50);

    const posts = hooks.posts.slice(postsBefore);
    expect(posts).toHaveLength(1);
    expect(posts[0].path).toBe('/sales');
    expect(posts[0].body.text).toContain('*[Meridian] Every minute*');
    expect(posts[0].body.blocks[0].type).toBe('section');
    const file = posts[0].body.files[0];
    expect(file.content_type).toBe('image/png');
    expect(pngFacts(Buffer.from(file.content_base64, 'base64')).colours).toBeGreaterThan(50);

    const logs = await logsOf(id);
    expect(logs.map((l) => l.state), JSON.stringify((await api().get(`/api/v1/report/${id}/log/`)).body)).toEqual(['Working', 'Success']);
    expect(new Set(logs.map((l) => l.uuid)).size).toBe(1);
    expect(logs[1].scheduled_dttm).toBe(pythonIsoformat(at));
    expect((await api().get(`/api/v1/report/${id}/log/${logs[1].id}`)).body.result).toMatchObject({ state: 'Success', error_message: null });
    expect((await api().get(`/api/v1/report/${id}`)).body.result.last_state).toBe('Success');
    const off = await api().put(`/api/v1/report/${id}`, { active: false });
    expect(off.status, off.text).toBe(200);
  }, 120_000);

  it('an alert over its threshold fires, one under it is Not triggered, and a fired alert waits out its grace period', async () => {
    const alert = (name: string, sql: string, op: string, threshold: number) =>
      api().post('/api/v1/report/', {
        type: 'Alert', name, crontab: '* * * * *', chart, database, sql, validator_type: 'operator', validator_config_json: { op, threshold }, report_format: 'TEXT', grace_period: 3600,
        recipients: [{ type: 'Webhook', recipient_config_json: { target: `${hooks.url}/alerts` } }],
      });
    const fires = (await alert('Big region', 'SELECT max(amount) FROM sales', '>', 100)).body.id;
    const quiet = (await alert('Huge region', 'SELECT max(amount) FROM sales', '>', 1000)).body.id;
    const before = hooks.posts.length;
    await a.services.reportScheduler.tick(nextMinute());
    const posts = hooks.posts.slice(before);
    expect(posts).toHaveLength(1);
    expect(posts[0].body.report).toMatchObject({ name: 'Big region', alert_value: 150 });
    // TEXT: the chart's rows as a table.
    expect(posts[0].body.blocks[1].text.text).toMatch(/region\s+\| total/);
    expect(posts[0].body.blocks[1].text.text).toContain('West');
    expect((await logsOf(fires)).at(-1)).toMatchObject({ state: 'Success', value: 150 });
    expect((await logsOf(quiet)).at(-1)).toMatchObject({ state: 'Not triggered', value: 150 });
    expect((await api().get(`/api/v1/report/${quiet}`)).body.result).toMatchObject({ last_state: 'Not triggered', last_value: 150 });

    // Within the hour of grace the fired alert is not sent again.
    await a.services.reportScheduler.tick(nextMinute());
    expect(hooks.posts.length).toBe(before + 1);
    expect((await logsOf(fires)).at(-1)).toMatchObject({ state: 'On Grace' });

    // An alert query that returns two rows is an error with Superset's message.
    const twoRows = (await alert('Two rows', 'SELECT amount FROM sales', '>', 1)).body.id;
    await a.services.reportScheduler.tick(nextMinute());
    expect((await logsOf(twoRows)).find((l) => l.state === 'Error')?.error_message).toBe('Alert query returned more than one row. 2 rows returned');
    for (const id of [fires, quiet, twoRows]) await api().put(`/api/v1/report/${id}`, { active: false });
  }, 120_000);

  it('with ALERT_REPORTS off there are no reports: the REST and tRPC doors answer 404 and the menu leaves them out', async () => {
    const off = await startTestApp({ env: { FEATURE_ALERT_REPORTS: 'false' } });
    try {
      const token = await off.token();
      const list = await off.http.get('/api/v1/report/').set(bearer(token));
      expect(list.status).toBe(404);
      const { appRouter } = await import('../../server/src/trpc/app-router');
      const caller = appRouter.createCaller({ actor: await off.services.security.actorFor(1), services: off.services });
      await expect(caller.report.list({})).rejects.toMatchObject({ code: 'NOT_FOUND' });
      const menu = (await off.http.get('/api/v1/menu/').set(bearer(token))).body.result as Array<{ name: string; childs?: Array<{ name: string }> }>;
      expect(menu.find((m) => m.name === 'Settings')!.childs!.map((c) => c.name)).not.toContain('Alerts & Report');
    } finally {
      await off.close();
    }
  });

  it('a run past its working timeout ends as an error at once: its query is stopped on the database and nothing is sent late', async () => {
    const id = (await api().post('/api/v1/report/', {
      type: 'Alert', name: 'Slow alert', crontab: '* * * * *', chart, database, sql: 'SELECT 1 AS one FROM pg_sleep(20)', validator_type: 'operator',
      validator_config_json: { op: '>', threshold: 0 }, report_format: 'TEXT', working_timeout: 1,
      recipients: [{ type: 'Webhook', recipient_config_json: { target: `${hooks.url}/slow` } }],
    })).body.id;
    const sleeping = async () => {
      const client = new pg.Client({ connectionString: data.url });
      await client.connect();
      try {
        return (await client.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE query LIKE '%pg_sleep(20)%' AND state = 'active' AND pid <> pg_backend_pid()`)).rows[0].n as number;
      } finally {
        await client.end();
      }
    };
    await expect(a.services.reportExecutor.execute(id, nextMinute())).resolves.toBe('Error');
    expect((await logsOf(id)).find((l) => l.state === 'Error')?.error_message).toBe(REPORT_MESSAGES.workingTimeout);
    // The 20 s sleep is gone well before it would have ended: the abort stopped it on the database.
    await expect.poll(sleeping, { timeout: 10_000 }).toBe(0);
    expect(hooks.posts.filter((p) => p.path === '/slow')).toHaveLength(0);
    await api().put(`/api/v1/report/${id}`, { active: false });
  }, 60_000);

  it('a recipient that fails is logged with its reason, and the others still receive the report; CSV is attached', async () => {
    const id = (await api().post('/api/v1/report/', {
      type: 'Report', name: 'Partly failing', crontab: '* * * * *', chart, report_format: 'CSV',
      recipients: [
        { type: 'Webhook', recipient_config_json: { target: `${hooks.url}/fail` } },
        { type: 'Email', recipient_config_json: { target: 'ana@example.com' } },
        { type: 'Webhook', recipient_config_json: { target: `${hooks.url}/ok` } },
      ],
    })).body.id;
    const mailsBefore = smtp.mails.length;
    const postsBefore = hooks.posts.length;
    await b.services.reportScheduler.tick(nextMinute());
    const report = smtp.mails.slice(mailsBefore).find((m) => m.subject === '[Meridian] Partly failing')!;
    const csv = report.attachments.find((x) => x.filename === 'Partly failing.csv')!;
    expect(csv.content.toString('utf8').split(/\r?\n/)[0]).toBe('region,total');
    expect(csv.content.toString('utf8')).toContain('West,150');
    expect(hooks.posts.slice(postsBefore).map((p) => p.path)).toEqual(['/ok']);
    const error = (await logsOf(id)).find((l) => l.state === 'Error' && l.error_message !== 'Notification sent with error')!;
    expect(error.error_message).toMatch(/^Report Schedule notification failed: Webhook .*\/fail: .* answered 500 receiver is down$/);
    // The owners are told once.
    const notice = smtp.mails.slice(mailsBefore).find((m) => m.subject === '[Meridian] Partly failing failed')!;
    expect(notice.text).toContain('answered 500');
    expect((notice.to as { text: string }).text).toBe('admin@meridian.local');
    await api().put(`/api/v1/report/${id}`, { active: false });
  }, 120_000);

  it('a dashboard report as PDF; a run still working is not started twice; old logs are pruned', async () => {
    const id = (await api().post('/api/v1/report/', {
      type: 'Report', name: 'Dashboard PDF', crontab: '* * * * *', dashboard, report_format: 'PDF', log_retention: 1, creation_method: 'dashboards',
      recipients: [{ type: 'Webhook', recipient_config_json: { target: `${hooks.url}/pdf` } }],
    })).body.id;
    const before = hooks.posts.length;
    await a.services.reportScheduler.tick(nextMinute());
    const pdf = Buffer.from(hooks.posts[before].body.files[0].content_base64, 'base64');
    expect(hooks.posts[before].body.files[0].filename).toBe('Dashboard PDF.pdf');
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');

    // Marked working (as if another run were still under way): the next run refuses, then times out.
    await a.services.db.updateTable('report_schedule').set({ last_state: 'Working', working_timeout: 600 }).where('id', '=', id).execute();
    await a.services.db.insertInto('report_execution_log').values({ scheduled_dttm: new Date(), start_dttm: new Date(), end_dttm: new Date(), state: 'Working', report_schedule_id: id }).execute();
    await a.services.reportExecutor.execute(id, new Date());
    expect((await logsOf(id)).at(-1)).toMatchObject({ state: 'Working', error_message: REPORT_MESSAGES.previousWorking });
    await a.services.reportExecutor.execute(id, new Date(), new Date(Date.now() + 601_000));
    expect((await logsOf(id)).at(-1)).toMatchObject({ state: 'Error', error_message: REPORT_MESSAGES.workingTimeout });

    // A log older than log_retention (1 day) goes at the next hourly prune.
    const count = (await logsOf(id)).length;
    await a.services.db.updateTable('report_execution_log').set({ end_dttm: new Date(Date.now() - 3 * 86_400_000) }).where('report_schedule_id', '=', id).where('state', '=', 'Working').execute();
    await a.services.db.updateTable('report_schedule').set({ active: false }).where('id', '=', id).execute();
    minute += 3_600_000;
    await a.services.reportScheduler.tick(nextMinute());
    const after = await logsOf(id);
    expect(after.length).toBeLessThan(count);
    expect(after.every((l) => l.state !== 'Working')).toBe(true);
  }, 120_000);
});
