import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureTestExamples } from '../helpers/examples';
import { ensureExampleDatasets } from '../../server/src/dataset/example-datasets';
import { startTestApp, type TestApp } from '../helpers/app';
import { bearer } from './sqllab.helpers';

/** A layout in Superset's stored format holding two charts, one of them in a second tab. */
function layoutWith(a: number, b: number) {
  return {
    DASHBOARD_VERSION_KEY: 'v2',
    ROOT_ID: { id: 'ROOT_ID', type: 'ROOT', children: ['TABS-1'] },
    GRID_ID: { id: 'GRID_ID', type: 'GRID', children: [], parents: ['ROOT_ID'] },
    HEADER_ID: { id: 'HEADER_ID', type: 'HEADER', meta: { text: 'Births' } },
    'TABS-1': { id: 'TABS-1', type: 'TABS', children: ['TAB-1', 'TAB-2'], parents: ['ROOT_ID'] },
    'TAB-1': { id: 'TAB-1', type: 'TAB', children: ['ROW-1'], parents: ['ROOT_ID', 'TABS-1'], meta: { text: 'Overview', defaultText: 'Tab title' } },
    'TAB-2': { id: 'TAB-2', type: 'TAB', children: ['ROW-2'], parents: ['ROOT_ID', 'TABS-1'], meta: { text: 'Detail', defaultText: 'Tab title' } },
    'ROW-1': { id: 'ROW-1', type: 'ROW', children: ['CHART-a'], parents: ['ROOT_ID', 'TABS-1', 'TAB-1'], meta: { background: 'BACKGROUND_TRANSPARENT' } },
    'ROW-2': { id: 'ROW-2', type: 'ROW', children: ['CHART-b'], parents: ['ROOT_ID', 'TABS-1', 'TAB-2'], meta: { background: 'BACKGROUND_TRANSPARENT' } },
    'CHART-a': { id: 'CHART-a', type: 'CHART', children: [], parents: ['ROOT_ID', 'TABS-1', 'TAB-1', 'ROW-1'], meta: { chartId: a, width: 6, height: 50, sliceName: 'A', uuid: 'x' } },
    'CHART-b': { id: 'CHART-b', type: 'CHART', children: [], parents: ['ROOT_ID', 'TABS-1', 'TAB-2', 'ROW-2'], meta: { chartId: b, width: 6, height: 50, sliceName: 'B', uuid: 'y' } },
  };
}

