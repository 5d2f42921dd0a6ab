import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateBirthNames } from '../../query-worker/src/examples/birthNames';
import { generateWorldBank } from '../../query-worker/src/examples/worldBank';
import { ensureTestExamples } from '../helpers/examples';
import { ensureExampleDatasets } from '../../server/src/dataset/example-datasets';
import { SEEDED_ROLES } from '../../server/src/security/permission-matrix';
import { SecurityRepository } from '../../server/src/security/security.repository';
import { startTestApp, type MetadataKind, type TestApp } from '../helpers/app';
import { bearer, waitFor } from './sqllab.helpers';

const LAYERS = '/api/v1/annotation_layer/';

// Expectations come from the examples generator itself, summed here in plain JS (not through SQL).
const BIRTHS = generateBirthNames().rows;
const yearOf = (ds: unknown) => new Date(Number(ds)).getUTCFullYear();
const births = (year: number, gender?: 'boy' | 'girl') =>
  BIRTHS.filter((r) => yearOf(r[0]) === year && (!gender || r[1] === gender)).reduce((sum, r) => sum + Number(r[3]), 0);
const jan1 = (year: number) => Date.UTC(year, 0, 1);
/** Monday of the week holding 1 January (the P1W bucket of that year's rows). */
const weekOfJan1 = (year: number) => jan1(year) - ((new Date(jan1(year)).getUTCDay() + 6) % 7) * 86_400_000;

