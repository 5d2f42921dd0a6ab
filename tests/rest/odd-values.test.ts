import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import JSZip from 'jszip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureTestExamples } from '../helpers/examples';
import { ensureExampleDatasets } from '../../server/src/dataset/example-datasets';
import { startTestApp, type TestApp } from '../helpers/app';
import { bearer } from './sqllab.helpers';

/** Values of every wrong kind a script may send for a field. */
const ODD_VALUES: unknown[] = [123, -1, 1.5, 'str', '', true, null, [], {}, [1, 'a'], { a: 1 }, '{bad', 'a\u0000b', 'x'.repeat(3000)];

// "Bad input gets a clear error in Superset's error envelope with the right status": each column a resource's
// _info lists for add and edit, given each odd value in a POST and a PUT, is answered below 500, and a refusal
// says why in the envelope (`message`, or `errors` with a message). Where fuzz.test.ts throws random bodies at every
// route and writes only to ids that do not exist (so that nothing stored changes), this one writes each field of
// real objects, every path of a chart data request and the lists' filters: what the random cases never reached.
describe('odd values in every writable field', () => {
  let t: TestApp;
  let admin: string;
  let dir: string;
  const ids: Record<string, number> = {};
  let birthNames: number;

  beforeAll(async () => {
    t = await startTestApp();
    admin = await t.token();
    dir = mkdtempSync(join(tmpdir(), 'meridian-odd-'));
    const examples = await ensureTestExamples(t.services, { path: join(dir, 'examples.duckdb'), salesRows: 50 });
    await ensureExampleDatasets(t.services);
    const post = async (path: string, body: Record<string, unknown>) => {
      const res = await t.http.post(path).set(bearer(admin)).send(body);
      expect(res.status, `${path}: ${res.text}`).toBe(201);
      return res.body.id as number;
    };
    // The chart data test reads birth_names; the first test changes another dataset (its PUT takes odd values).
    const datasets = (await t.http.get('/api/v1/dataset/').set(bearer(admin))).body.result as Array<{ id: number; table_name: string }>;
    birthNames = datasets.find((d) => d.table_name === 'birth_names')!.id;
    const dataset = datasets.find((d) => d.table_name !== 'birth_names')!.id;
    ids.dataset = dataset;
    ids.database = examples.id;
    ids.chart = await post('/api/v1/chart/', { slice_name: 'Odd', viz_type: 'table', datasource_id: dataset, datasource_type: 'table', params: '{}' });
    ids.dashboard = await post('/api/v1/dashboard/', { dashboard_title: 'Odd' });
    ids.saved_query = await post('/api/v1/saved_query/', { label: 'Odd', sql: 'SELECT 1', db_id: examples.id });
    ids.css_template = await post('/api/v1/css_template/', { template_name: 'Odd', css: 'h1 {}' });
    ids.annotation_layer = await post('/api/v1/annotation_layer/', { name: 'Odd' });
    ids.tag = await post('/api/v1/tag/', { name: 'odd' });
    ids['security/roles'] = await post('/api/v1/security/roles/', { name: 'Odd' });
    ids.report = await post('/api/v1/report/', { type: 'Report', name: 'Odd', crontab: '0 8 * * *', chart: ids.chart, report_format: 'TEXT' });
    ids.rowlevelsecurity = await post('/api/v1/rowlevelsecurity/', { name: 'Odd', filter_type: 'Regular', tables: [dataset], roles: [ids['security/roles']], clause: '1 = 1' });
    ids['security/users'] = await post('/api/v1/security/users/', { first_name: 'Odd', last_name: 'User', username: 'odd', email: 'odd@example.com', password: 'pw', roles: [1] });
  });
  afterAll(async () => {
    await t?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('answers each below 500, in the error envelope when refused', async () => {
    const failures: string[] = [];
    let sent = 0;
    for (const resource of ['chart', 'dashboard', 'dataset', 'database', 'saved_query', 'css_template', 'annotation_layer', 'report', 'rowlevelsecurity', 'tag', 'security/roles', 'security/users']) {
      const info = await t.http.get(`/api/v1/${resource}/_info`).query({ q: '(keys:!(add_columns,edit_columns))' }).set(bearer(admin));
      expect(info.status, resource).toBe(200);
      const columns = (key: string) => ((info.body[key] ?? []) as Array<{ name: string }>).map((c) => c.name);
      expect(columns('add_columns').length, resource).toBeGreaterThan(0);
      const calls: Array<['post' | 'put', string, string[]]> = [['post', `/api/v1/${resource}/`, columns('add_columns')]];
      if (ids[resource] !== undefined) calls.push(['put', `/api/v1/${resource}/${ids[resource]}`, columns('edit_columns')]);
      for (const [method, path, names] of calls) {
        for (const name of names) {
          for (const value of ODD_VALUES) {
            const res = await t.http[method](path).set(bearer(admin)).send({ [name]: value });
            sent++;
            const said = res.body?.message ?? res.body?.errors?.[0]?.message;
            if (res.status >= 500 || (res.status >= 400 && !said)) failures.push(`${method.toUpperCase()} ${path} ${name}=${JSON.stringify(value).slice(0, 24)}: ${res.status} ${res.text.slice(0, 120)}`);
          }
        }
      }
    }
    expect(sent).toBeGreaterThan(1000);
    expect(failures).toEqual([]);
    // The tRPC door refuses NUL text as the REST one does, with the field map in its envelope.
    const nul = await t.http.post('/trpc/dashboard.create').set(bearer(admin)).send({ dashboard_title: 'a\u0000b' });
    expect(nul.status).toBe(400);
    expect(nul.body.error.data.envelope).toEqual({ message: { dashboard_title: ['Text may not contain NUL characters.'] } });
    // After the sign-in and permission checks, as every input check: 401 and 403 come first.
    expect((await t.http.post('/trpc/dashboard.create').send({ dashboard_title: 'a\u0000b' })).status).toBe(401);
    const nobody = await t.userWithRoles('odd_public', ['Public']);
    expect((await t.http.post('/trpc/dashboard.create').set(bearer(nobody)).send({ dashboard_title: 'a\u0000b' })).status).toBe(403);
    expect((await t.http.post('/api/v1/dashboard/').set(bearer(nobody)).send({ dashboard_title: 'a\u0000b' })).status).toBe(403);
  }, 180_000);

  it('answers odd list queries below 500: values of the wrong kind for a filter, unknown columns and operators, bad rison', async () => {
    const queries = [
      "(page:'x')", '(page:-1)', '(page_size:-5)', '(page_size:100000)', '(order_column:nope)', '(order_direction:sideways)',
      '(filters:!((col:nope,opr:eq,value:1)))', '(filters:!((col:id,opr:nope,value:1)))', '(filters:!((col:id,opr:eq,value:!(1,2))))',
      '(filters:!((col:id,opr:eq)))', "(filters:'x')", '(filters:!(1))', '(filters:!((col:owners,opr:rel_m_m,value:x)))',
      '(filters:!((col:changed_on,opr:gt,value:notadate)))', "(filters:!((col:id,opr:eq,value:'a\u0000b')))", '((((', "'x'",
    ];
    const failures: string[] = [];
    for (const resource of ['chart', 'dashboard', 'dataset', 'database', 'saved_query', 'query', 'css_template', 'annotation_layer', 'report', 'rowlevelsecurity', 'tag', 'log', 'security/users', 'security/roles']) {
      for (const q of queries) {
        const res = await t.http.get(`/api/v1/${resource}/`).query({ q }).set(bearer(admin));
        if (res.status >= 500 || (res.status >= 400 && !(res.body?.message ?? res.body?.errors?.[0]?.message))) failures.push(`${resource} q=${q}: ${res.status} ${res.text.slice(0, 120)}`);
      }
    }
    expect(failures).toEqual([]);
    // A value its column's type cannot take is refused and says why.
    const date = await t.http.get('/api/v1/chart/').query({ q: '(filters:!((col:changed_on,opr:gt,value:notadate)))' }).set(bearer(admin));
    expect(date.status).toBe(400);
    expect(date.body.message.filters[0]).toMatch(/^Not a valid filter value: changed_on gt "notadate"/);
  });

  it('answers a chart data request with an odd value at any depth below 500', async () => {
    const request = {
      datasource: { id: birthNames, type: 'table' },
      queries: [
        {
          columns: ['gender', { label: 'g2', sqlExpression: 'gender', expressionType: 'SQL' }],
          metrics: [{ expressionType: 'SQL', sqlExpression: 'COUNT(*)', label: 'c' }, { expressionType: 'SIMPLE', column: { column_name: 'num' }, aggregate: 'SUM', label: 's' }, 'count'],
          filters: [{ col: 'gender', op: 'IN', val: ['boy'] }, { col: 'ds', op: 'TEMPORAL_RANGE', val: 'No filter' }],
          row_limit: 10,
          orderby: [['c', false]],
          extras: { where: '', having: '', time_grain_sqla: 'P1Y' },
          time_range: 'No filter',
          post_processing: [{ operation: 'pivot', options: { index: ['gender'], columns: [], aggregates: { c: { operator: 'mean' } } } }],
        },
      ],
      result_format: 'json',
      result_type: 'full',
      form_data: { viz_type: 'table' },
    };
    const dataset = (await t.http.get(`/api/v1/dataset/${birthNames}`).set(bearer(admin))).body.result;
    const names = new Set(dataset.columns.map((c: { column_name: string }) => c.column_name));
    expect(names.has('gender') && names.has('num') && names.has('ds'), dataset.table_name).toBe(true);
    expect((await t.http.post('/api/v1/chart/data').set(bearer(admin)).send(request)).status).toBe(200);
    // Every path into the request, each given each odd value.
    const paths: Array<Array<string | number>> = [];
    const walk = (value: unknown, path: Array<string | number>) => {
      if (path.length) paths.push(path);
      if (value && typeof value === 'object') for (const [key, inner] of Object.entries(value)) walk(inner, [...path, Array.isArray(value) ? Number(key) : key]);
    };
    walk(request, []);
    const failures: string[] = [];
    for (const path of paths) {
      for (const value of ODD_VALUES.slice(0, -1)) {
        const body = structuredClone(request) as Record<string | number, any>;
        let at = body;
        for (const key of path.slice(0, -1)) at = at[key];
        at[path[path.length - 1]!] = value;
        const res = await t.http.post('/api/v1/chart/data').set(bearer(admin)).send(body);
        const said = res.body?.message ?? res.body?.errors?.[0]?.message;
        if (res.status >= 500 || (res.status >= 400 && !said)) failures.push(`${path.join('.')}=${JSON.stringify(value)}: ${res.status} ${res.text.slice(0, 120)}`);
      }
    }
    expect(paths.length).toBeGreaterThan(40);
    expect(failures).toEqual([]);
  }, 180_000);

  it('refuses NUL text in a multipart form\'s fields and in an import bundle\'s YAML, and writes nothing', async () => {
    const upload = await t.http.post(`/api/v1/database/${ids.database}/upload/`).set(bearer(admin)).field('type', 'csv').field('table_name', 'a\u0000b').attach('file', Buffer.from('a,b\n1,2\n'), 'odd.csv');
    expect(upload.status, upload.text).toBe(400);
    expect(upload.body.message).toEqual({ table_name: ['Text may not contain NUL characters.'] });
    const metadata = await t.http.post('/api/v1/database/upload_metadata/').set(bearer(admin)).field('type', 'csv').field('delimiter', '\u0000').attach('file', Buffer.from('a,b\n'), 'odd.csv');
    expect(metadata.status, metadata.text).toBe(400);
    // A chart file whose name holds "\0" (YAML's escape for NUL): the import's envelope names the file and the field.
    const zip = new JSZip();
    zip.file('bundle/metadata.yaml', 'version: 1.0.0\ntype: Slice\ntimestamp: "2026-01-01T00:00:00+00:00"\n');
    zip.file('bundle/charts/odd.yaml', 'slice_name: "a\\0b"\nviz_type: table\nuuid: 6f1c0c52-9a4e-4a53-9b55-2b1f0d6f2a11\ndataset_uuid: 6f1c0c52-9a4e-4a53-9b55-2b1f0d6f2a12\nparams: {}\n');
    const before = (await t.http.get('/api/v1/chart/').set(bearer(admin))).body.count;
    const imported = await t.http.post('/api/v1/chart/import/').set(bearer(admin)).attach('formData', await zip.generateAsync({ type: 'nodebuffer' }), 'odd.zip').field('passwords', '{"databases/x.yaml": "a\u0000b"}');
    expect(imported.status, imported.text).toBe(400);
    expect(imported.body.message).toEqual({ passwords: ['Text may not contain NUL characters.'] });
    const yaml = await t.http.post('/api/v1/chart/import/').set(bearer(admin)).attach('formData', await zip.generateAsync({ type: 'nodebuffer' }), 'odd.zip');
    expect(yaml.status, yaml.text).toBe(422);
    expect(yaml.body.errors[0].extra['charts/odd.yaml']).toEqual({ slice_name: ['Text may not contain NUL characters.'] });
    expect((await t.http.get('/api/v1/chart/').set(bearer(admin))).body.count).toBe(before);
  });
});
