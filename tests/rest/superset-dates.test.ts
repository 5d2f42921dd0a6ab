import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureTestExamples } from '../helpers/examples';
import { startTestApp, type MetadataKind, type TestApp } from '../helpers/app';
import { clientId } from './sqllab.helpers';

// Superset writes its naive datetimes with Python's isoformat() (no offset, microseconds, no fraction when
// they are 0), `changed_on_utc` with strftime('%Y-%m-%dT%H:%M:%S.%f%z') and `*_humanized` with
// humanize.naturaltime. A script that reads them with datetime.fromisoformat (which refuses 'Z' before
// Python 3.11) or strptime must read Meridian's answers the same way.
const PY_ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{6})?$/;
const UTC_STAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}\+0000$/;
const NATURAL = /^(now|(a|an|\d+) (second|minute|hour|day|month|year)s?( ago| from now)|1 year, \d+ (day|month)s? (ago|from now))$/;
const DATE_KEYS = new Set(['changed_on', 'created_on', 'last_saved_at', 'last_run', 'last_eval_dttm', 'start_dttm', 'end_dttm', 'scheduled_dttm', 'dttm', 'last_login', 'createdOn']);

/** Every date-like field of an answer that is not written the way Superset writes it, with its path. */
function misdated(value: unknown, path = ''): string[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => misdated(v, `${path}[${i}]`));
  if (!value || typeof value !== 'object') return [];
  // `label_columns` names the fields (`changed_on: 'Changed On'`); it holds no dates.
  return Object.entries(value).flatMap(([key, v]) => {
    if (key === 'label_columns') return [];
    const at = `${path}.${key}`;
    if (typeof v === 'string') {
      if (DATE_KEYS.has(key) && !PY_ISO.test(v)) return [`${at}: ${v}`];
      if (key.endsWith('_utc') && !UTC_STAMP.test(v)) return [`${at}: ${v}`];
      if (key.endsWith('_humanized') && key !== 'crontab_humanized' && !NATURAL.test(v)) return [`${at}: ${v}`];
      // A JavaScript Date written as it is (toISOString) is never what Superset sends.
      if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3})?Z$/.test(v)) return [`${at}: ${v}`];
      return [];
    }
    return misdated(v, at);
  });
}