describe('/api/v1/dashboard/ (spec 02 §3, §5, §6, §7)', () => {
  let t: TestApp;
  let admin: string;
  let dir: string;
  let birthNames: number;
  let charts: number[];

  beforeAll(async () => {
    t = await startTestApp();
    admin = await t.token();
    dir = mkdtempSync(join(tmpdir(), 'meridian-dashboard-'));
    await ensureTestExamples(t.services, { path: join(dir, 'examples.duckdb'), salesRows: 500 });
    await ensureExampleDatasets(t.services);
    const list = await t.http.get('/api/v1/dataset/').query({ q: '(filters:!((col:table_name,opr:eq,value:birth_names)))' }).set(bearer(admin));
    birthNames = list.body.ids[0];
    charts = [];
    for (const name of ['Births by gender', 'Births by state']) {
      const res = await t.http.post('/api/v1/chart/').set(bearer(admin)).send({ slice_name: name, viz_type: 'pie', datasource_id: birthNames, datasource_type: 'table', params: JSON.stringify({ viz_type: 'pie', groupby: ['gender'], metric: 'sum__num' }) });
      expect(res.status).toBe(201);
      charts.push(res.body.id);
    }
  });
  afterAll(async () => {
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("POST {} creates '[ untitled dashboard ]' owned by its creator; slugs are normalised, empty is null, a duplicate is 422", async () => {
    const empty = await t.http.post('/api/v1/dashboard/').set(bearer(admin)).send({});
    expect(empty.status).toBe(201);
    expect(empty.body.result.dashboard_title).toBe('[ untitled dashboard ]');
    expect(empty.body.result.slug).toBeNull();
    expect(typeof empty.body.last_modified_time).toBe('number');
    const got = await t.http.get(`/api/v1/dashboard/${empty.body.id}`).set(bearer(admin));
    expect(got.body.result.owners.map((o: any) => o.id)).toEqual([1]);

    const named = await t.http.post('/api/v1/dashboard/').set(bearer(admin)).send({ dashboard_title: 'Sales', slug: ' sales board! ' });
    expect(named.body.result.slug).toBe('sales-board');
    const bySlug = await t.http.get('/api/v1/dashboard/sales-board').set(bearer(admin));
    expect(bySlug.body.result).toMatchObject({ id: named.body.id, dashboard_title: 'Sales', url: '/superset/dashboard/sales-board/' });

    const dup = await t.http.post('/api/v1/dashboard/').set(bearer(admin)).send({ dashboard_title: 'Other', slug: 'sales-board' });
    expect(dup.status).toBe(422);
    expect(dup.body.message).toEqual({ slug: ['Must be unique'] });
    const long = await t.http.post('/api/v1/dashboard/').set(bearer(admin)).send({ slug: 'x'.repeat(256) });
    expect(long.status).toBe(400);
    await t.http.delete(`/api/v1/dashboard/?q=!(${empty.body.id},${named.body.id})`).set(bearer(admin)).expect(200);
  });

  it('PUT colors writes the colour keys of json_metadata, leaving the dashboard unchanged with mark_updated=false; owners only', async () => {
    const id = (await t.http.post('/api/v1/dashboard/').set(bearer(admin)).send({ dashboard_title: 'Colourful', published: true, json_metadata: JSON.stringify({ refresh_frequency: 0 }) })).body.id;
    const before = (await t.http.get(`/api/v1/dashboard/${id}`).set(bearer(admin))).body.result.changed_on;
    const put = await t.http.put(`/api/v1/dashboard/${id}/colors`).query({ mark_updated: 'false' }).set(bearer(admin)).send({ color_scheme: 'd3Category10', map_label_colors: { boy: '#1f77b4', girl: '#ff7f0e' }, label_colors: { boy: '#000000' } });
    expect(put.status, put.text).toBe(200);
    const stored = (await t.http.get(`/api/v1/dashboard/${id}`).set(bearer(admin))).body.result;
    expect(JSON.parse(stored.json_metadata)).toEqual({ refresh_frequency: 0, color_scheme: 'd3Category10', map_label_colors: { boy: '#1f77b4', girl: '#ff7f0e' }, label_colors: { boy: '#000000' } });
    expect(stored.changed_on).toBe(before);
    await t.http.put(`/api/v1/dashboard/${id}/colors`).set(bearer(admin)).send({ color_scheme: 'supersetColors' });
    expect((await t.http.get(`/api/v1/dashboard/${id}`).set(bearer(admin))).body.result.changed_on).not.toBe(before);
    expect((await t.http.put(`/api/v1/dashboard/${id}/colors`).set(bearer(admin)).send({ label_colors: { boy: 3 } })).status).toBe(400);
    const gamma = await t.userWithRoles('gamma_colors', ['Gamma', 'Alpha']);
    // Someone else: refused as the dashboard PUT refuses them (a dashboard without charts is not even visible to them).
    const refused = (await t.http.put(`/api/v1/dashboard/${id}/colors`).set(bearer(gamma)).send({ color_scheme: 'x' })).status;
    expect([403, 404]).toContain(refused);
    expect((await t.http.put(`/api/v1/dashboard/${id}`).set(bearer(gamma)).send({ dashboard_title: 'x' })).status).toBe(refused);
    expect(JSON.parse((await t.http.get(`/api/v1/dashboard/${id}`).set(bearer(admin))).body.result.json_metadata).color_scheme).toBe('supersetColors');
  });

  it('validates json_metadata key by key (400, nothing stored) and keeps certification_details only with certified_by', async () => {
    const created = await t.http.post('/api/v1/dashboard/').set(bearer(admin)).send({ dashboard_title: 'Meta', json_metadata: JSON.stringify({ refresh_frequency: 0, color_scheme: 'supersetColors' }) });
    const id = created.body.id;
    const bad = await t.http.put(`/api/v1/dashboard/${id}`).set(bearer(admin)).send({ json_metadata: JSON.stringify({ refresh_frequency: 'often' }), dashboard_title: 'Changed' });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toEqual({ json_metadata: { refresh_frequency: ['Not a valid integer.'] } });
    const notJson = await t.http.put(`/api/v1/dashboard/${id}`).set(bearer(admin)).send({ position_json: '{nope' });
    expect(notJson.status).toBe(400);
    expect(notJson.body.message).toEqual({ position_json: ['JSON not valid'] });
    // published may not be null (Superset's fields.Boolean); is_managed_externally may (allow_none), and the stored flag stays.
    const nullPublished = await t.http.put(`/api/v1/dashboard/${id}`).set(bearer(admin)).send({ published: null });
    expect(nullPublished.status).toBe(400);
    expect(nullPublished.body.message).toEqual({ published: ['Field may not be null.'] });
    expect((await t.http.put(`/api/v1/dashboard/${id}`).set(bearer(admin)).send({ is_managed_externally: null })).status).toBe(200);
    const stored = await t.http.get(`/api/v1/dashboard/${id}`).set(bearer(admin));
    expect(stored.body.result).toMatchObject({ published: false, is_managed_externally: false });
    expect(stored.body.result.dashboard_title).toBe('Meta');
    expect(JSON.parse(stored.body.result.json_metadata).refresh_frequency).toBe(0);

    const cert = await t.http.put(`/api/v1/dashboard/${id}`).set(bearer(admin)).send({ certified_by: '', certification_details: 'orphan' });
    expect(cert.body.result).toMatchObject({ certified_by: null, certification_details: null });
    const cert2 = await t.http.put(`/api/v1/dashboard/${id}`).set(bearer(admin)).send({ certified_by: 'Data team', certification_details: 'Weekly' });
    expect(cert2.body.result).toMatchObject({ certified_by: 'Data team', certification_details: 'Weekly' });

    // The json_metadata-only PUT answers result.json_metadata and last_modified_time.
    const metaOnly = await t.http.put(`/api/v1/dashboard/${id}`).set(bearer(admin)).send({ json_metadata: JSON.stringify({ cross_filters_enabled: true, filter_bar_orientation: 'HORIZONTAL' }) });
    expect(metaOnly.status).toBe(200);
    expect(Object.keys(metaOnly.body.result)).toEqual(['json_metadata']);
    expect(JSON.parse(metaOnly.body.result.json_metadata)).toEqual({ cross_filters_enabled: true, filter_bar_orientation: 'HORIZONTAL' });
    expect(typeof metaOnly.body.last_modified_time).toBe('number');
  });

  it('keeps its charts in step with position_json and answers /charts, /datasets and /tabs', async () => {
    const created = await t.http.post('/api/v1/dashboard/').set(bearer(admin)).send({ dashboard_title: 'Births', position_json: JSON.stringify(layoutWith(charts[0], charts[1])) });
    const id = created.body.id;
    const chartList = await t.http.get(`/api/v1/dashboard/${id}/charts`).set(bearer(admin));
    expect(chartList.body.result.map((c: any) => c.slice_name).sort()).toEqual(['Births by gender', 'Births by state']);
    expect(chartList.body.result[0].form_data).toMatchObject({ viz_type: 'pie', datasource: `${birthNames}__table` });
    const datasets = await t.http.get(`/api/v1/dashboard/${id}/datasets`).set(bearer(admin));
    expect(datasets.body.result.map((d: any) => d.table_name)).toEqual(['birth_names']);
    const tabs = await t.http.get(`/api/v1/dashboard/${id}/tabs`).set(bearer(admin));
    expect(tabs.body.result).toEqual({ all_tabs: { 'TAB-1': 'Overview', 'TAB-2': 'Detail' }, tab_tree: [{ title: 'Overview', value: 'TAB-1' }, { title: 'Detail', value: 'TAB-2' }] });
    const chart = await t.http.get(`/api/v1/chart/${charts[0]}`).set(bearer(admin));
    expect(chart.body.result.dashboards.map((d: any) => d.id)).toContain(id);

    // A layout without the second chart takes it off the dashboard.
    const layout = layoutWith(charts[0], charts[1]) as Record<string, any>;
    delete layout['CHART-b'];
    layout['ROW-2'].children = [];
    await t.http.put(`/api/v1/dashboard/${id}`).set(bearer(admin)).send({ position_json: JSON.stringify(layout) }).expect(200);
    const after = await t.http.get(`/api/v1/dashboard/${id}`).set(bearer(admin));
    expect(after.body.result.charts).toEqual(['Births by gender']);
  });

  it("stores each chart's uuid in its chart meta ({chartId, width, height, sliceName, uuid}), as Superset's save fills it", async () => {
    const uuidOf = async (chartId: number) => (await t.http.get(`/api/v1/chart/${chartId}`).set(bearer(admin))).body.result.uuid as string;
    const [uuidA, uuidB] = [await uuidOf(charts[0]!), await uuidOf(charts[1]!)];
    expect(uuidA).toMatch(/^[0-9a-f-]{36}$/);
    // The editor's new chart comes without a uuid; a stale one is put right.
    const layout = layoutWith(charts[0]!, charts[1]!) as Record<string, any>;
    delete layout['CHART-a'].meta.uuid;
    const created = await t.http.post('/api/v1/dashboard/').set(bearer(admin)).send({ dashboard_title: 'With uuids', position_json: JSON.stringify(layout) });
    const stored = async () => JSON.parse((await t.http.get(`/api/v1/dashboard/${created.body.id}`).set(bearer(admin))).body.result.position_json);
    expect((await stored())['CHART-a'].meta).toEqual({ chartId: charts[0], width: 6, height: 50, sliceName: 'A', uuid: uuidA });
    expect((await stored())['CHART-b'].meta.uuid).toBe(uuidB);
    // /charts answers the uuid the client puts into a chart it adds.
    const listed = (await t.http.get(`/api/v1/dashboard/${created.body.id}/charts`).set(bearer(admin))).body.result;
    expect(listed.find((c: any) => c.id === charts[0]).uuid).toBe(uuidA);
    // A save (PUT) of a layout whose new chart has no uuid stores it with one.
    const moved = layoutWith(charts[1]!, charts[0]!) as Record<string, any>;
    delete moved['CHART-a'].meta.uuid;
    delete moved['CHART-b'].meta.uuid;
    await t.http.put(`/api/v1/dashboard/${created.body.id}`).set(bearer(admin)).send({ position_json: JSON.stringify(moved) }).expect(200);
    expect((await stored())['CHART-a'].meta.uuid).toBe(uuidB);
    expect((await stored())['CHART-b'].meta.uuid).toBe(uuidA);
  });

  it('refuses (409, nothing written) a save made from a copy older than the stored one; a PUT without a base time is not checked', async () => {
    const created = await t.http.post('/api/v1/dashboard/').set(bearer(admin)).send({ dashboard_title: 'Shared' });
    const id = created.body.id;
    const base = created.body.last_modified_time as number;
    const first = await t.http.put(`/api/v1/dashboard/${id}`).set(bearer(admin)).send({ dashboard_title: 'Edited in tab one', last_modified_time: base });
    expect(first.status).toBe(200);
    const second = await t.http.put(`/api/v1/dashboard/${id}`).set(bearer(admin)).send({ dashboard_title: 'Edited in tab two', css: '.x{}', last_modified_time: base });
    expect(second.status).toBe(409);
    expect(second.body.message).toMatch(/changed by another save/);
    const stored = await t.http.get(`/api/v1/dashboard/${id}`).set(bearer(admin));
    expect(stored.body.result).toMatchObject({ dashboard_title: 'Edited in tab one', css: null });
    const fresh = await t.http.put(`/api/v1/dashboard/${id}`).set(bearer(admin)).send({ dashboard_title: 'From the fresh copy', last_modified_time: first.body.last_modified_time });
    expect(fresh.status).toBe(200);
    const script = await t.http.put(`/api/v1/dashboard/${id}`).set(bearer(admin)).send({ dashboard_title: 'By a script' });
    expect(script.status).toBe(200);
  });

  it('lets only owners and admins edit: others get 403 with the spec message; a user without can_write on Dashboard cannot create; a draft of others is 404', async () => {
    const created = await t.http.post('/api/v1/dashboard/').set(bearer(admin)).send({ dashboard_title: 'Admin only', published: true, position_json: JSON.stringify(layoutWith(charts[0], charts[1])) });
    const id = created.body.id;
    const alpha = await t.userWithRoles('alpha_d', ['Alpha']);
    const read = await t.http.get(`/api/v1/dashboard/${id}`).set(bearer(alpha));
    expect(read.status).toBe(200);
    const edit = await t.http.put(`/api/v1/dashboard/${id}`).set(bearer(alpha)).send({ dashboard_title: 'Mine now' });
    expect(edit.status).toBe(403);
    expect(edit.body.message).toBe('You do not have permission to edit this dashboard');
    const del = await t.http.delete(`/api/v1/dashboard/${id}`).set(bearer(alpha));
    expect(del.status).toBe(403);

    const sqlOnly = await t.userWithRoles('sqlonly_d', ['sql_lab']);
    const refusedCreate = await t.http.post('/api/v1/dashboard/').set(bearer(sqlOnly)).send({ dashboard_title: 'Nope' });
    expect(refusedCreate.status).toBe(403);

    const draft = await t.http.post('/api/v1/dashboard/').set(bearer(admin)).send({ dashboard_title: 'Draft' });
    expect((await t.http.get(`/api/v1/dashboard/${draft.body.id}`).set(bearer(alpha))).status).toBe(404);
    const alphaList = await t.http.get('/api/v1/dashboard/').set(bearer(alpha));
    expect(alphaList.body.result.map((d: any) => d.dashboard_title)).toContain('Admin only');
    expect(alphaList.body.result.map((d: any) => d.dashboard_title)).not.toContain('Draft');

    // Made an owner, alpha may edit; its own dashboards it always may.
    await t.http.put(`/api/v1/dashboard/${id}`).set(bearer(admin)).send({ owners: [1, (await t.services.db.selectFrom('ab_user').select('id').where('username', '=', 'alpha_d').executeTakeFirstOrThrow()).id] }).expect(200);
    expect((await t.http.put(`/api/v1/dashboard/${id}`).set(bearer(alpha)).send({ dashboard_title: 'Co-owned' })).status).toBe(200);
  });

  it('lists with filters (title or slug, published, favourite, certified), favourites, copies with and without charts, and bulk-deletes all or nothing', async () => {
    const a = await t.http.post('/api/v1/dashboard/').set(bearer(admin)).send({ dashboard_title: 'World health', slug: 'world', published: true, certified_by: 'WHO' });
    const b = await t.http.post('/api/v1/dashboard/').set(bearer(admin)).send({ dashboard_title: 'Births overview', position_json: JSON.stringify(layoutWith(charts[0], charts[1])) });
    const titles = async (q: string) => {
      const res = await t.http.get("/api/v1/dashboard/").query({ q }).set(bearer(admin));
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.result.map((d: any) => d.dashboard_title);
    };
    expect(await titles('(filters:!((col:dashboard_title,opr:title_or_slug,value:world)))')).toEqual(['World health']);
    expect(await titles('(filters:!((col:published,opr:eq,value:!t),(col:id,opr:dashboard_is_certified,value:!t)))')).toEqual(['World health']);

    await t.http.post(`/api/v1/dashboard/${b.body.id}/favorites/`).set(bearer(admin)).expect(200);
    expect(await titles('(filters:!((col:id,opr:dashboard_is_favorite,value:!t)))')).toEqual(['Births overview']);
    const status = await t.http.get(`/api/v1/dashboard/favorite_status/?q=!(${a.body.id},${b.body.id})`).set(bearer(admin));
    expect(status.body.result).toEqual([{ id: a.body.id, value: false }, { id: b.body.id, value: true }]);
    await t.http.delete(`/api/v1/dashboard/${b.body.id}/favorites/`).set(bearer(admin)).expect(200);

    const copy = await t.http.post(`/api/v1/dashboard/${b.body.id}/copy/`).set(bearer(admin)).send({ dashboard_title: 'Births (copy)', json_metadata: JSON.stringify({ color_scheme: 'bnbColors' }) });
    expect(copy.status).toBe(200);
    const copied = await t.http.get(`/api/v1/dashboard/${copy.body.result.id}/charts`).set(bearer(admin));
    expect(copied.body.result.map((c: any) => c.id).sort()).toEqual([...charts].sort());
    const deep = await t.http.post(`/api/v1/dashboard/${b.body.id}/copy/`).set(bearer(admin)).send({ dashboard_title: 'Births (deep copy)', json_metadata: '{}', duplicate_slices: true });
    const deepCharts = (await t.http.get(`/api/v1/dashboard/${deep.body.result.id}/charts`).set(bearer(admin))).body.result;
    expect(deepCharts).toHaveLength(2);
    expect(deepCharts.some((c: any) => charts.includes(c.id))).toBe(false);
    const deepLayout = JSON.parse((await t.http.get(`/api/v1/dashboard/${deep.body.result.id}`).set(bearer(admin))).body.result.position_json);
    expect(deepLayout['CHART-a'].meta.chartId).not.toBe(charts[0]);
    const copyUuid = (await t.http.get(`/api/v1/chart/${deepLayout['CHART-a'].meta.chartId}`).set(bearer(admin))).body.result.uuid;
    expect(deepLayout['CHART-a'].meta.uuid).toBe(copyUuid);

    const distinct = await t.http.get('/api/v1/dashboard/distinct/dashboard_title').query({ q: '(filter:Births)' }).set(bearer(admin));
    expect(distinct.body.result.map((r: any) => r.value)).toEqual(expect.arrayContaining(['Births (copy)', 'Births (deep copy)', 'Births overview']));
    expect(distinct.body.result.map((r: any) => r.value)).not.toContain('World health');

    // related/{column}: the people to filter by (owners, modified by) and the roles to give; _info as Superset answers.
    const owners = await t.http.get('/api/v1/dashboard/related/owners').query({ q: '(filter:admin)' }).set(bearer(admin));
    expect(owners.status).toBe(200);
    expect(owners.body.result).toEqual(expect.arrayContaining([expect.objectContaining({ text: 'Admin User', extra: expect.objectContaining({ active: true }) })]));
    const adminId = owners.body.result.find((o: any) => o.text === 'Admin User').value;
    expect(await titles(`(filters:!((col:changed_by,opr:rel_o_m,value:${adminId}),(col:dashboard_title,opr:ct,value:copy)))`)).toEqual(expect.arrayContaining(['Births (copy)', 'Births (deep copy)']));
    const roles = await t.http.get('/api/v1/dashboard/related/roles').set(bearer(admin));
    expect(roles.body.result.map((r: any) => r.text)).toEqual(expect.arrayContaining(['Admin', 'Alpha', 'Gamma']));
    expect((await t.http.get('/api/v1/dashboard/related/slug').set(bearer(admin))).status).toBe(404);
    const info = await t.http.get('/api/v1/dashboard/_info').query({ q: '(keys:!(permissions,filters))' }).set(bearer(admin));
    expect(info.status).toBe(200);
    expect(info.body.permissions).toEqual(expect.arrayContaining(['can_read', 'can_write']));
    expect(info.body.filters.owners.map((f: any) => f.operator)).toEqual(['rel_m_m', 'nrel_m_m']);
    expect(info.body.add_columns).toBeUndefined();

    const alpha = await t.userWithRoles('alpha_bulk', ['Alpha']);
    const mine = await t.http.post('/api/v1/dashboard/').set(bearer(alpha)).send({ dashboard_title: 'Alpha board' });
    // 'World health' holds no chart alpha may read, so to alpha it does not exist (404); nothing is deleted.
    const refused = await t.http.delete(`/api/v1/dashboard/?q=!(${mine.body.id},${a.body.id})`).set(bearer(alpha));
    expect(refused.status).toBe(404);
    expect((await t.http.get(`/api/v1/dashboard/${mine.body.id}`).set(bearer(alpha))).status).toBe(200);
    const ok = await t.http.delete(`/api/v1/dashboard/?q=!(${a.body.id},${copy.body.result.id})`).set(bearer(admin));
    expect(ok.body.message).toBe('Deleted 2 dashboards');
  });

  it('stores a permalink with urlParams, dataMask, activeTabs and anchor, and reads it back', async () => {
    const created = await t.http.post('/api/v1/dashboard/').set(bearer(admin)).send({ dashboard_title: 'Linked', slug: 'linked', position_json: JSON.stringify(layoutWith(charts[0], charts[1])) });
    const state = { urlParams: [['standalone', '1']], dataMask: { 'NATIVE_FILTER-1': { filterState: { value: ['CA'] } } }, activeTabs: ['TAB-2'], anchor: 'CHART-b' };
    const link = await t.http.post('/api/v1/dashboard/linked/permalink').set(bearer(admin)).send(state);
    expect(link.status).toBe(201);
    expect(link.body.url).toMatch(new RegExp(`/superset/dashboard/p/${link.body.key}/$`));
    const read = await t.http.get(`/api/v1/dashboard/permalink/${link.body.key}`).set(bearer(admin));
    expect(read.body).toEqual({ dashboardId: String(created.body.id), state });
    expect((await t.http.get('/api/v1/dashboard/permalink/00000000-0000-0000-0000-000000000000').set(bearer(admin))).status).toBe(404);
  });
});
