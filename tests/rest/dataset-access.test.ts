import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureTestExamples } from '../helpers/examples';
import { ensureExampleDatasets } from '../../server/src/dataset/example-datasets';
import { SEEDED_ROLES } from '../../server/src/security/permission-matrix';
import { SecurityRepository } from '../../server/src/security/security.repository';
import { startTestApp, type TestApp } from '../helpers/app';
import { bearer } from './sqllab.helpers';

/**
 * Superset's datasource access (database_access on the database, datasource_access on the dataset,
 * or ownership) decides alike which datasets and charts a user lists and which one it may read or query.
 */
describe('dataset and chart access: lists agree with reads', () => {
  let t: TestApp;
  let admin: string;
  /** Gamma plus datasource_access on birth_names only. */
  let analyst: string;
  let dir: string;
  const ids: Record<string, number> = {};
  const charts: Record<string, number> = {};

  const datasetId = async (name: string) =>
    (await t.http.get('/api/v1/dataset/').query({ q: `(filters:!((col:table_name,opr:eq,value:${name})))` }).set(bearer(admin))).body.ids[0] as number;
  const createChart = async (name: string, dataset: number, token = admin) => {
    const params = JSON.stringify({ viz_type: 'table', datasource: `${dataset}__table`, metrics: ['count'] });
    const res = await t.http.post('/api/v1/chart/').set(bearer(token)).send({ slice_name: name, viz_type: 'table', params, datasource_id: dataset, datasource_type: 'table' });
    if (res.status !== 201) throw new Error(res.text);
    return res.body.id as number;
  };
  const names = (body: any, key: string) => (body.result as any[]).map((r) => r[key]).sort();

  beforeAll(async () => {
    t = await startTestApp();
    admin = await t.token();
    dir = mkdtempSync(join(tmpdir(), 'meridian-access-'));
    await ensureTestExamples(t.services, { path: join(dir, 'examples.duckdb'), salesRows: 200 });
    await ensureExampleDatasets(t.services);
    for (const name of ['birth_names', 'wb_health_population', 'cleaned_sales_data']) ids[name] = await datasetId(name);
    charts.births = await createChart('Births', ids.birth_names);
    charts.births2 = await createChart('Births again', ids.birth_names);
    charts.world = await createChart('World', ids.wb_health_population);
    charts.sales = await createChart('Sales', ids.cleaned_sales_data);
    const birthNamesAccess = ['datasource_access', `[examples].[birth_names](id:${ids.birth_names})`] as const;
    await new SecurityRepository(t.services.db).seedRoles({
      BirthNamesOnly: [...SEEDED_ROLES.Gamma, birthNamesAccess],
      BirthNamesNoCsv: [...SEEDED_ROLES.Gamma.filter(([p]) => p !== 'can_csv'), birthNamesAccess],
    });
    analyst = await t.userWithRoles('births_analyst', ['BirthNamesOnly']);
  });
  afterAll(async () => {
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('datasource_access on one dataset: lists exactly that dataset and its charts, with the right count on every page', async () => {
    const datasets = await t.http.get('/api/v1/dataset/').set(bearer(analyst));
    expect(datasets.status).toBe(200);
    expect(datasets.body.count).toBe(1);
    expect(datasets.body.ids).toEqual([ids.birth_names]);
    const secondPage = await t.http.get('/api/v1/dataset/').query({ q: '(page:1,page_size:1)' }).set(bearer(analyst));
    expect(secondPage.body).toMatchObject({ count: 1, ids: [] });

    const chartList = await t.http.get('/api/v1/chart/').query({ q: '(order_column:slice_name,order_direction:asc,page_size:1)' }).set(bearer(analyst));
    expect(chartList.body.count).toBe(2);
    expect(names(chartList.body, 'slice_name')).toEqual(['Births']);
    const next = await t.http.get('/api/v1/chart/').query({ q: '(order_column:slice_name,order_direction:asc,page:1,page_size:1)' }).set(bearer(analyst));
    expect(names(next.body, 'slice_name')).toEqual(['Births again']);

    // What the list shows, a read gives; what it hides is as absent as a missing one.
    expect((await t.http.get(`/api/v1/dataset/${ids.birth_names}`).set(bearer(analyst))).status).toBe(200);
    expect((await t.http.get(`/api/v1/chart/${charts.births}`).set(bearer(analyst))).status).toBe(200);
    expect((await t.http.get(`/api/v1/dataset/${ids.wb_health_population}`).set(bearer(analyst))).status).toBe(404);
    expect((await t.http.get(`/api/v1/chart/${charts.world}`).set(bearer(analyst))).status).toBe(404);
    const query = await t.http.post('/api/v1/chart/data').set(bearer(analyst)).send({ datasource: { id: ids.birth_names, type: 'table' }, queries: [{ metrics: ['count'] }] });
    expect(query.status).toBe(200);
    expect(Number(query.body.result[0].data[0].count)).toBeGreaterThan(0);
  });

  it('a plain Gamma user sees no example dataset or chart; owning a dataset shows it and its charts', async () => {
    const gamma = await t.userWithRoles('plain_gamma', ['Gamma']);
    expect((await t.http.get('/api/v1/dataset/').set(bearer(gamma))).body).toMatchObject({ count: 0, ids: [] });
    expect((await t.http.get('/api/v1/chart/').set(bearer(gamma))).body).toMatchObject({ count: 0, ids: [] });

    const gammaId = (await t.http.get('/api/v1/me/').set(bearer(gamma))).body.result.id as number;
    const own = await t.http.put(`/api/v1/dataset/${ids.cleaned_sales_data}`).set(bearer(admin)).send({ owners: [1, gammaId] });
    expect(own.status).toBe(200);
    const datasets = await t.http.get('/api/v1/dataset/').set(bearer(gamma));
    expect(datasets.body).toMatchObject({ count: 1, ids: [ids.cleaned_sales_data] });
    const chartList = await t.http.get('/api/v1/chart/').set(bearer(gamma));
    expect(chartList.body.count).toBe(1);
    expect(names(chartList.body, 'slice_name')).toEqual(['Sales']);
    expect((await t.http.get(`/api/v1/chart/${charts.sales}`).set(bearer(gamma))).status).toBe(200);
    expect((await t.http.get(`/api/v1/chart/${charts.births}`).set(bearer(gamma))).status).toBe(404);
  });

  describe('refusals on a dataset the user may not read', () => {
    const wb = () => ids.wb_health_population;
    const refusedAsMissing = (res: { status: number; body: any }) => {
      expect(res.status).toBe(404);
      expect(res.body.result).toBeUndefined();
      expect(JSON.stringify(res.body)).not.toContain('wb_health_population');
    };

    it('chart data, legacy explore_json, samples and datasource metadata answer 404 without a row', async () => {
      const data = await t.http.post('/api/v1/chart/data').set(bearer(analyst)).send({ datasource: { id: wb(), type: 'table' }, queries: [{ metrics: ['count'] }] });
      refusedAsMissing(data);
      expect(data.body.errors[0]).toMatchObject({ error_type: 'DATASOURCE_SECURITY_ACCESS_ERROR', message: 'The dataset does not exist or you do not have access to it' });
      const legacy = await t.http.post('/superset/explore_json/').set(bearer(analyst)).send({ form_data: JSON.stringify({ datasource: `${wb()}__table`, viz_type: 'table', metrics: ['count'] }) });
      refusedAsMissing(legacy);
      const samples = await t.http.post('/datasource/samples').query({ datasource_type: 'table', datasource_id: wb(), per_page: 5, page: 1 }).set(bearer(analyst)).send({});
      refusedAsMissing(samples);
      refusedAsMissing(await t.http.get('/superset/fetch_datasource_metadata').query({ datasourceKey: `${wb()}__table` }).set(bearer(analyst)));
      // The same requests on birth_names answer, so the refusals above are about access.
      const allowed = await t.http.post('/datasource/samples').query({ datasource_type: 'table', datasource_id: ids.birth_names, per_page: 5, page: 1 }).set(bearer(analyst)).send({});
      expect(allowed.status).toBe(200);
      expect(allowed.body.result.rowcount).toBe(5);
      expect((await t.http.get('/superset/fetch_datasource_metadata').query({ datasourceKey: `${ids.birth_names}__table` }).set(bearer(analyst))).status).toBe(200);
    });

    it('explore bootstrap gives no dataset, and a chart on it is 404', async () => {
      const boot = await t.http.get('/api/v1/explore/').query({ datasource_id: wb(), datasource_type: 'table' }).set(bearer(analyst));
      expect(boot.status).toBe(200);
      expect(boot.body.result.dataset).toBeNull();
      expect(boot.body.result.message).toBe('Dataset does not exist');
      expect(JSON.stringify(boot.body)).not.toContain('wb_health_population');
      expect((await t.http.get('/api/v1/explore/').query({ slice_id: charts.world }).set(bearer(analyst))).status).toBe(404);
      const mine = await t.http.get('/api/v1/explore/').query({ slice_id: charts.births }).set(bearer(analyst));
      expect(mine.body.result.dataset.table_name).toBe('birth_names');
    });

    it('explore permalinks and form data on the dataset are refused, created or read', async () => {
      const formData = { datasource: `${wb()}__table`, viz_type: 'table', metrics: ['count'] };
      refusedAsMissing(await t.http.post('/api/v1/explore/permalink').set(bearer(analyst)).send({ formData }));
      const link = await t.http.post('/api/v1/explore/permalink').set(bearer(admin)).send({ formData });
      expect(link.status).toBe(201);
      expect((await t.http.get(`/api/v1/explore/permalink/${link.body.key}`).set(bearer(admin))).status).toBe(200);
      refusedAsMissing(await t.http.get(`/api/v1/explore/permalink/${link.body.key}`).set(bearer(analyst)));
      refusedAsMissing(await t.http.get('/api/v1/explore/').query({ permalink_key: link.body.key }).set(bearer(analyst)));

      const body = (datasource: number, viz: string) => ({ datasource_id: datasource, datasource_type: 'table', form_data: JSON.stringify({ ...formData, datasource: `${datasource}__table`, viz_type: viz }) });
      refusedAsMissing(await t.http.post('/api/v1/explore/form_data').set(bearer(analyst)).send(body(wb(), 'table')));
      const adminKey = (await t.http.post('/api/v1/explore/form_data').set(bearer(admin)).send(body(wb(), 'table'))).body.key;
      refusedAsMissing(await t.http.get(`/api/v1/explore/form_data/${adminKey}`).set(bearer(analyst)));
      const ownKey = await t.http.post('/api/v1/explore/form_data').set(bearer(analyst)).send(body(ids.birth_names, 'table'));
      expect(ownKey.status).toBe(201);
      refusedAsMissing(await t.http.put(`/api/v1/explore/form_data/${ownKey.body.key}`).set(bearer(analyst)).send(body(wb(), 'pie')));
      const kept = await t.http.get(`/api/v1/explore/form_data/${ownKey.body.key}`).set(bearer(analyst));
      expect(JSON.parse(kept.body.form_data)).toMatchObject({ datasource: `${ids.birth_names}__table`, viz_type: 'table' });
    });

    it('csv export needs can_csv; json does not', async () => {
      const noCsv = await t.userWithRoles('births_no_csv', ['BirthNamesNoCsv']);
      const request = { datasource: { id: ids.birth_names, type: 'table' }, queries: [{ columns: ['gender'], metrics: ['count'], orderby: [['gender', true]] }] };
      const refused = await t.http.post('/api/v1/chart/data').set(bearer(noCsv)).send({ ...request, result_format: 'csv' });
      expect(refused.status).toBe(403);
      expect(refused.headers['content-type']).not.toContain('text/csv');
      expect((await t.http.post('/api/v1/chart/data').set(bearer(noCsv)).send({ ...request, result_format: 'xlsx' })).status).toBe(403);
      expect((await t.http.post('/superset/explore_json/').query({ csv: 'true' }).set(bearer(noCsv)).send({ form_data: JSON.stringify({ datasource: `${ids.birth_names}__table`, viz_type: 'table', metrics: ['count'] }) })).status).toBe(403);
      expect((await t.http.post('/api/v1/chart/data').set(bearer(noCsv)).send(request)).status).toBe(200);
      const csv = await t.http.post('/api/v1/chart/data').set(bearer(analyst)).send({ ...request, result_format: 'csv' });
      expect(csv.status).toBe(200);
      expect(csv.text.split('\n')[0].trim()).toBe('gender,count');
    });

    it('deletes by a non-owner are refused; a bulk delete is all or nothing', async () => {
      const mine = await createChart('Mine', ids.birth_names, analyst);
      const refused = await t.http.delete(`/api/v1/chart/${charts.births}`).set(bearer(analyst));
      expect(refused.status).toBe(403);
      expect(refused.body.message).toBe('Changing this chart is forbidden');
      expect((await t.http.delete(`/api/v1/chart/${charts.world}`).set(bearer(analyst))).status).toBe(404);
      const bulk = await t.http.delete('/api/v1/chart/').query({ q: `!(${mine},${charts.births})` }).set(bearer(analyst));
      expect(bulk.status).toBe(403);
      expect((await t.http.get(`/api/v1/chart/${mine}`).set(bearer(analyst))).status).toBe(200);
      expect((await t.http.get(`/api/v1/chart/${charts.births}`).set(bearer(admin))).status).toBe(200);
      expect((await t.http.delete('/api/v1/chart/').query({ q: `!(${mine})` }).set(bearer(analyst))).body.message).toBe('Deleted 1 chart');
      expect((await t.http.get(`/api/v1/chart/${mine}`).set(bearer(analyst))).status).toBe(404);

      // Alpha may write datasets and read them all, but deletes only those it owns.
      const alpha = await t.userWithRoles('alpha_owner', ['Alpha']);
      const alphaId = (await t.http.get('/api/v1/me/').set(bearer(alpha))).body.result.id as number;
      expect((await t.http.put(`/api/v1/dataset/${wb()}`).set(bearer(admin)).send({ owners: [1, alphaId] })).status).toBe(200);
      const one = await t.http.delete(`/api/v1/dataset/${ids.birth_names}`).set(bearer(alpha));
      expect(one.status).toBe(403);
      expect(one.body.message).toBe('Changing this Dataset is forbidden');
      expect((await t.http.delete('/api/v1/dataset/').query({ q: `!(${wb()},${ids.birth_names})` }).set(bearer(alpha))).status).toBe(403);
      expect((await t.http.get(`/api/v1/dataset/${wb()}`).set(bearer(admin))).status).toBe(200);
      expect((await t.http.get(`/api/v1/dataset/${ids.birth_names}`).set(bearer(admin))).status).toBe(200);
      expect((await t.http.delete('/api/v1/dataset/').query({ q: `!(${wb()})` }).set(bearer(alpha))).status).toBe(200);
      expect((await t.http.get(`/api/v1/dataset/${wb()}`).set(bearer(admin))).status).toBe(404);
    });
  });
});