describe.each<MetadataKind>(['pglite', 'postgres'])('dates in REST answers as Superset writes them (%s)', (metadata) => {
  let t: TestApp;
  let dir: string;
  let headers: Record<string, string>;
  const ids: Record<string, number> = {};
  const get = async (path: string, q?: string) => {
    const res = await t.http.get(path).query(q ? { q } : {}).set(headers);
    expect(res.status, `${path}: ${res.text.slice(0, 200)}`).toBe(200);
    return res.body;
  };
  const post = async (path: string, body: object) => {
    const res = await t.http.post(path).set(headers).send(body);
    expect(res.status, `${path}: ${res.text.slice(0, 200)}`).toBeLessThan(300);
    return res.body;
  };

  beforeAll(async () => {
    t = await startTestApp({ metadata });
    dir = mkdtempSync(join(tmpdir(), 'meridian-dates-'));
    // The script logs in as Superset's documentation shows, then sends the CSRF token back.
    const login = await t.http.post('/api/v1/security/login').send({ username: 'admin', password: 'admin', provider: 'db', refresh: true });
    const auth = { Authorization: `Bearer ${login.body.access_token}` };
    const csrf = await t.http.get('/api/v1/security/csrf_token/').set(auth);
    headers = { ...auth, 'X-CSRFToken': csrf.body.result };

    ids.database = (await ensureTestExamples(t.services, { path: join(dir, 'examples.duckdb'), salesRows: 20 })).id;
    ids.dataset = (await post('/api/v1/dataset/', { database: ids.database, schema: 'main', table_name: 'birth_names' })).id;
    ids.chart = (await post('/api/v1/chart/', { slice_name: 'Dated', viz_type: 'table', datasource_id: ids.dataset, datasource_type: 'table', params: JSON.stringify({ viz_type: 'table', groupby: ['gender'], metrics: ['count'] }) })).id;
    const position = {
      DASHBOARD_VERSION_KEY: 'v2',
      ROOT_ID: { id: 'ROOT_ID', type: 'ROOT', children: ['GRID_ID'] },
      GRID_ID: { id: 'GRID_ID', type: 'GRID', children: ['ROW-1'], parents: ['ROOT_ID'] },
      'ROW-1': { id: 'ROW-1', type: 'ROW', children: ['CHART-1'], parents: ['ROOT_ID', 'GRID_ID'], meta: {} },
      'CHART-1': { id: 'CHART-1', type: 'CHART', children: [], parents: ['ROOT_ID', 'GRID_ID', 'ROW-1'], meta: { chartId: ids.chart, width: 6, height: 50 } },
    };
    ids.dashboard = (await post('/api/v1/dashboard/', { dashboard_title: 'Dated board', position_json: JSON.stringify(position) })).id;
    ids.saved_query = (await post('/api/v1/saved_query/', { db_id: ids.database, label: 'Dated', sql: 'SELECT 1', schema: 'main' })).id;
    ids.layer = (await post('/api/v1/annotation_layer/', { name: 'Dated layer' })).id;
    ids.annotation = (await post(`/api/v1/annotation_layer/${ids.layer}/annotation/`, { short_descr: 'launch', start_dttm: '2024-01-01T00:00:00', end_dttm: '2024-01-02T12:30:00' })).id;
    ids.css = (await post('/api/v1/css_template/', { template_name: 'Dated', css: 'body {}' })).id;
    ids.report = (await post('/api/v1/report/', { type: 'Report', name: 'Dated daily', crontab: '0 8 * * *', chart: ids.chart, report_format: 'TEXT' })).id;
    await t.services.reportExecutor.execute(ids.report, new Date());
    const ran = await post('/api/v1/sqllab/execute/', { database_id: ids.database, sql: 'SELECT 1 AS one', client_id: clientId(), runAsync: false });
    ids.query = ran.query.serverId ?? ran.query_id;
    ids.user = (await get('/api/v1/security/users/')).result[0].id;

    // Known times: changed 2024-01-02 03:04:05.123 UTC, created 400 days ago ('1 year, 1 month ago' in humanize).
    const created = new Date(Date.now() - 400 * 86_400_000);
    for (const table of ['slices', 'dashboards', 'tables', 'saved_query', 'annotation_layer', 'css_templates', 'report_schedule'] as const) {
      await sql`UPDATE ${sql.table(table)} SET changed_on = ${new Date('2024-01-02T03:04:05.123Z')}, created_on = ${created}`.execute(t.services.db);
    }
  });
  afterAll(async () => {
    await t?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('writes every date of the list and item answers as Superset does', async () => {
    const answers: Record<string, unknown> = {
      'chart list': await get('/api/v1/chart/'),
      chart: await get(`/api/v1/chart/${ids.chart}`),
      'dashboard list': await get('/api/v1/dashboard/'),
      dashboard: await get(`/api/v1/dashboard/${ids.dashboard}`),
      'dashboard charts': await get(`/api/v1/dashboard/${ids.dashboard}/charts`),
      'dataset list': await get('/api/v1/dataset/'),
      dataset: await get(`/api/v1/dataset/${ids.dataset}`),
      'database list': await get('/api/v1/database/'),
      database: await get(`/api/v1/database/${ids.database}`),
      'saved query list': await get('/api/v1/saved_query/'),
      'saved query': await get(`/api/v1/saved_query/${ids.saved_query}`),
      'query list': await get('/api/v1/query/'),
      query: await get(`/api/v1/query/${ids.query}`),
      'query updated_since': await get('/api/v1/query/updated_since', '(last_updated_ms:0)'),
      'report list': await get('/api/v1/report/'),
      report: await get(`/api/v1/report/${ids.report}`),
      'report log': await get(`/api/v1/report/${ids.report}/log/`),
      'annotation layer list': await get('/api/v1/annotation_layer/'),
      'annotation list': await get(`/api/v1/annotation_layer/${ids.layer}/annotation/`),
      annotation: await get(`/api/v1/annotation_layer/${ids.layer}/annotation/${ids.annotation}`),
      'css template list': await get('/api/v1/css_template/'),
      'log list': await get('/api/v1/log/'),
      'user list': await get('/api/v1/security/users/'),
      user: await get(`/api/v1/security/users/${ids.user}`),
      me: await get('/api/v1/me/roles/'),
    };
    const wrong = Object.entries(answers).flatMap(([name, body]) => misdated(body, name));
    expect(wrong).toEqual([]);
    // Each kind of date was there to be checked.
    const text = JSON.stringify(answers);
    for (const key of ['changed_on', 'created_on', 'changed_on_utc', 'changed_on_delta_humanized', 'created_on_delta_humanized', 'last_eval_dttm', 'scheduled_dttm', 'start_dttm', 'dttm', 'createdOn']) {
      expect(text, key).toContain(`"${key}":"`);
    }
  });

  it('gives the stored time itself, to the microsecond field, in each format', async () => {
    const chart = (await get('/api/v1/chart/', `(filters:!((col:id,opr:eq,value:${ids.chart})))`)).result[0];
    expect(chart.changed_on_utc).toBe('2024-01-02T03:04:05.123000+0000');
    expect(chart.created_on_delta_humanized).toBe('1 year, 1 month ago');
    expect(chart.changed_on_dttm).toBe(Date.UTC(2024, 0, 2, 3, 4, 5, 123));
    const board = (await get(`/api/v1/dashboard/${ids.dashboard}`)).result;
    expect(board.changed_on).toBe('2024-01-02T03:04:05.123000');
    expect(board.created_on_delta_humanized).toBe('1 year, 1 month ago');
    expect((await get(`/api/v1/dashboard/${ids.dashboard}/charts`)).result[0].changed_on).toBe('2024-01-02T03:04:05.123000');
    // (The dataset's item answer is cached by the service, so its list row is what shows the time set in the store.)
    expect((await get('/api/v1/dataset/')).result[0].changed_on_utc).toBe('2024-01-02T03:04:05.123000+0000');
    const saved = (await get('/api/v1/saved_query/')).result[0];
    expect(saved.changed_on).toBe('2024-01-02T03:04:05.123000');
    // SavedQuery.last_run_delta_humanized humanizes changed_on (never run here, yet a text as Superset gives it).
    expect(saved).toMatchObject({ last_run: null, last_run_delta_humanized: saved.changed_on_delta_humanized });
    expect(saved.last_run_delta_humanized).toMatch(/ years ago$/);
    expect((await get('/api/v1/report/')).result[0].changed_on).toBe('2024-01-02T03:04:05.123000');
    expect((await get('/api/v1/annotation_layer/')).result[0].changed_on).toBe('2024-01-02T03:04:05.123000');
    // A time with no fraction is written with none, as isoformat() writes it.
    const note = (await get(`/api/v1/annotation_layer/${ids.layer}/annotation/${ids.annotation}`)).result;
    expect(note).toMatchObject({ start_dttm: '2024-01-01T00:00:00', end_dttm: '2024-01-02T12:30:00' });
  });
});