describe('annotation layers: /api/v1/annotation_layer/ and chart data annotation_data', () => {
  let t: TestApp;
  let admin: string;
  let dir: string;
  let birthNames: number;
  let worldBank: number;

  const createLayer = async (name: string, descr: string | null = null) => {
    const res = await t.http.post(LAYERS).set(bearer(admin)).send({ name, descr });
    if (res.status !== 201) throw new Error(`${res.status} ${res.text}`);
    return res.body.id as number;
  };
  const createAnnotation = async (layerId: number, body: Record<string, unknown>) => {
    const res = await t.http.post(`${LAYERS}${layerId}/annotation/`).set(bearer(admin)).send(body);
    if (res.status !== 201) throw new Error(`${res.status} ${res.text}`);
    return res.body.id as number;
  };
  const createChart = async (body: Record<string, unknown>) => {
    const res = await t.http.post('/api/v1/chart/').set(bearer(admin)).send({ datasource_type: 'table', dashboards: [], owners: [], ...body });
    if (res.status !== 201) throw new Error(`${res.status} ${res.text}`);
    return res.body.id as number;
  };
  const layerRows = (layerId: number) => t.services.db.selectFrom('annotation').selectAll().where('layer_id', '=', layerId).orderBy('id').execute();

  beforeAll(async () => {
    t = await startTestApp();
    admin = await t.token();
    dir = mkdtempSync(join(tmpdir(), 'meridian-annotations-'));
    await ensureTestExamples(t.services, { path: join(dir, 'examples.duckdb'), salesRows: 2000 });
    await ensureExampleDatasets(t.services);
    const id = async (table: string) => (await t.http.get('/api/v1/dataset/').query({ q: `(filters:!((col:table_name,opr:eq,value:${table})))` }).set(bearer(admin))).body.ids[0] as number;
    birthNames = await id('birth_names');
    worldBank = await id('wb_health_population');
  });
  afterAll(async () => {
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  describe('layers and annotations', () => {
    it('creates, reads, updates and deletes a layer in Superset shapes', async () => {
      const created = await t.http.post(LAYERS).set(bearer(admin)).send({ name: 'Releases', descr: 'Product releases' });
      expect(created.status).toBe(201);
      expect(created.body).toEqual({ id: expect.any(Number), result: { name: 'Releases', descr: 'Product releases' } });
      const id = created.body.id;

      const got = await t.http.get(`${LAYERS}${id}`).set(bearer(admin));
      expect(got.status).toBe(200);
      expect(got.body.result).toEqual({ id, name: 'Releases', descr: 'Product releases' });
      expect(got.body).toMatchObject({ id, show_title: 'Show Annotation Layer', show_columns: ['id', 'name', 'descr'] });

      const updated = await t.http.put(`${LAYERS}${id}`).set(bearer(admin)).send({ descr: 'Shipped versions' });
      expect(updated.body).toEqual({ id, result: { name: 'Releases', descr: 'Shipped versions' } });
      // Renaming a layer to its own name is not a duplicate.
      expect((await t.http.put(`${LAYERS}${id}`).set(bearer(admin)).send({ name: 'Releases' })).status).toBe(200);

      const list = await t.http.get(LAYERS).query({ q: '(filters:!((col:name,opr:eq,value:Releases)))' }).set(bearer(admin));
      expect(list.body).toMatchObject({ count: 1, ids: [id] });
      expect(list.body.result[0]).toMatchObject({ id, name: 'Releases', descr: 'Shipped versions', created_by: { id: 1, first_name: expect.any(String) }, changed_by: { id: 1 } });
      expect(list.body.result[0].changed_on_delta_humanized).toEqual(expect.any(String));

      expect((await t.http.delete(`${LAYERS}${id}`).set(bearer(admin))).body).toEqual({ message: 'OK' });
      expect((await t.http.get(`${LAYERS}${id}`).set(bearer(admin))).status).toBe(404);
      expect((await t.http.delete(`${LAYERS}${id}`).set(bearer(admin))).status).toBe(404);
    });

    it('lists with rison filters, order and paging', async () => {
      for (const name of ['List b layer', 'List a layer', 'List c other']) await createLayer(name);
      const page = await t.http.get(LAYERS).query({ q: '(filters:!((col:name,opr:ct,value:layer)),order_column:name,order_direction:desc,page:0,page_size:1)' }).set(bearer(admin));
      expect(page.status).toBe(200);
      expect(page.body.count).toBe(2);
      expect(page.body.result.map((r: any) => r.name)).toEqual(['List b layer']);
      const second = await t.http.get(LAYERS).query({ q: '(filters:!((col:name,opr:ct,value:layer)),order_column:name,order_direction:desc,page:1,page_size:1)' }).set(bearer(admin));
      expect(second.body.result.map((r: any) => r.name)).toEqual(['List a layer']);
      const sw = await t.http.get(LAYERS).query({ q: '(filters:!((col:name,opr:sw,value:List)),order_column:name)' }).set(bearer(admin));
      expect(sw.body.result.map((r: any) => r.name)).toEqual(['List a layer', 'List b layer', 'List c other']);
      expect((await t.http.get(LAYERS).query({ q: '(filters:!((col:secret,opr:eq,value:1)))' }).set(bearer(admin))).status).toBe(400);
      expect((await t.http.get(LAYERS).query({ q: '(filters:!(' }).set(bearer(admin))).status).toBe(400);
    });

    it('refuses a missing name (400 field map) and a duplicate one (422 "Name must be unique")', async () => {
      const missing = await t.http.post(LAYERS).set(bearer(admin)).send({ descr: 'no name' });
      expect(missing.status).toBe(400);
      expect(missing.body.message).toEqual({ name: ['Missing data for required field.'] });
      expect((await t.http.post(LAYERS).set(bearer(admin)).send({ name: '   ' })).status).toBe(400);

      const first = await createLayer('Unique name');
      const dup = await t.http.post(LAYERS).set(bearer(admin)).send({ name: 'Unique name' });
      expect(dup.status).toBe(422);
      expect(dup.body).toEqual({ message: { name: ['Name must be unique'] } });

      const other = await createLayer('Another name');
      const rename = await t.http.put(`${LAYERS}${other}`).set(bearer(admin)).send({ name: 'Unique name' });
      expect(rename.status).toBe(422);
      expect(rename.body).toEqual({ message: { name: ['Name must be unique'] } });
      expect((await t.http.get(`${LAYERS}${other}`).set(bearer(admin))).body.result.name).toBe('Another name');
      const named = await t.services.db.selectFrom('annotation_layer').select('id').where('name', '=', 'Unique name').execute();
      expect(named.map((r) => r.id)).toEqual([first]);
    });

    it('creates, reads, lists, updates and deletes annotations; times are UTC, written naive as Superset writes them', async () => {
      const layer = await createLayer('Annotation CRUD');
      const created = await t.http.post(`${LAYERS}${layer}/annotation/`).set(bearer(admin)).send({
        short_descr: 'Launch', long_descr: 'Version 1', start_dttm: '2024-03-01T10:00:00', end_dttm: '2024-03-02T10:00:00+02:00', json_metadata: '{"color":"red"}',
      });
      expect(created.status).toBe(201);
      const id = created.body.id;
      // No offset means UTC; +02:00 is converted.
      expect(created.body.result).toEqual({ short_descr: 'Launch', long_descr: 'Version 1', start_dttm: '2024-03-01T10:00:00', end_dttm: '2024-03-02T08:00:00', json_metadata: '{"color":"red"}' });

      const got = await t.http.get(`${LAYERS}${layer}/annotation/${id}`).set(bearer(admin));
      expect(got.body).toEqual({ id, result: { id, layer: { id: layer, name: 'Annotation CRUD' }, short_descr: 'Launch', long_descr: 'Version 1', start_dttm: '2024-03-01T10:00:00', end_dttm: '2024-03-02T08:00:00', json_metadata: '{"color":"red"}' } });

      const second = await createAnnotation(layer, { short_descr: 'Outage', start_dttm: '2024-01-05', end_dttm: '2024-01-05' });
      const list = await t.http.get(`${LAYERS}${layer}/annotation/`).set(bearer(admin));
      expect(list.body).toMatchObject({ count: 2, ids: [second, id] });
      const filtered = await t.http.get(`${LAYERS}${layer}/annotation/`).query({ q: '(filters:!((col:short_descr,opr:ct,value:unc)),order_column:start_dttm,order_direction:desc)' }).set(bearer(admin));
      expect(filtered.body.result.map((r: any) => r.short_descr)).toEqual(['Launch']);

      const updated = await t.http.put(`${LAYERS}${layer}/annotation/${id}`).set(bearer(admin)).send({ short_descr: 'Launch day', end_dttm: '2024-03-01T10:00:00Z' });
      expect(updated.status).toBe(200);
      expect(updated.body.result).toMatchObject({ short_descr: 'Launch day', start_dttm: '2024-03-01T10:00:00', end_dttm: '2024-03-01T10:00:00', long_descr: 'Version 1' });

      expect((await t.http.delete(`${LAYERS}${layer}/annotation/${id}`).set(bearer(admin))).body).toEqual({ message: 'OK' });
      expect((await layerRows(layer)).map((r) => r.id)).toEqual([second]);
    });

    it('validates annotations: required fields (400), end before start (422), JSON and datetimes (400), wrong layer (404)', async () => {
      const layer = await createLayer('Annotation validation');
      const url = `${LAYERS}${layer}/annotation/`;
      const empty = await t.http.post(url).set(bearer(admin)).send({});
      expect(empty.status).toBe(400);
      expect(empty.body.message).toEqual({ short_descr: ['Missing data for required field.'], start_dttm: ['Missing data for required field.'], end_dttm: ['Missing data for required field.'] });

      const backwards = await t.http.post(url).set(bearer(admin)).send({ short_descr: 'x', start_dttm: '2024-02-01', end_dttm: '2024-01-31' });
      expect(backwards.status).toBe(422);
      expect(backwards.body).toEqual({ message: { start_dttm: ['End date must be after start date'] } });

      const badJson = await t.http.post(url).set(bearer(admin)).send({ short_descr: 'x', start_dttm: '2024-01-01', end_dttm: '2024-01-02', json_metadata: '{nope' });
      expect(badJson.status).toBe(400);
      expect(badJson.body.message).toEqual({ json_metadata: ['JSON not valid'] });

      const badDate = await t.http.post(url).set(bearer(admin)).send({ short_descr: 'x', start_dttm: 'yesterday', end_dttm: '2024-01-02' });
      expect(badDate.status).toBe(400);
      expect(badDate.body.message).toEqual({ start_dttm: ['Not a valid datetime.'] });
      expect(await layerRows(layer)).toEqual([]);

      const id = await createAnnotation(layer, { short_descr: 'Window', start_dttm: '2024-01-10', end_dttm: '2024-01-20' });
      const dup = await t.http.post(url).set(bearer(admin)).send({ short_descr: 'Window', start_dttm: '2024-01-10', end_dttm: '2024-01-20' });
      expect(dup.status).toBe(422);
      expect(dup.body).toEqual({ message: { short_descr: ['Short description must be unique for this layer'] } });
      // The stored end is compared with a new start: moving only the start past it is refused.
      const moved = await t.http.put(`${url}${id}`).set(bearer(admin)).send({ start_dttm: '2024-01-21' });
      expect(moved.status).toBe(422);
      expect(moved.body).toEqual({ message: { start_dttm: ['End date must be after start date'] } });
      expect((await layerRows(layer))[0].start_dttm).toEqual(new Date('2024-01-10T00:00:00Z'));

      const otherLayer = await createLayer('Annotation validation (other)');
      expect((await t.http.get(`${LAYERS}${otherLayer}/annotation/${id}`).set(bearer(admin))).status).toBe(404);
      expect((await t.http.put(`${LAYERS}${otherLayer}/annotation/${id}`).set(bearer(admin)).send({ short_descr: 'stolen' })).status).toBe(404);
      expect((await t.http.delete(`${LAYERS}${otherLayer}/annotation/${id}`).set(bearer(admin))).status).toBe(404);
      expect((await t.http.post(`${LAYERS}999999/annotation/`).set(bearer(admin)).send({ short_descr: 'x', start_dttm: '2024-01-01', end_dttm: '2024-01-02' })).status).toBe(404);
      expect((await t.http.get(`${LAYERS}999999/annotation/`).set(bearer(admin))).status).toBe(404);
      expect((await layerRows(layer)).map((r) => r.short_descr)).toEqual(['Window']);
    });

    it('bulk deletes layers and annotations; a missing id deletes nothing (404)', async () => {
      const a = await createLayer('Bulk A');
      const b = await createLayer('Bulk B');
      const missing = await t.http.delete(LAYERS).query({ q: `!(${a},${b},999999)` }).set(bearer(admin));
      expect(missing.status).toBe(404);
      expect((await t.http.get(`${LAYERS}${a}`).set(bearer(admin))).status).toBe(200);
      const both = await t.http.delete(LAYERS).query({ q: `!(${a},${b})` }).set(bearer(admin));
      expect(both.body).toEqual({ message: 'Deleted 2 annotation layers' });
      expect(await t.services.db.selectFrom('annotation_layer').select('id').where('id', 'in', [a, b]).execute()).toEqual([]);

      const layer = await createLayer('Bulk annotations');
      const ids = [];
      for (const n of [1, 2, 3]) ids.push(await createAnnotation(layer, { short_descr: `n${n}`, start_dttm: `2024-01-0${n}`, end_dttm: `2024-01-0${n}` }));
      const foreign = await createAnnotation(await createLayer('Bulk foreign'), { short_descr: 'f', start_dttm: '2024-01-01', end_dttm: '2024-01-01' });
      expect((await t.http.delete(`${LAYERS}${layer}/annotation/`).query({ q: `!(${ids[0]},${foreign})` }).set(bearer(admin))).status).toBe(404);
      expect((await layerRows(layer)).length).toBe(3);
      const two = await t.http.delete(`${LAYERS}${layer}/annotation/`).query({ q: `!(${ids[0]},${ids[1]})` }).set(bearer(admin));
      expect(two.body).toEqual({ message: 'Deleted 2 annotations' });
      const one = await t.http.delete(`${LAYERS}${layer}/annotation/`).query({ q: `!(${ids[2]})` }).set(bearer(admin));
      expect(one.body).toEqual({ message: 'Deleted 1 annotation' });
      expect(await layerRows(layer)).toEqual([]);
    });

    it('deleting a layer deletes its annotations (cascade) and leaves other layers alone', async () => {
      const doomed = await createLayer('Cascade doomed');
      const kept = await createLayer('Cascade kept');
      await createAnnotation(doomed, { short_descr: 'a', start_dttm: '2024-01-01', end_dttm: '2024-01-02' });
      await createAnnotation(doomed, { short_descr: 'b', start_dttm: '2024-01-03', end_dttm: '2024-01-04' });
      const keptAnnotation = await createAnnotation(kept, { short_descr: 'a', start_dttm: '2024-01-01', end_dttm: '2024-01-02' });
      expect((await t.http.delete(`${LAYERS}${doomed}`).set(bearer(admin))).status).toBe(200);
      expect(await layerRows(doomed)).toEqual([]);
      expect((await t.http.get(`${LAYERS}${doomed}/annotation/`).set(bearer(admin))).status).toBe(404);
      expect((await layerRows(kept)).map((r) => r.id)).toEqual([keptAnnotation]);
    });

    it('Gamma reads but may not write (403, nothing changes); Alpha writes; a role without Annotation reads nothing', async () => {
      const layer = await createLayer('Permissions', 'original');
      const annotation = await createAnnotation(layer, { short_descr: 'p', start_dttm: '2024-01-01', end_dttm: '2024-01-02' });
      const gamma = await t.userWithRoles('annotation_gamma', ['Gamma']);
      expect((await t.http.get(LAYERS).set(bearer(gamma))).status).toBe(200);
      expect((await t.http.get(`${LAYERS}${layer}/annotation/${annotation}`).set(bearer(gamma))).status).toBe(200);

      const before = { layers: await t.services.db.selectFrom('annotation_layer').selectAll().orderBy('id').execute(), annotations: await t.services.db.selectFrom('annotation').selectAll().orderBy('id').execute() };
      const attempts = [
        t.http.post(LAYERS).set(bearer(gamma)).send({ name: 'Gamma layer' }),
        t.http.put(`${LAYERS}${layer}`).set(bearer(gamma)).send({ descr: 'changed' }),
        t.http.delete(`${LAYERS}${layer}`).set(bearer(gamma)),
        t.http.delete(LAYERS).query({ q: `!(${layer})` }).set(bearer(gamma)),
        t.http.post(`${LAYERS}${layer}/annotation/`).set(bearer(gamma)).send({ short_descr: 'g', start_dttm: '2024-01-01', end_dttm: '2024-01-02' }),
        t.http.put(`${LAYERS}${layer}/annotation/${annotation}`).set(bearer(gamma)).send({ short_descr: 'g' }),
        t.http.delete(`${LAYERS}${layer}/annotation/${annotation}`).set(bearer(gamma)),
        t.http.delete(`${LAYERS}${layer}/annotation/`).query({ q: `!(${annotation})` }).set(bearer(gamma)),
      ];
      for (const res of await Promise.all(attempts)) {
        expect(res.status).toBe(403);
        expect(res.body).toEqual({ message: 'Forbidden' });
      }
      const after = { layers: await t.services.db.selectFrom('annotation_layer').selectAll().orderBy('id').execute(), annotations: await t.services.db.selectFrom('annotation').selectAll().orderBy('id').execute() };
      expect(after).toEqual(before);

      const alpha = await t.userWithRoles('annotation_alpha', ['Alpha']);
      const byAlpha = await t.http.post(LAYERS).set(bearer(alpha)).send({ name: 'Alpha layer' });
      expect(byAlpha.status).toBe(201);
      expect((await t.http.post(`${LAYERS}${byAlpha.body.id}/annotation/`).set(bearer(alpha)).send({ short_descr: 'a', start_dttm: '2024-01-01', end_dttm: '2024-01-02' })).status).toBe(201);

      const sqlLab = await t.userWithRoles('annotation_sqllab', ['sql_lab']);
      expect((await t.http.get(LAYERS).set(bearer(sqlLab))).status).toBe(403);
      expect((await t.http.get(LAYERS)).status).toBe(401);
    });

    it('the tRPC router reaches the same service', async () => {
      const { appRouter } = await import('../../server/src/trpc/app-router');
      const caller = appRouter.createCaller({ actor: await t.services.security.actorFor(1), services: t.services });
      const layer = await caller.annotationLayer.create({ name: 'Via tRPC', descr: null });
      expect(await caller.annotationLayer.get({ id: layer.id })).toEqual({ id: layer.id, name: 'Via tRPC', descr: null });
      await caller.annotationLayer.update({ id: layer.id, changes: { descr: 'set' } });
      const note = await caller.annotationLayer.annotations.create({ layerId: layer.id, annotation: { short_descr: 'n', start_dttm: '2024-05-01', end_dttm: '2024-05-02' } });
      expect((await caller.annotationLayer.annotations.list({ layerId: layer.id, query: { filters: [], order_direction: 'asc', page: 0, page_size: 25 } })).ids).toEqual([note.id]);
      const listed = await caller.annotationLayer.list({ filters: [{ col: 'name', opr: 'eq', value: 'Via tRPC' }], order_direction: 'asc', page: 0, page_size: 25 });
      expect(listed.result.map((r) => r.descr)).toEqual(['set']);
      await expect(caller.annotationLayer.create({ name: 'Via tRPC' })).rejects.toMatchObject({ code: 'UNPROCESSABLE_CONTENT' });
      expect(await caller.annotationLayer.delete({ ids: [layer.id] })).toBe(1);
      expect(await layerRows(layer.id)).toEqual([]);
    });
  });

  describe('chart data annotation_data', () => {
    let nativeLayer: number;
    let girlsChart: number;
    let legacyChart: number;
    let worldBankChart: number;
    const AXIS = (grain: string) => ({ label: 'ds', sqlExpression: 'ds', columnType: 'BASE_AXIS', timeGrain: grain });
    const ORDER_BY_DS = [[{ label: 'ds', sqlExpression: 'ds' }, true]];

    /** The annotated query: all births per week (P1W) of 2000–2002. */
    const annotated = (layers: unknown[], extra: Record<string, unknown> = {}) => ({
      columns: [AXIS('P1W')],
      metrics: ['sum__num'],
      filters: [{ col: 'ds', op: 'TEMPORAL_RANGE', val: '2000-01-01 : 2003-01-01' }],
      orderby: ORDER_BY_DS,
      row_limit: 100,
      annotation_layers: layers,
      ...extra,
    });
    const chartData = (token: string, query: Record<string, unknown>, force = true) =>
      t.http.post('/api/v1/chart/data').set(bearer(token)).send({ datasource: { id: birthNames, type: 'table' }, queries: [query], result_type: 'full', result_format: 'json', force });
    const rows = (records: any[], time: string, metric = 'sum__num') => records.map((r) => [r[time], Number(r[metric])]);

    beforeAll(async () => {
      nativeLayer = await createLayer('Chart data releases');
      await createAnnotation(nativeLayer, { short_descr: 'Sprint', long_descr: null, start_dttm: '2001-01-01', end_dttm: '2001-01-15T12:00:00Z' });
      await createAnnotation(nativeLayer, { short_descr: 'v1', long_descr: 'First release', start_dttm: '2000-03-01T00:00:00', end_dttm: '2000-03-01T00:00:00', json_metadata: '{"color":"red"}' });

      // Girls per year, 1990–1992, with a saved query context (as explore saves it).
      const girlsQuery = { columns: [AXIS('P1Y')], metrics: ['sum__num'], filters: [{ col: 'gender', op: '==', val: 'girl' }, { col: 'ds', op: 'TEMPORAL_RANGE', val: '1990-01-01 : 1993-01-01' }], orderby: ORDER_BY_DS, row_limit: 1000 };
      girlsChart = await createChart({
        slice_name: 'Girls per year', viz_type: 'echarts_timeseries_line', datasource_id: birthNames,
        params: JSON.stringify({ viz_type: 'echarts_timeseries_line', datasource: `${birthNames}__table` }),
        query_context: JSON.stringify({ datasource: { id: birthNames, type: 'table' }, queries: [girlsQuery], result_format: 'json', result_type: 'full' }),
      });
      // Boys per year 1980–1981 as a legacy line chart: form data only, no saved query context.
      legacyChart = await createChart({
        slice_name: 'Boys (legacy)', viz_type: 'line', datasource_id: birthNames,
        params: JSON.stringify({ viz_type: 'line', datasource: `${birthNames}__table`, granularity_sqla: 'ds', time_grain_sqla: 'P1Y', time_range: '1980-01-01 : 1982-01-01', metrics: ['sum__num_boys'], adhoc_filters: [] }),
      });
      worldBankChart = await createChart({
        slice_name: 'World population', viz_type: 'table', datasource_id: worldBank,
        query_context: JSON.stringify({ datasource: { id: worldBank, type: 'table' }, queries: [{ metrics: ['count'] }] }),
      });
    });

    it('NATIVE layers answer their annotations with epoch ms; FORMULA and hidden layers are skipped', async () => {
      const res = await chartData(admin, annotated([
        { name: 'Releases', annotationType: 'EVENT', sourceType: 'NATIVE', value: nativeLayer, show: true, overrides: {} },
        { name: 'Doubled', annotationType: 'FORMULA', sourceType: '', value: 'x*2', show: true },
        { name: 'Hidden', annotationType: 'EVENT', sourceType: 'NATIVE', value: nativeLayer, show: false },
      ]));
      expect(res.status).toBe(200);
      const result = res.body.result[0];
      // The annotated query itself is unchanged: each year's rows land in the week holding 1 January.
      expect(rows(result.data, 'ds')).toEqual([2000, 2001, 2002].map((y) => [weekOfJan1(y), births(y)]));
      expect(Object.keys(result.annotation_data)).toEqual(['Releases']);
      expect(result.annotation_data.Releases).toEqual({
        columns: ['start_dttm', 'end_dttm', 'short_descr', 'long_descr', 'json_metadata'],
        records: [
          { start_dttm: Date.UTC(2000, 2, 1), end_dttm: Date.UTC(2000, 2, 1), short_descr: 'v1', long_descr: 'First release', json_metadata: '{"color":"red"}' },
          { start_dttm: Date.UTC(2001, 0, 1), end_dttm: Date.UTC(2001, 0, 15, 12), short_descr: 'Sprint', long_descr: null, json_metadata: null },
        ],
      });
    });

    it('a chart as source answers its first query, with overrides taking the annotated query or their own value', async () => {
      const res = await chartData(admin, annotated([
        // No overrides: the source chart's own range (1990–1992) and grain (year).
        { name: 'Own', annotationType: 'TIME_SERIES', sourceType: 'line', value: girlsChart, show: true },
        // null overrides take the annotated query's range (2000–2002) and grain (week).
        { name: 'Inherit', annotationType: 'TIME_SERIES', sourceType: 'line', value: girlsChart, show: true, overrides: { time_range: null, time_grain_sqla: null } },
        // A set override is used as is; the grain stays the chart's own.
        { name: 'Fixed', annotationType: 'INTERVAL', sourceType: 'table', value: girlsChart, show: true, overrides: { time_range: '1970-01-01 : 1972-01-01' } },
        // A chart saved with form data only (legacy time series, __timestamp).
        { name: 'Legacy', annotationType: 'TIME_SERIES', sourceType: 'bar', value: legacyChart, show: true, overrides: { granularity: null } },
      ]));
      expect(res.status).toBe(200);
      const annotations = res.body.result[0].annotation_data;
      expect(Object.keys(annotations)).toEqual(['Own', 'Inherit', 'Fixed', 'Legacy']);
      expect(rows(annotations.Own.records, 'ds')).toEqual([1990, 1991, 1992].map((y) => [jan1(y), births(y, 'girl')]));
      expect(rows(annotations.Inherit.records, 'ds')).toEqual([2000, 2001, 2002].map((y) => [weekOfJan1(y), births(y, 'girl')]));
      expect(rows(annotations.Fixed.records, 'ds')).toEqual([1970, 1971].map((y) => [jan1(y), births(y, 'girl')]));
      const legacy = rows(annotations.Legacy.records, '__timestamp', 'sum__num_boys').sort((a, b) => a[0] - b[0]);
      expect(legacy).toEqual([1980, 1981].map((y) => [jan1(y), births(y, 'boy')]));
    });

    it('annotation data is computed on a cache miss and cached with the payload', async () => {
      const layer = await createLayer('Cache check');
      await createAnnotation(layer, { short_descr: 'first', start_dttm: '2001-06-01', end_dttm: '2001-06-01' });
      const query = annotated([{ name: 'Cached', annotationType: 'EVENT', sourceType: 'NATIVE', value: layer, show: true }], { row_limit: 99 });
      const first = await chartData(admin, query, false);
      expect(first.body.result[0].is_cached).toBe(false);
      expect(first.body.result[0].annotation_data.Cached.records.map((r: any) => r.short_descr)).toEqual(['first']);

      await createAnnotation(layer, { short_descr: 'second', start_dttm: '2002-06-01', end_dttm: '2002-06-01' });
      const cached = await chartData(admin, query, false);
      expect(cached.body.result[0].is_cached).toBe(true);
      expect(cached.body.result[0].annotation_data).toEqual(first.body.result[0].annotation_data);
      const forced = await chartData(admin, query, true);
      expect(forced.body.result[0].annotation_data.Cached.records.map((r: any) => r.short_descr)).toEqual(['first', 'second']);
    });

    it('an unknown layer, an unknown chart or a chart the actor may not read is a 400 in the error envelope', async () => {
      const unknownLayer = await chartData(admin, annotated([{ name: 'Gone', annotationType: 'EVENT', sourceType: 'NATIVE', value: 999999, show: true }]));
      expect(unknownLayer.status).toBe(400);
      expect(unknownLayer.body).toMatchObject({ message: 'Annotation layer not found.', errors: [{ message: 'Annotation layer not found.', error_type: 'INVALID_PAYLOAD_SCHEMA_ERROR', level: 'error' }] });

      const unknownChart = await chartData(admin, annotated([{ name: 'Gone', annotationType: 'TIME_SERIES', sourceType: 'line', value: 999999, show: true }]));
      expect(unknownChart.status).toBe(400);
      expect(unknownChart.body).toMatchObject({ message: 'The chart does not exist', errors: [{ message: 'The chart does not exist' }] });

      // Gamma plus access to birth_names only: the world bank chart is as absent as a missing one.
      const view = `[examples].[birth_names](id:${birthNames})`;
      await new SecurityRepository(t.services.db).seedRoles({ BirthNamesOnly: [...SEEDED_ROLES.Gamma, ['datasource_access', view]] });
      const analyst = await t.userWithRoles('annotation_analyst', ['BirthNamesOnly']);
      const hidden = await chartData(analyst, annotated([{ name: 'World', annotationType: 'TIME_SERIES', sourceType: 'table', value: worldBankChart, show: true }]));
      expect(hidden.status).toBe(400);
      expect(hidden.body.message).toBe('The chart does not exist');
      const visible = await chartData(analyst, annotated([{ name: 'Girls', annotationType: 'TIME_SERIES', sourceType: 'line', value: girlsChart, show: true }]));
      expect(visible.status).toBe(200);
      expect(rows(visible.body.result[0].annotation_data.Girls.records, 'ds')).toEqual([1990, 1991, 1992].map((y) => [jan1(y), births(y, 'girl')]));
      // The admin sees the same world bank chart: COUNT(*) of every generated row.
      const asAdmin = await chartData(admin, annotated([{ name: 'World', annotationType: 'TIME_SERIES', sourceType: 'table', value: worldBankChart, show: true }]));
      expect(asAdmin.status).toBe(200);
      expect(asAdmin.body.result[0].annotation_data.World.records.map((r: any) => Number(r.count))).toEqual([generateWorldBank().rows.length]);
      // The cache key is the query's, not the user's: a payload the admin cached is still refused to the analyst.
      const worldLayer = [{ name: 'World', annotationType: 'TIME_SERIES', sourceType: 'table', value: worldBankChart, show: true }];
      expect((await chartData(admin, annotated(worldLayer), false)).status).toBe(200);
      expect((await chartData(admin, annotated(worldLayer), false)).body.result[0].is_cached).toBe(true);
      const fromCache = await chartData(analyst, annotated(worldLayer), false);
      expect(fromCache.status).toBe(400);
      expect(fromCache.body.message).toBe('The chart does not exist');
    });
  });
});

// The migration, the unique name and the cascade on both metadata stores.
describe.each<MetadataKind>(['pglite', 'postgres'])('annotation layer storage on %s', (metadata) => {
  let t: TestApp;
  let admin: string;

  beforeAll(async () => {
    t = await startTestApp({ metadata });
    admin = await t.token();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('a duplicate name is a 422, and the store itself refuses one too', async () => {
    expect((await t.http.post(LAYERS).set(bearer(admin)).send({ name: 'Twice' })).status).toBe(201);
    const dup = await t.http.post(LAYERS).set(bearer(admin)).send({ name: 'Twice' });
    expect(dup.status).toBe(422);
    expect(dup.body).toEqual({ message: { name: ['Name must be unique'] } });
    await expect(t.services.db.insertInto('annotation_layer').values({ name: 'Twice' }).execute()).rejects.toMatchObject({ code: '23505' });
  });

  it('stores UTC times and deletes annotations with their layer', async () => {
    const layer = (await t.http.post(LAYERS).set(bearer(admin)).send({ name: 'Stored' })).body.id;
    const created = await t.http.post(`${LAYERS}${layer}/annotation/`).set(bearer(admin)).send({ short_descr: 's', start_dttm: '2024-06-30T23:30:00-01:00', end_dttm: '2024-07-01T01:00:00' });
    expect(created.body.result).toMatchObject({ start_dttm: '2024-07-01T00:30:00', end_dttm: '2024-07-01T01:00:00' });
    const list = await t.http.get(`${LAYERS}${layer}/annotation/`).query({ q: '(order_column:start_dttm,order_direction:desc)' }).set(bearer(admin));
    expect(list.body).toMatchObject({ count: 1, ids: [created.body.id] });
    expect((await t.http.delete(`${LAYERS}${layer}`).set(bearer(admin))).status).toBe(200);
    expect(await t.services.db.selectFrom('annotation').select('id').where('layer_id', '=', layer).execute()).toEqual([]);
  });
});

// Only PostgreSQL has concurrent sessions to race (PGlite is one connection).
describe('annotation layer storage on postgres, under a concurrent insert', () => {
  let t: TestApp;
  let admin: string;

  beforeAll(async () => {
    t = await startTestApp({ metadata: 'postgres' });
    admin = await t.token();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('a create that passes the name check but loses to a concurrent insert is a 422, not a 500', async () => {
    // Another session inserts the name without committing: the check cannot see it, the insert waits on it.
    const other = new pg.Client({ connectionString: t.services.config.databaseUrl });
    await other.connect();
    try {
      await other.query('BEGIN');
      await other.query("INSERT INTO annotation_layer (name) VALUES ('Contended')");
      const pending = t.http.post(LAYERS).set(bearer(admin)).send({ name: 'Contended' }).then((r) => r);
      await waitFor('the REST insert to wait on the uncommitted row', async () => {
        const { rows } = await other.query('SELECT count(*)::int AS n FROM pg_locks WHERE NOT granted');
        return rows[0].n > 0;
      });
      await other.query('COMMIT');
      const res = await pending;
      expect(res.status).toBe(422);
      expect(res.body).toEqual({ message: { name: ['Name must be unique'] } });
    } finally {
      await other.end();
    }
  });
});
