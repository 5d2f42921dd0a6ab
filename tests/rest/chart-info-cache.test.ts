import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureTestExamples } from '../helpers/examples';
import { ensureExampleDatasets } from '../../server/src/dataset/example-datasets';
import { ensureExampleDashboards } from '../../server/src/dashboard/example-dashboards';
import { startTestApp, type TestApp } from '../helpers/app';
import { bearer } from './sqllab.helpers';

// Chart _info, related and distinct; warming caches and invalidating them; the examples' dashboards.
describe('/api/v1/chart/ _info, related, distinct, warm_up_cache; /api/v1/cachekey/invalidate; example dashboards', () => {
  let t: TestApp;
  let admin: string;
  let dir: string;
  let birthNames: number;
  let pie: number;

  const pieContext = () => ({
    datasource: { id: birthNames, type: 'table' },
    queries: [{ columns: ['gender'], metrics: ['sum__num'], row_limit: 10, time_range: 'No filter' }],
    result_format: 'json',
    result_type: 'full',
  });

  beforeAll(async () => {
    t = await startTestApp();
    admin = await t.token();
    dir = mkdtempSync(join(tmpdir(), 'meridian-chart-info-'));
    await ensureTestExamples(t.services, { path: join(dir, 'examples.duckdb'), salesRows: 500 });
    await ensureExampleDatasets(t.services);
    birthNames = (await t.http.get('/api/v1/dataset/').query({ q: '(filters:!((col:table_name,opr:eq,value:birth_names)))' }).set(bearer(admin))).body.ids[0];
    const created = await t.http
      .post('/api/v1/chart/')
      .set(bearer(admin))
      .send({ slice_name: 'Births by gender', viz_type: 'pie', datasource_id: birthNames, datasource_type: 'table', params: JSON.stringify({ viz_type: 'pie', groupby: ['gender'], metric: 'sum__num' }), query_context: JSON.stringify(pieContext()) });
    expect(created.status).toBe(201);
    pie = created.body.id;
  });
  afterAll(async () => {
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('_info answers columns, filters and the caller’s permissions, narrowed by keys', async () => {
    const all = await t.http.get('/api/v1/chart/_info').set(bearer(admin));
    expect(all.status).toBe(200);
    expect(all.body.add_title).toBe('Add Chart');
    expect(all.body.add_columns).toContainEqual(expect.objectContaining({ name: 'slice_name', required: true, type: 'String' }));
    expect(all.body.edit_columns.find((c: { name: string }) => c.name === 'slice_name').required).toBe(false);
    expect(all.body.filters.slice_name).toContainEqual({ name: 'All Text', operator: 'chart_all_text' });
    expect(all.body.permissions).toEqual(['can_read', 'can_write', 'can_export', 'can_warm_up_cache']);

    const gamma = await t.userWithRoles('gamma_info', ['Gamma']);
    const narrowed = await t.http.get('/api/v1/chart/_info').query({ q: '(keys:!(permissions))' }).set(bearer(gamma));
    expect(narrowed.body).toEqual({ permissions: ['can_read', 'can_write', 'can_export'] });
  });

  it('related/{column} lists users and dashboards, distinct/{column} the charts’ values; unknown columns are 400', async () => {
    const owners = await t.http.get('/api/v1/chart/related/owners').query({ q: '(filter:adm)' }).set(bearer(admin));
    expect(owners.status).toBe(200);
    expect(owners.body.result[0]).toMatchObject({ text: expect.any(String), value: expect.any(Number) });
    await t.http.post('/api/v1/dashboard/').set(bearer(admin)).send({ dashboard_title: 'Related board' });
    const dashboards = await t.http.get('/api/v1/chart/related/dashboards').query({ q: '(filter:Related)' }).set(bearer(admin));
    expect(dashboards.body.result.map((r: { text: string }) => r.text)).toEqual(['Related board']);
    const distinct = await t.http.get('/api/v1/chart/distinct/viz_type').set(bearer(admin));
    expect(distinct.body.result).toContainEqual({ text: 'pie', value: 'pie' });
    expect((await t.http.get('/api/v1/chart/related/nonsense').set(bearer(admin))).status).toBe(404);
    expect((await t.http.get('/api/v1/chart/distinct/params').set(bearer(admin))).status).toBe(404);
  });

  it('warm_up_cache caches a chart’s answer; cachekey/invalidate drops it; only admins invalidate', async () => {
    const warm = await t.http.put('/api/v1/chart/warm_up_cache').set(bearer(admin)).send({ chart_id: pie });
    expect(warm.status).toBe(200);
    expect(warm.body.result).toEqual([{ chart_id: pie, viz_error: null, viz_status: 'success' }]);
    const cached = await t.http.post('/api/v1/chart/data').set(bearer(admin)).send(pieContext());
    expect(cached.body.result[0].is_cached).toBe(true);

    const gamma = await t.userWithRoles('gamma_cache', ['Gamma']);
    expect((await t.http.post('/api/v1/cachekey/invalidate').set(bearer(gamma)).send({ datasource_uids: [`${birthNames}__table`] })).status).toBe(403);
    const dropped = await t.http.post('/api/v1/cachekey/invalidate').set(bearer(admin)).send({ datasource_uids: [`${birthNames}__table`] });
    expect(dropped.status).toBe(201);
    expect((await t.http.post('/api/v1/chart/data').set(bearer(admin)).send(pieContext())).body.result[0].is_cached).toBe(false);

    // By name, as scripts name datasources; and through the dataset's warm-up, which warms every chart on it.
    const byDataset = await t.http.put('/api/v1/dataset/warm_up_cache').set(bearer(admin)).send({ db_name: 'examples', table_name: 'birth_names' });
    expect(byDataset.status).toBe(200);
    expect(byDataset.body.result).toContainEqual({ chart_id: pie, viz_error: null, viz_status: 'success' });
    expect((await t.http.post('/api/v1/chart/data').set(bearer(admin)).send(pieContext())).body.result[0].is_cached).toBe(true);
    await t.http.post('/api/v1/cachekey/invalidate').set(bearer(admin)).send({ datasources: [{ datasource_name: 'birth_names', database_name: 'examples', schema: 'main', datasource_type: 'table' }] });
    expect((await t.http.post('/api/v1/chart/data').set(bearer(admin)).send(pieContext())).body.result[0].is_cached).toBe(false);

    expect((await t.http.put('/api/v1/chart/warm_up_cache').set(bearer(admin)).send({ chart_id: 999999 })).status).toBe(404);
    expect((await t.http.put('/api/v1/dataset/warm_up_cache').set(bearer(admin)).send({ db_name: 'examples', table_name: 'nope' })).status).toBe(404);
  });

  it('a warm-up reports a chart whose query fails, without failing the call', async () => {
    const broken = await t.http
      .post('/api/v1/chart/')
      .set(bearer(admin))
      .send({ slice_name: 'Broken', viz_type: 'table', datasource_id: birthNames, datasource_type: 'table', params: JSON.stringify({ viz_type: 'table', groupby: ['no_such_column'], metrics: ['count'] }) });
    const warm = await t.http.put('/api/v1/chart/warm_up_cache').set(bearer(admin)).send({ chart_id: broken.body.id });
    expect(warm.status).toBe(200);
    expect(warm.body.result[0]).toMatchObject({ chart_id: broken.body.id, viz_status: 'failed', viz_error: expect.stringMatching(/no_such_column/) });
  });

  // Each example chart is drawn in a real browser by tests/e2e/chart-gallery.test.ts.
  it('the examples come with published dashboards, their charts in the layout', async () => {
    const first = await ensureExampleDashboards(t.services);
    expect(first.created).toEqual(['births', 'world_health', 'sales']);
    expect((await ensureExampleDashboards(t.services)).created).toEqual([]);
    for (const slug of first.created) {
      const dash = await t.http.get(`/api/v1/dashboard/${slug}`).set(bearer(admin));
      expect(dash.body.result.published).toBe(true);
      const position = JSON.parse(dash.body.result.position_json);
      expect(position.DASHBOARD_VERSION_KEY).toBe('v2');
      const inLayout = Object.values<any>(position).filter((c) => c?.type === 'CHART').map((c) => c.meta.chartId).sort((a, b) => a - b);
      const charts = (await t.http.get(`/api/v1/dashboard/${slug}/charts`).set(bearer(admin))).body.result.map((c: { id: number }) => c.id).sort((a: number, b: number) => a - b);
      expect(charts).toEqual(inLayout);
      expect(charts.length).toBeGreaterThan(5);
    }
    expect((await t.http.get('/api/v1/dashboard/world_health/tabs').set(bearer(admin))).body.result.tab_tree.map((n: { title: string }) => n.title)).toEqual(['Overview', 'Health']);
  });
});
