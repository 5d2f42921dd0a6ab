import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureTestExamples } from '../helpers/examples';
import { ensureExampleDatasets } from '../../server/src/dataset/example-datasets';
import { startTestApp, type TestApp } from '../helpers/app';
import { bearer } from './sqllab.helpers';

// Answers a Superset script reads, where the REST audit (.audit/rest/REPORT.md) found Meridian's differed from Superset's.
describe('REST answers in the shapes Superset gives them', () => {
  let t: TestApp;
  let admin: string;
  let dir: string;
  let examples: number;
  let birthNames: number;
  let chart: number;
  let board: number;
  const get = (path: string, q?: string) => t.http.get(path).query(q ? { q } : {}).set(bearer(admin));

  beforeAll(async () => {
    t = await startTestApp();
    admin = await t.token();
    dir = mkdtempSync(join(tmpdir(), 'meridian-answers-'));
    examples = (await ensureTestExamples(t.services, { path: join(dir, 'examples.duckdb'), salesRows: 50 })).id;
    await ensureExampleDatasets(t.services);
    birthNames = (await get('/api/v1/dataset/', '(filters:!((col:table_name,opr:eq,value:birth_names)))')).body.ids[0];
    chart = (
      await t.http
        .post('/api/v1/chart/')
        .set(bearer(admin))
        .send({ slice_name: 'Genders', description: 'Who was born', viz_type: 'pie', datasource_id: birthNames, datasource_type: 'table', params: JSON.stringify({ viz_type: 'pie', groupby: ['gender'], metric: 'sum__num' }) })
    ).body.id;
    const position = {
      DASHBOARD_VERSION_KEY: 'v2',
      ROOT_ID: { id: 'ROOT_ID', type: 'ROOT', children: ['GRID_ID'] },
      GRID_ID: { id: 'GRID_ID', type: 'GRID', children: ['ROW-1'], parents: ['ROOT_ID'] },
      'ROW-1': { id: 'ROW-1', type: 'ROW', children: ['CHART-1'], parents: ['ROOT_ID', 'GRID_ID'], meta: {} },
      'CHART-1': { id: 'CHART-1', type: 'CHART', children: [], parents: ['ROOT_ID', 'GRID_ID', 'ROW-1'], meta: { chartId: chart, width: 6, height: 50 } },
    };
    board = (await t.http.post('/api/v1/dashboard/').set(bearer(admin)).send({ dashboard_title: 'Answers board', position_json: JSON.stringify(position) })).body.id;
  });
  afterAll(async () => {
    await t?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("answers /me/roles/ as Superset's bootstrap_user_data: camelCase user fields, roles and access permissions", async () => {
    const res = await get('/api/v1/me/roles/');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.result).sort()).toEqual(['createdOn', 'email', 'firstName', 'isActive', 'isAnonymous', 'lastName', 'permissions', 'roles', 'userId', 'username']);
    expect(res.body.result).toMatchObject({ username: 'admin', firstName: 'Admin', isActive: true, isAnonymous: false, userId: expect.any(Number), createdOn: expect.any(String) });
    expect(res.body.result.roles.Admin).toContainEqual(['can_read', 'Chart']);
    // A role granting one dataset: Superset gathers its datasource_access views under `permissions`.
    const perm = `[examples].[birth_names](id:${birthNames})`;
    const roleId = (await t.http.post('/api/v1/security/roles/').set(bearer(admin)).send({ name: 'birth_names_reader' })).body.id;
    const pv = (await t.http.get('/api/v1/security/permissions-resources/').query({ q: '(page_size:-1)' }).set(bearer(admin))).body.result.find(
      (p: { permission: { name: string }; view_menu: { name: string } }) => p.permission.name === 'datasource_access' && p.view_menu.name === perm,
    );
    expect(pv).toBeTruthy();
    await t.http.post(`/api/v1/security/roles/${roleId}/permissions`).set(bearer(admin)).send({ permission_view_menu_ids: [pv.id] });
    const reader = await t.userWithRoles('roles_reader', ['Gamma', 'birth_names_reader']);
    const mine = (await t.http.get('/api/v1/me/roles/').set(bearer(reader))).body.result;
    expect(mine.permissions).toEqual({ datasource_access: [perm] });
    expect(Object.keys(mine.roles).sort()).toEqual(['Gamma', 'birth_names_reader']);
  });

  it('answers a form data update with both message (Superset\'s frontend) and key (its OpenAPI document)', async () => {
    const body = { datasource_id: birthNames, datasource_type: 'table', form_data: JSON.stringify({ viz_type: 'table' }) };
    const created = await t.http.post('/api/v1/explore/form_data').set(bearer(admin)).send(body);
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ key: expect.any(String) });
    const updated = await t.http.put(`/api/v1/explore/form_data/${created.body.key}`).set(bearer(admin)).send(body);
    expect(updated.status).toBe(200);
    expect(updated.body).toEqual({ message: created.body.key, key: created.body.key });
  });

  it('gives every related choice an extra, and answers an unknown related or distinct column 404 Not found', async () => {
    for (const path of ['/api/v1/dashboard/related/roles', '/api/v1/dataset/related/database', '/api/v1/saved_query/related/database', '/api/v1/query/related/database', '/api/v1/chart/related/owners']) {
      const res = await get(path);
      expect(res.status, path).toBe(200);
      expect(res.body.result.length, path).toBeGreaterThan(0);
      for (const item of res.body.result) expect(item, path).toEqual({ value: expect.anything(), text: expect.any(String), extra: expect.any(Object) });
    }
    expect((await get('/api/v1/dataset/related/database')).body.result[0].extra).toEqual({});
    for (const path of ['/api/v1/chart/related/bogus', '/api/v1/dataset/related/bogus', '/api/v1/dataset/distinct/bogus', '/api/v1/chart/distinct/bogus', '/api/v1/saved_query/distinct/sql', '/api/v1/dashboard/distinct/bogus', '/api/v1/query/distinct/bogus']) {
      const res = await get(path);
      expect(res.status, path).toBe(404);
      expect(res.body, path).toEqual({ message: 'Not found' });
    }
  });

  it("gives Explore's dataset and a dashboard's datasets Superset's datasource data, database included", async () => {
    const explore = (await get('/api/v1/explore/').query({ slice_id: chart })).body.result;
    const dashboardDatasets = (await get(`/api/v1/dashboard/${board}/datasets`)).body.result;
    expect(dashboardDatasets).toHaveLength(1);
    for (const dataset of [explore.dataset, dashboardDatasets[0]]) {
      expect(dataset).toMatchObject({
        id: birthNames,
        type: 'table',
        filter_select: dataset.filter_select_enabled,
        params: null,
        perm: `[examples].[birth_names](id:${birthNames})`,
        currency_formats: {},
        edit_url: `/tablemodelview/edit/${birthNames}`,
      });
      expect(dataset.database).toMatchObject({
        id: examples,
        name: 'examples',
        database_name: 'examples',
        backend: 'duckdb',
        allows_subquery: true,
        allows_cost_estimate: true,
        allows_virtual_table_explore: true,
        explore_database_id: examples,
        disable_data_preview: false,
        disable_drill_to_detail: false,
        allow_multi_catalog: false,
      });
    }
  });

  it('gives Explore the slice as Superset\'s Slice.data, and dashboard charts their changed_on', async () => {
    const slice = (await get('/api/v1/explore/').query({ slice_id: chart })).body.result.slice;
    const me = (await get('/api/v1/me/roles/')).body.result.userId;
    expect(slice).toMatchObject({
      slice_id: chart,
      owners: [me],
      description_markeddown: '<p>Who was born</p>',
      changed_on: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      changed_on_humanized: expect.any(String),
      modified: `<span class="no-wrap">${slice.changed_on_humanized}</span>`,
    });
    const charts = (await get(`/api/v1/dashboard/${board}/charts`)).body.result;
    expect(charts[0]).toMatchObject({ id: chart, changed_on: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) });
  });

  it("gives every list Flask-AppBuilder's metadata keys, narrowed by keys", async () => {
    const layer = (await t.http.post('/api/v1/annotation_layer/').set(bearer(admin)).send({ name: 'Answers layer' })).body.id;
    const lists = ['chart', 'dashboard', 'dataset', 'database', 'saved_query', 'query', 'css_template', 'report', 'annotation_layer', 'tag', 'log', 'rowlevelsecurity', `annotation_layer/${layer}/annotation`, 'security/permissions', 'security/resources', 'security/permissions-resources'];
    for (const resource of lists) {
      const res = await get(`/api/v1/${resource}/`, '(page_size:3)');
      expect(res.status, resource).toBe(200);
      for (const key of ['count', 'ids', 'result', 'label_columns', 'list_columns', 'description_columns', 'order_columns', 'list_title']) expect(res.body, `${resource} ${key}`).toHaveProperty(key);
      expect(res.body.list_title, resource).toMatch(/^List /);
      expect(res.body.order_columns, resource).toContain('id');
    }
    expect((await get('/api/v1/chart/', '(page_size:1)')).body.list_title).toBe('List Slice');
    expect((await get('/api/v1/dataset/', '(page_size:1)')).body.list_title).toBe('List Sqla Table');
    const narrowed = await get('/api/v1/saved_query/', '(keys:!(list_columns))');
    expect(Object.keys(narrowed.body).sort()).toEqual(['count', 'ids', 'list_columns', 'result']);
    const chartList = await get('/api/v1/chart/', '(columns:!(id,slice_name),page_size:1)');
    expect(chartList.body.list_columns).toEqual(['id', 'slice_name']);
    expect(chartList.body.label_columns).toEqual({ id: 'Id', slice_name: 'Slice Name' });
  });

  it('answers a report that does not exist 404 Not found on GET, PUT and DELETE', async () => {
    for (const res of [await get('/api/v1/report/99999'), await t.http.put('/api/v1/report/99999').set(bearer(admin)).send({ name: 'x' }), await t.http.delete('/api/v1/report/99999').set(bearer(admin))]) {
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: 'Not found' });
    }
  });

  it("answers a bad body on Flask-AppBuilder's default post and put (saved_query, css_template, resources) with 422", async () => {
    const badQuery = await t.http.post('/api/v1/saved_query/').set(bearer(admin)).send({ label: 'x', db_id: 'not a number' });
    expect(badQuery.status).toBe(422);
    expect(badQuery.body).toEqual({ message: { db_id: expect.any(Array) } });
    const savedQuery = (await t.http.post('/api/v1/saved_query/').set(bearer(admin)).send({ label: 'ok', db_id: examples, sql: 'select 1' })).body.id;
    expect((await t.http.put(`/api/v1/saved_query/${savedQuery}`).set(bearer(admin)).send({ label: 7 })).status).toBe(422);
    expect((await t.http.put(`/api/v1/saved_query/${savedQuery}`).set(bearer(admin)).send({ extra_json: 'not json' })).status).toBe(422);
    const badTemplate = await t.http.post('/api/v1/css_template/').set(bearer(admin)).send({ template_name: 5 });
    expect(badTemplate.status).toBe(422);
    expect(badTemplate.body.message).toHaveProperty('template_name');
    expect((await t.http.post('/api/v1/security/resources/').set(bearer(admin)).send({})).status).toBe(422);
    // Superset's own endpoints keep their 400.
    expect((await t.http.post('/api/v1/chart/').set(bearer(admin)).send({ slice_name: 5 })).status).toBe(400);
  });

  it("answers a guest token for a dashboard that is not embedded with Superset's plain message", async () => {
    const dashboardUuid = (await get(`/api/v1/dashboard/${board}`)).body.result.uuid ?? '00000000-0000-4000-8000-000000000000';
    const res = await t.http.post('/api/v1/security/guest_token/').set(bearer(admin)).send({ user: { username: 'guest' }, resources: [{ type: 'dashboard', id: dashboardUuid }], rls: [] });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: 'EmbeddedDashboard not found.' });
  });

  it('refuses a body field the schema does not know, as marshmallow does (unknown = RAISE), except where Superset excludes it', async () => {
    const chartBody = { slice_name: 'Typo', viz_type: 'pie', datasource_id: birthNames, datasource_type: 'table' };
    const typo = await t.http.post('/api/v1/chart/').set(bearer(admin)).send({ ...chartBody, descripton: 'x' });
    expect(typo.status).toBe(400);
    expect(typo.body).toEqual({ message: { descripton: ['Unknown field.'] } });
    // One map with the body's other errors, as marshmallow reports them together.
    const both = await t.http.post('/api/v1/chart/').set(bearer(admin)).send({ viz_type: 'pie', datasource_id: birthNames, datasource_type: 'table', owner: 1 });
    expect(both.status).toBe(400);
    expect(both.body).toEqual({ message: { slice_name: ['Missing data for required field.'], owner: ['Unknown field.'] } });
    const put = await t.http.put(`/api/v1/dashboard/${board}`).set(bearer(admin)).send({ dashboard_title: 'Answers board', colour: 'red' });
    expect(put.status).toBe(400);
    expect(put.body).toEqual({ message: { colour: ['Unknown field.'] } });
    expect((await get(`/api/v1/dashboard/${board}`)).body.result.dashboard_title).toBe('Answers board');
    // Nested schemas refuse theirs too (a dataset column's), named by the field's path.
    const column = (await get(`/api/v1/dataset/${birthNames}`)).body.result.columns[0];
    const nested = await t.http.put(`/api/v1/dataset/${birthNames}`).set(bearer(admin)).send({ columns: [{ column_name: column.column_name, type_generic: 1 }] });
    expect(nested.status).toBe(400);
    expect(nested.body).toEqual({ message: { 'columns.0.type_generic': ['Unknown field.'] } });
    // Flask-AppBuilder's default post (saved_query) answers the same map with 422.
    const saved = await t.http.post('/api/v1/saved_query/').set(bearer(admin)).send({ label: 'x', db_id: examples, sql: 'select 1', tab: 'Untitled' });
    expect(saved.status).toBe(422);
    expect(saved.body).toEqual({ message: { tab: ['Unknown field.'] } });
    expect((await t.http.post('/api/v1/sqllab/format_sql/').set(bearer(admin)).send({ sql: 'select 1', dialect: 'x' })).body).toEqual({ message: { dialect: ['Unknown field.'] } });
    // The database schemas say unknown = EXCLUDE: an unknown field is dropped; test_connection's does not.
    const uri = (await get(`/api/v1/database/${examples}/connection`)).body.result.sqlalchemy_uri;
    const tested = await t.http.post('/api/v1/database/test_connection/').set(bearer(admin)).send({ sqlalchemy_uri: uri, database_name: 'examples', configuration_method: 'sqlalchemy_form', engine: 'duckdb', driver: null, server_cert: null, ssh_tunnel: null });
    expect(tested.status, JSON.stringify(tested.body)).toBe(200);
    expect((await t.http.post('/api/v1/database/test_connection/').set(bearer(admin)).send({ sqlalchemy_uri: uri, colour: 1 })).body).toEqual({ message: { colour: ['Unknown field.'] } });
    const edited = await t.http.put(`/api/v1/database/${examples}`).set(bearer(admin)).send({ expose_in_sqllab: true, colour: 'red' });
    expect(edited.status).toBe(200);
  });

  it("answers a bad role body with Flask-AppBuilder's statuses: 422 from the role's default post and put, 400 from its permissions, users and user endpoints", async () => {
    const post = await t.http.post('/api/v1/security/roles/').set(bearer(admin)).send({ name: 5 });
    expect(post.status).toBe(422);
    expect(post.body).toEqual({ message: { name: ['Not a valid string.'] } });
    const role = (await t.http.post('/api/v1/security/roles/').set(bearer(admin)).send({ name: 'Answers role' })).body.id;
    const put = await t.http.put(`/api/v1/security/roles/${role}`).set(bearer(admin)).send({ name: 'Answers role', label: 'x' });
    expect(put.status).toBe(422);
    expect(put.body).toEqual({ message: { label: ['Unknown field.'] } });
    const permissions = await t.http.post(`/api/v1/security/roles/${role}/permissions`).set(bearer(admin)).send({ permission_view_menu_ids: 'x' });
    expect(permissions.status).toBe(400);
    expect(permissions.body).toEqual({ message: { permission_view_menu_ids: ['Not a valid list.'] } });
    expect((await t.http.put(`/api/v1/security/roles/${role}/users`).set(bearer(admin)).send({ user_ids: [], extra: 1 })).status).toBe(400);
    const user = await t.http.post('/api/v1/security/users/').set(bearer(admin)).send({ username: 'answers', first_name: 'A', last_name: 'B', email: 'answers@example.com', password: 'Secret-123', roles: [role], nickname: 'x' });
    expect(user.status).toBe(400);
    expect(user.body).toEqual({ message: { nickname: ['Unknown field.'] } });
  });

  it("renders a chart's description_markeddown as Superset's markdown(): HTML of its safe tags only", async () => {
    const described = (
      await t.http
        .post('/api/v1/chart/')
        .set(bearer(admin))
        .send({ slice_name: 'Described', viz_type: 'pie', datasource_id: birthNames, datasource_type: 'table', description: 'Births *by* [name](https://example.com) <script>alert(1)</script><u>kept text</u>' })
    ).body.id;
    const expected = '<p>Births <em>by</em> <a href="https://example.com" rel="noopener noreferrer">name</a> kept text</p>';
    expect((await get('/api/v1/explore/').query({ slice_id: described })).body.result.slice.description_markeddown).toBe(expected);
    const listed = (await get('/api/v1/chart/', `(filters:!((col:id,opr:eq,value:${described})),columns:!(description_markeddown))`)).body.result[0];
    expect(listed.description_markeddown).toBe(expected);
    const bad = (await t.http.put(`/api/v1/chart/${described}`).set(bearer(admin)).send({ description: '[x](javascript:alert(1)) ![i](x.png" onerror="y)' })).status;
    expect(bad).toBe(200);
    expect((await get('/api/v1/explore/').query({ slice_id: described })).body.result.slice.description_markeddown).toBe('<p><a rel="noopener noreferrer">x</a> ![i](x.png" onerror="y)</p>');
  });

  it("answers a dataset's POST and duplicate as Superset does: the id, and the body as its schema loaded it", async () => {
    const created = await t.http.post('/api/v1/dataset/').set(bearer(admin)).send({ database: examples, schema: 'main', table_name: 'answers_virtual', sql: 'select 1 as one' });
    expect(created.status).toBe(201);
    expect(created.body.id).toEqual(expect.any(Number));
    expect(created.body.result).toEqual({ database: examples, schema: 'main', table_name: 'answers_virtual', sql: 'select 1 as one', normalize_columns: false, always_filter_main_dttm: false });
    expect(created.body.data).toMatchObject({ id: created.body.id, table_name: 'answers_virtual' });
    const copy = await t.http.post('/api/v1/dataset/duplicate').set(bearer(admin)).send({ base_model_id: created.body.id, table_name: 'answers_virtual_copy' });
    expect(copy.status).toBe(201);
    expect(copy.body).toEqual({ id: expect.any(Number), result: { base_model_id: created.body.id, table_name: 'answers_virtual_copy' } });
    expect((await get(`/api/v1/dataset/${copy.body.id}`)).body.result).toMatchObject({ table_name: 'answers_virtual_copy', sql: 'select 1 as one' });
  });

  it('answers an embedding with who changed it, and a connection with its parameters schema', async () => {
    const embedded = await t.http.post(`/api/v1/dashboard/${board}/embedded`).set(bearer(admin)).send({ allowed_domains: [] });
    expect(embedded.body.result.changed_by).toEqual({ id: expect.any(Number), first_name: 'Admin', last_name: 'User' });
    expect((await get(`/api/v1/embedded_dashboard/${embedded.body.result.uuid}`)).body.result.changed_by).toMatchObject({ first_name: 'Admin' });
    const connection = (await get(`/api/v1/database/${examples}/connection`)).body.result;
    expect(connection).toMatchObject({ masked_encrypted_extra: null, server_cert: null, parameters_schema: { type: 'object', properties: expect.any(Object) } });
  });
});
