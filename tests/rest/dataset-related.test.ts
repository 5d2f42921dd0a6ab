import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app';
import { bearer, clientId, registerDatabase } from './sqllab.helpers';

// Dashboards have no REST door yet: they and their chart links are written straight into the metadata store.
describe('GET /api/v1/dataset/{pk}/related_objects', () => {
  let t: TestApp;
  let admin: string;
  let dir: string;
  const ids = { orders: 0, visits: 0, unused: 0 };
  const charts: Record<string, number> = {};
  const dashboards: Record<string, number> = {};

  const chart = async (slice_name: string, viz_type: string, datasetId: number) => {
    const res = await t.http.post('/api/v1/chart/').set(bearer(admin)).send({ slice_name, viz_type, params: '{}', datasource_id: datasetId, datasource_type: 'table' });
    expect(res.status, res.text).toBe(201);
    return res.body.id as number;
  };
  const dashboard = async (title: string, slug: string | null, sliceIds: number[]) => {
    const db = t.services.db;
    const row = await db.insertInto('dashboards').values({ dashboard_title: title, slug, json_metadata: JSON.stringify({ color_scheme: 'supersetColors', title }) }).returning('id').executeTakeFirstOrThrow();
    for (const slice_id of sliceIds) await db.insertInto('dashboard_slices').values({ dashboard_id: row.id, slice_id }).execute();
    return row.id;
  };
  const related = (id: number, token = admin) => t.http.get(`/api/v1/dataset/${id}/related_objects`).set(bearer(token));

  beforeAll(async () => {
    t = await startTestApp();
    admin = await t.token();
    dir = mkdtempSync(join(tmpdir(), 'meridian-rel-'));
    const duck = await registerDatabase(t, admin, { database_name: 'duck', sqlalchemy_uri: `duckdb:///${join(dir, 'r.duckdb')}`, allow_dml: true });
    const res = await t.http.post('/api/v1/sqllab/execute/').set(bearer(admin)).send({ database_id: duck, client_id: clientId(), sql: 'CREATE TABLE orders (n INTEGER); CREATE TABLE visits (n INTEGER); CREATE TABLE unused (n INTEGER)' });
    expect(res.status, res.text).toBe(200);
    for (const name of ['orders', 'visits', 'unused'] as const) {
      const ds = await t.http.post('/api/v1/dataset/').set(bearer(admin)).send({ database: duck, schema: 'main', table_name: name });
      expect(ds.status, ds.text).toBe(201);
      ids[name] = ds.body.id;
    }
    charts.ordersTable = await chart('Orders table', 'table', ids.orders);
    charts.ordersPie = await chart('Orders pie', 'pie', ids.orders);
    charts.visitsLine = await chart('Visits line', 'echarts_timeseries_line', ids.visits);
    dashboards.sales = await dashboard('Sales', 'sales', [charts.ordersTable, charts.ordersPie]);
    dashboards.traffic = await dashboard('Traffic', null, [charts.visitsLine]);
    dashboards.overview = await dashboard('Overview', 'overview', [charts.ordersPie, charts.visitsLine]);
    dashboards.empty = await dashboard('Empty', 'empty', []);
  });
  afterAll(async () => {
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("lists the dataset's charts and each dashboard holding one of them once, in Superset's shape", async () => {
    const res = await related(ids.orders);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      charts: { count: 2, result: [{ id: charts.ordersTable, slice_name: 'Orders table', viz_type: 'table' }, { id: charts.ordersPie, slice_name: 'Orders pie', viz_type: 'pie' }] },
      dashboards: {
        count: 2,
        result: [
          { id: dashboards.sales, json_metadata: { color_scheme: 'supersetColors', title: 'Sales' }, slug: 'sales', title: 'Sales' },
          { id: dashboards.overview, json_metadata: { color_scheme: 'supersetColors', title: 'Overview' }, slug: 'overview', title: 'Overview' },
        ],
      },
    });
  });

  it("another dataset's dashboards: a dashboard without slug answers slug null", async () => {
    const res = await related(ids.visits);
    expect(res.body.charts).toEqual({ count: 1, result: [{ id: charts.visitsLine, slice_name: 'Visits line', viz_type: 'echarts_timeseries_line' }] });
    expect(res.body.dashboards.result.map((d: any) => [d.title, d.slug])).toEqual([['Traffic', null], ['Overview', 'overview']]);
    expect(res.body.dashboards.count).toBe(2);
  });

  it('a dataset without charts has no dashboards; removing a link drops the dashboard', async () => {
    expect((await related(ids.unused)).body).toEqual({ charts: { count: 0, result: [] }, dashboards: { count: 0, result: [] } });
    await t.services.db.deleteFrom('dashboard_slices').where('dashboard_id', '=', dashboards.overview).where('slice_id', '=', charts.ordersPie).execute();
    expect((await related(ids.orders)).body.dashboards.result.map((d: any) => d.title)).toEqual(['Sales']);
  });

  it('a user who may not read the dataset gets 404 and no names', async () => {
    const gamma = await t.userWithRoles('gamma_rel', ['Gamma']);
    const res = await related(ids.orders, gamma);
    expect(res.status).toBe(404);
    expect(res.text).not.toContain('Sales');
  });
});
