import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureTestExamples } from '../helpers/examples';
import { ensureExampleDatasets } from '../../server/src/dataset/example-datasets';
import { startTestApp, type TestApp } from '../helpers/app';
import { bearer } from './sqllab.helpers';

// Embedded dashboards and guest tokens: a guest reads its dashboard, that dashboard's charts and their data, and nothing else.
describe('/api/v1/dashboard/{id}/embedded and /api/v1/security/guest_token/', () => {
  let t: TestApp;
  let admin: string;
  let dir: string;
  let birthNames: number;
  let onBoard: number;
  let offBoard: number;
  let board: number;
  let other: number;
  let uuid: string;
  let guest: string;

  const pieQuery = () => ({ datasource: { id: birthNames, type: 'table' }, queries: [{ columns: ['gender'], metrics: ['sum__num'], time_range: 'No filter' }], result_format: 'json', result_type: 'full' });
  const asGuest = (req: any, token = guest) => req.set('X-GuestToken', token);

  beforeAll(async () => {
    t = await startTestApp();
    admin = await t.token();
    dir = mkdtempSync(join(tmpdir(), 'meridian-embedded-'));
    await ensureTestExamples(t.services, { path: join(dir, 'examples.duckdb'), salesRows: 500 });
    await ensureExampleDatasets(t.services);
    birthNames = (await t.http.get('/api/v1/dataset/').query({ q: '(filters:!((col:table_name,opr:eq,value:birth_names)))' }).set(bearer(admin))).body.ids[0];
    const chart = async (name: string) =>
      (await t.http.post('/api/v1/chart/').set(bearer(admin)).send({ slice_name: name, viz_type: 'pie', datasource_id: birthNames, datasource_type: 'table', params: JSON.stringify({ viz_type: 'pie', groupby: ['gender'], metric: 'sum__num' }) })).body.id as number;
    onBoard = await chart('On the board');
    offBoard = await chart('Not on the board');
    const position = { DASHBOARD_VERSION_KEY: 'v2', ROOT_ID: { id: 'ROOT_ID', type: 'ROOT', children: ['GRID_ID'] }, GRID_ID: { id: 'GRID_ID', type: 'GRID', children: ['ROW-1'], parents: ['ROOT_ID'] }, 'ROW-1': { id: 'ROW-1', type: 'ROW', children: ['CHART-1'], parents: ['ROOT_ID', 'GRID_ID'], meta: {} }, 'CHART-1': { id: 'CHART-1', type: 'CHART', children: [], parents: ['ROOT_ID', 'GRID_ID', 'ROW-1'], meta: { chartId: onBoard, width: 6, height: 50 } } };
    board = (await t.http.post('/api/v1/dashboard/').set(bearer(admin)).send({ dashboard_title: 'Embedded board', position_json: JSON.stringify(position) })).body.id;
    other = (await t.http.post('/api/v1/dashboard/').set(bearer(admin)).send({ dashboard_title: 'Other board', published: true })).body.id;
  });
  afterAll(async () => {
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('embeds a dashboard with its allowed domains, changes them, and refuses a user who may not edit it', async () => {
    expect((await t.http.get(`/api/v1/dashboard/${board}/embedded`).set(bearer(admin))).status).toBe(404);
    const created = await t.http.post(`/api/v1/dashboard/${board}/embedded`).set(bearer(admin)).send({ allowed_domains: ['https://host.example'] });
    expect(created.status).toBe(200);
    expect(created.body.result).toMatchObject({ dashboard_id: String(board), allowed_domains: ['https://host.example'], uuid: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    uuid = created.body.result.uuid;
    const changed = await t.http.put(`/api/v1/dashboard/${board}/embedded`).set(bearer(admin)).send({ allowed_domains: ['https://host.example', 'https://other.example'] });
    expect(changed.body.result).toMatchObject({ uuid, allowed_domains: ['https://host.example', 'https://other.example'] });
    expect((await t.http.get(`/api/v1/embedded_dashboard/${uuid}`).set(bearer(admin))).body.result.dashboard_id).toBe(String(board));

    const alpha = await t.userWithRoles('alpha_embed', ['Alpha']);
    // A draft of someone else is not even readable: 404, and nothing changes.
    expect((await t.http.post(`/api/v1/dashboard/${board}/embedded`).set(bearer(alpha)).send({ allowed_domains: [] })).status).toBe(404);
    expect((await t.http.get(`/api/v1/dashboard/${board}/embedded`).set(bearer(admin))).body.result.allowed_domains).toHaveLength(2);
  });

  it('grants guest tokens to admins only, for embedded dashboards that exist', async () => {
    const gamma = await t.userWithRoles('gamma_embed', ['Gamma']);
    expect((await t.http.post('/api/v1/security/guest_token/').set(bearer(gamma)).send({ resources: [{ type: 'dashboard', id: uuid }] })).status).toBe(403);
    const unknown = await t.http.post('/api/v1/security/guest_token/').set(bearer(admin)).send({ resources: [{ type: 'dashboard', id: '00000000-0000-4000-8000-000000000000' }] });
    expect(unknown.status).toBe(400);
    const granted = await t.http.post('/api/v1/security/guest_token/').set(bearer(admin)).send({ user: { username: 'visitor', first_name: 'Vi', last_name: 'Sitor' }, resources: [{ type: 'dashboard', id: uuid }], rls: [] });
    expect(granted.status).toBe(200);
    guest = granted.body.token;
    expect(guest.split('.')).toHaveLength(3);
  });

  it('lets the guest read its dashboard (a draft), its chart and that chart’s data, and nothing else', async () => {
    expect((await asGuest(t.http.get(`/api/v1/embedded_dashboard/${uuid}`))).body.result.dashboard_id).toBe(String(board));
    expect((await asGuest(t.http.get(`/api/v1/dashboard/${board}`))).status).toBe(200);
    expect((await asGuest(t.http.get(`/api/v1/dashboard/${board}/charts`))).body.result.map((c: { id: number }) => c.id)).toEqual([onBoard]);
    expect((await asGuest(t.http.get(`/api/v1/chart/${onBoard}`))).status).toBe(200);
    const data = await asGuest(t.http.post('/api/v1/chart/data').query({ form_data: JSON.stringify({ slice_id: onBoard }) }).send(pieQuery()));
    expect(data.status).toBe(200);
    expect(data.body.result[0].data.length).toBe(2);

    expect((await asGuest(t.http.get(`/api/v1/dashboard/${other}`))).status).toBe(404);
    expect((await asGuest(t.http.get('/api/v1/dashboard/'))).status).toBe(403);
    expect((await asGuest(t.http.get('/api/v1/chart/'))).status).toBe(403);
    expect((await asGuest(t.http.get(`/api/v1/chart/${offBoard}`))).status).toBe(404);
    const noChart = await asGuest(t.http.post('/api/v1/chart/data').send(pieQuery()));
    expect(noChart.status).toBe(403);
    expect(noChart.body.message).toBe('Guest user cannot modify chart payload');
    expect((await asGuest(t.http.post('/api/v1/chart/data').query({ form_data: JSON.stringify({ slice_id: offBoard }) }).send(pieQuery()))).status).toBe(403);
    // Only what the chart shows (Superset's query_context_modified): not another column, metric or raw rows of its
    // dataset, and not under the name of another chart in the body's form data.
    const asked = async (query: object, formData: object = { slice_id: onBoard }) => asGuest(t.http.post('/api/v1/chart/data').query({ form_data: JSON.stringify({ slice_id: onBoard }) }).send({ ...pieQuery(), queries: [{ ...pieQuery().queries[0], ...query }], form_data: formData }));
    expect((await asked({})).status).toBe(200);
    // Narrowed by a filter, relabelled, reordered by its own metric: still the chart's data.
    expect((await asked({ filters: [{ col: 'gender', op: '==', val: 'boy' }], orderby: [['sum__num', false]] })).status).toBe(200);
    for (const modified of [{ columns: ['name'] }, { metrics: ['count'] }, { columns: ['gender'], metrics: [{ expressionType: 'SQL', sqlExpression: 'MAX(name)', label: 'sum__num' }] }]) {
      const refused = await asked(modified);
      expect(refused.status, JSON.stringify(modified)).toBe(403);
      expect(refused.body.message).toBe('Guest user cannot modify chart payload');
    }
    expect((await asked({}, { slice_id: offBoard })).status).toBe(403);
    // A native filter's options, asked in the name of its dashboard: its own query only.
    const filter = { id: 'NATIVE_FILTER-gender', name: 'Gender', filterType: 'filter_select', targets: [{ datasetId: birthNames, column: { name: 'gender' } }], controlValues: {}, defaultDataMask: {}, cascadeParentIds: [], scope: { rootPath: ['ROOT_ID'], excluded: [] }, type: 'NATIVE_FILTER' };
    expect((await t.http.put(`/api/v1/dashboard/${board}`).set(bearer(admin)).send({ json_metadata: JSON.stringify({ native_filter_configuration: [filter] }) })).status).toBe(200);
    const options = (formData: object, query: object = {}) => asGuest(t.http.post('/api/v1/chart/data').send({ datasource: { id: birthNames, type: 'table' }, queries: [{ columns: ['gender'], metrics: [{ expressionType: 'SQL', sqlExpression: 'COUNT(*)', label: '__count' }], orderby: [['gender', true]], ...query }], form_data: formData }));
    const values = await options({ dashboardId: board, type: 'NATIVE_FILTER', native_filter_id: filter.id });
    expect(values.status, values.text).toBe(200);
    expect(values.body.result[0].data.map((r: { gender: string }) => r.gender)).toEqual(['boy', 'girl']);
    expect((await options({ dashboardId: board, type: 'NATIVE_FILTER', native_filter_id: filter.id }, { columns: ['name'] })).status).toBe(403);
    expect((await options({ dashboardId: other, type: 'NATIVE_FILTER', native_filter_id: filter.id })).status).toBe(403);
    expect((await options({ dashboardId: board, type: 'NATIVE_FILTER', native_filter_id: 'NATIVE_FILTER-none' })).status).toBe(403);
    expect((await asGuest(t.http.post('/api/v1/dashboard/').send({ dashboard_title: 'guest was here' }))).status).toBe(403);
    expect((await asGuest(t.http.put(`/api/v1/dashboard/${board}`).send({ dashboard_title: 'renamed' }))).status).toBe(403);
    expect((await asGuest(t.http.get('/api/v1/database/'))).status).toBe(403);
    expect((await asGuest(t.http.post('/api/v1/sqllab/execute/').send({ database_id: 1, sql: 'SELECT 1' }))).status).toBe(403);
    expect((await asGuest(t.http.get('/api/v1/explore/').query({ slice_id: onBoard }))).status).toBe(403);
  });

  it("applies the guest token's row-level security rules: those for the chart's dataset and those for every dataset", async () => {
    const tokenWith = async (rls: object[]) => (await t.http.post('/api/v1/security/guest_token/').set(bearer(admin)).send({ resources: [{ type: 'dashboard', id: uuid }], rls })).body.token as string;
    const genders = async (token: string) => {
      const res = await asGuest(t.http.post('/api/v1/chart/data').query({ form_data: JSON.stringify({ slice_id: onBoard }) }).send(pieQuery()), token);
      expect(res.status, res.text).toBe(200);
      return (res.body.result[0].data as Array<{ gender: string }>).map((r) => r.gender).sort();
    };
    expect(await genders(await tokenWith([{ dataset: birthNames, clause: "gender = 'girl'" }]))).toEqual(['girl']);
    expect(await genders(await tokenWith([{ clause: "gender = 'boy'" }]))).toEqual(['boy']);
    // A rule for another dataset leaves this one alone.
    expect(await genders(await tokenWith([{ dataset: birthNames + 1000, clause: '1 = 0' }]))).toEqual(['boy', 'girl']);
    expect((await t.http.post('/api/v1/security/guest_token/').set(bearer(admin)).send({ resources: [{ type: 'dashboard', id: uuid }], rls: [{ dataset: birthNames }] })).status).toBe(400);
  });

  it('refuses a forged or expired guest token, and a token for an embedding since removed', async () => {
    expect((await asGuest(t.http.get(`/api/v1/dashboard/${board}`), `${guest}x`)).status).toBe(401);
    const key = new TextEncoder().encode(`guest:${t.services.config.secretKey}`);
    const expired = await new SignJWT({ type: 'guest', user: {}, resources: [{ type: 'dashboard', id: uuid }] }).setProtectedHeader({ alg: 'HS256' }).setIssuedAt(Math.floor(Date.now() / 1000) - 600).setExpirationTime(Math.floor(Date.now() / 1000) - 300).sign(key);
    expect((await asGuest(t.http.get(`/api/v1/dashboard/${board}`), expired)).status).toBe(401);
    expect((await t.http.delete(`/api/v1/dashboard/${board}/embedded`).set(bearer(admin))).body).toEqual({ message: 'OK' });
    expect((await asGuest(t.http.get(`/api/v1/dashboard/${board}`))).status).toBe(404);
  });
});
