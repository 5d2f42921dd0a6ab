import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app';
import { ensureTestExamples } from '../helpers/examples';
import { ensureExampleDatasets } from '../../server/src/dataset/example-datasets';
import { bearer } from './sqllab.helpers';

/** Owners and roles of dashboards (spec 02 §3, §5, §6), with and without DASHBOARD_RBAC. */
describe('dashboard owners and roles', () => {
  let plain: TestApp;
  let rbac: TestApp;
  beforeAll(async () => {
    [plain, rbac] = await Promise.all([startTestApp(), startTestApp({ env: { FEATURE_DASHBOARD_RBAC: 'true' } })]);
  });
  afterAll(async () => {
    await Promise.all([plain?.close(), rbac?.close()]);
  });

  const idOf = async (t: TestApp, token: string) => (await t.http.get('/api/v1/me/').set(bearer(token))).body.result.id as number;
  const ownersOf = async (t: TestApp, token: string, id: number) => ((await t.http.get(`/api/v1/dashboard/${id}`).set(bearer(token))).body.result.owners as Array<{ id: number }>).map((o) => o.id).sort();

  it('a non-admin who saves owners without themselves stays an owner; an admin sets them as asked; list filters by owner and creator', async () => {
    const admin = await plain.token();
    const gamma = await plain.userWithRoles('gamma_owner', ['Gamma']);
    const [adminId, gammaId] = [await idOf(plain, admin), await idOf(plain, gamma)];

    const mine = (await plain.http.post('/api/v1/dashboard/').set(bearer(gamma)).send({ dashboard_title: 'Gamma owns' })).body.id as number;
    expect(await ownersOf(plain, admin, mine)).toEqual([gammaId]);
    const put = await plain.http.put(`/api/v1/dashboard/${mine}`).set(bearer(gamma)).send({ owners: [adminId] });
    expect(put.status).toBe(200);
    expect(await ownersOf(plain, admin, mine)).toEqual([adminId, gammaId].sort());
    // Still an owner, so still allowed to edit.
    expect((await plain.http.put(`/api/v1/dashboard/${mine}`).set(bearer(gamma)).send({ dashboard_title: 'Gamma still owns' })).status).toBe(200);

    const theirs = (await plain.http.post('/api/v1/dashboard/').set(bearer(admin)).send({ dashboard_title: 'Handed over' })).body.id as number;
    expect((await plain.http.put(`/api/v1/dashboard/${theirs}`).set(bearer(admin)).send({ owners: [gammaId] })).status).toBe(200);
    expect(await ownersOf(plain, admin, theirs)).toEqual([gammaId]);
    expect((await plain.http.put(`/api/v1/dashboard/${theirs}`).set(bearer(admin)).send({ owners: [987654] })).body).toEqual({ message: { owners: ['Owners are invalid'] } });

    const titles = async (q: string) => ((await plain.http.get('/api/v1/dashboard/').query({ q }).set(bearer(admin))).body.result as Array<{ dashboard_title: string }>).map((d) => d.dashboard_title).sort();
    expect(await titles(`(filters:!((col:owners,opr:rel_m_m,value:${gammaId})))`)).toEqual(['Gamma still owns', 'Handed over']);
    expect(await titles(`(filters:!((col:owners,opr:nrel_m_m,value:${gammaId})))`)).not.toContain('Handed over');
    expect(await titles(`(filters:!((col:created_by,opr:rel_o_m,value:${gammaId})))`)).toEqual(['Gamma still owns']);
  });

  it('roles are stored only with DASHBOARD_RBAC, and then give their holders a published dashboard', async () => {
    const roleId = async (t: TestApp, admin: string, name: string) => ((await t.http.get('/api/v1/dashboard/related/roles').set(bearer(admin))).body.result as Array<{ value: number; text: string }>).find((r) => r.text === name)!.value;
    for (const [t, on] of [[plain, false], [rbac, true]] as const) {
      const admin = await t.token();
      const gamma = await t.userWithRoles(`gamma_rbac_${on}`, ['Gamma']);
      const alpha = await t.userWithRoles(`alpha_rbac_${on}`, ['Alpha']);
      const id = (await t.http.post('/api/v1/dashboard/').set(bearer(admin)).send({ dashboard_title: 'For Gamma', published: true })).body.id as number;
      const put = await t.http.put(`/api/v1/dashboard/${id}`).set(bearer(admin)).send({ roles: [await roleId(t, admin, 'Gamma')] });
      expect(put.status).toBe(200);
      const roles = (await t.http.get(`/api/v1/dashboard/${id}`).set(bearer(admin))).body.result.roles as Array<{ name: string }>;
      expect(roles.map((r) => r.name)).toEqual(on ? ['Gamma'] : []);
      // A dashboard without charts is readable by its roles' holders only (with the flag), not by another non-owner.
      expect((await t.http.get(`/api/v1/dashboard/${id}`).set(bearer(gamma))).status).toBe(on ? 200 : 404);
      expect((await t.http.get(`/api/v1/dashboard/${id}`).set(bearer(alpha))).status).toBe(404);
    }
  });
  it("with DASHBOARD_RBAC a role's holder reads the data of the dashboard's charts and filters without the dataset: only what they show, only on a published dashboard", async () => {
    await ensureTestExamples(rbac.services, { salesRows: 50 });
    await ensureExampleDatasets(rbac.services);
    const admin = await rbac.token();
    const gamma = await rbac.userWithRoles('gamma_rbac_data', ['Gamma']);
    const birthNames = (await rbac.http.get('/api/v1/dataset/').query({ q: '(filters:!((col:table_name,opr:eq,value:birth_names)))' }).set(bearer(admin))).body.ids[0] as number;
    const chart = async (name: string) => (await rbac.http.post('/api/v1/chart/').set(bearer(admin)).send({ slice_name: name, viz_type: 'pie', datasource_id: birthNames, datasource_type: 'table', params: JSON.stringify({ viz_type: 'pie', groupby: ['gender'], metric: 'sum__num' }) })).body.id as number;
    const [onBoard, offBoard] = [await chart('Pie on the role board'), await chart('Pie elsewhere')];
    const position = { DASHBOARD_VERSION_KEY: 'v2', ROOT_ID: { id: 'ROOT_ID', type: 'ROOT', children: ['GRID_ID'] }, GRID_ID: { id: 'GRID_ID', type: 'GRID', children: ['ROW-1'], parents: ['ROOT_ID'] }, 'ROW-1': { id: 'ROW-1', type: 'ROW', children: ['CHART-1'], parents: ['ROOT_ID', 'GRID_ID'], meta: {} }, 'CHART-1': { id: 'CHART-1', type: 'CHART', children: [], parents: ['ROOT_ID', 'GRID_ID', 'ROW-1'], meta: { chartId: onBoard, width: 6, height: 50 } } };
    const filter = { id: 'NATIVE_FILTER-gender', name: 'Gender', filterType: 'filter_select', targets: [{ datasetId: birthNames, column: { name: 'gender' } }], controlValues: {}, defaultDataMask: {}, cascadeParentIds: [], scope: { rootPath: ['ROOT_ID'], excluded: [] }, type: 'NATIVE_FILTER' };
    const gammaRole = ((await rbac.http.get('/api/v1/dashboard/related/roles').set(bearer(admin))).body.result as Array<{ value: number; text: string }>).find((r) => r.text === 'Gamma')!.value;
    const board = (await rbac.http.post('/api/v1/dashboard/').set(bearer(admin)).send({ dashboard_title: 'Role board', published: true, roles: [gammaRole], position_json: JSON.stringify(position), json_metadata: JSON.stringify({ native_filter_configuration: [filter] }) })).body.id as number;
    expect((await rbac.http.get(`/api/v1/dashboard/${board}/charts`).set(bearer(admin))).body.result.map((c: { id: number }) => c.id)).toEqual([onBoard]);

    const ask = (formData: Record<string, unknown>, query: Record<string, unknown> = {}) =>
      rbac.http.post('/api/v1/chart/data').set(bearer(gamma)).send({ datasource: { id: birthNames, type: 'table' }, queries: [{ columns: ['gender'], metrics: ['sum__num'], ...query }], form_data: formData, result_format: 'json', result_type: 'full' });
    // The dashboard's charts and their dataset, for the role's holder as for its owner.
    expect((await rbac.http.get(`/api/v1/dashboard/${board}/charts`).set(bearer(gamma))).body.result.map((c: { id: number }) => c.id)).toEqual([onBoard]);
    expect((await rbac.http.get(`/api/v1/dashboard/${board}/datasets`).set(bearer(gamma))).body.result.map((d: { id: number }) => d.id)).toEqual([birthNames]);
    // Gamma may not read birth_names itself.
    expect((await ask({ slice_id: onBoard })).status).toBe(404);
    const granted = await ask({ slice_id: onBoard, dashboardId: board });
    expect(granted.status, granted.text).toBe(200);
    expect(granted.body.result[0].data).toHaveLength(2);
    // Not another column, not a chart of another dashboard, not through a dashboard without its role.
    expect((await ask({ slice_id: onBoard, dashboardId: board }, { columns: ['name'] })).status).toBe(404);
    expect((await ask({ slice_id: offBoard, dashboardId: board })).status).toBe(404);
    // The filter's values: its column only.
    const values = await ask({ dashboardId: board, type: 'NATIVE_FILTER', native_filter_id: filter.id }, { metrics: [] });
    expect(values.status, values.text).toBe(200);
    expect((await ask({ dashboardId: board, type: 'NATIVE_FILTER', native_filter_id: filter.id }, { columns: ['name'], metrics: [] })).status).toBe(404);
    expect((await ask({ dashboardId: board, type: 'NATIVE_FILTER', native_filter_id: 'NATIVE_FILTER-none' }, { metrics: [] })).status).toBe(404);
    // A draft gives its roles nothing, nor does the dashboard once its role is taken off.
    expect((await rbac.http.put(`/api/v1/dashboard/${board}`).set(bearer(admin)).send({ published: false })).status).toBe(200);
    expect((await ask({ slice_id: onBoard, dashboardId: board })).status).toBe(404);
    expect((await rbac.http.put(`/api/v1/dashboard/${board}`).set(bearer(admin)).send({ published: true, roles: [] })).status).toBe(200);
    expect((await ask({ slice_id: onBoard, dashboardId: board })).status).toBe(404);
    // Without the flag, the dashboard's id opens nothing.
    const plainAdmin = await plain.token();
    await ensureTestExamples(plain.services, { salesRows: 50 });
    await ensureExampleDatasets(plain.services);
    const plainGamma = await plain.userWithRoles('gamma_plain_data', ['Gamma']);
    const plainBirths = (await plain.http.get('/api/v1/dataset/').query({ q: '(filters:!((col:table_name,opr:eq,value:birth_names)))' }).set(bearer(plainAdmin))).body.ids[0] as number;
    const plainChart = (await plain.http.post('/api/v1/chart/').set(bearer(plainAdmin)).send({ slice_name: 'Pie', viz_type: 'pie', datasource_id: plainBirths, datasource_type: 'table', params: JSON.stringify({ viz_type: 'pie', groupby: ['gender'], metric: 'sum__num' }) })).body.id as number;
    const plainPosition = JSON.parse(JSON.stringify(position).replace(`"chartId":${onBoard}`, `"chartId":${plainChart}`));
    const plainBoard = (await plain.http.post('/api/v1/dashboard/').set(bearer(plainAdmin)).send({ dashboard_title: 'No flag', published: true, position_json: JSON.stringify(plainPosition) })).body.id as number;
    const plainAsk = await plain.http.post('/api/v1/chart/data').set(bearer(plainGamma)).send({ datasource: { id: plainBirths, type: 'table' }, queries: [{ columns: ['gender'], metrics: ['sum__num'] }], form_data: { slice_id: plainChart, dashboardId: plainBoard } });
    expect(plainAsk.status).toBe(404);
  });
});
