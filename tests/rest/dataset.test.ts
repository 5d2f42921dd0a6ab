import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureTestExamples } from '../helpers/examples';
import { ensureExampleDatasets } from '../../server/src/dataset/example-datasets';
import { startTestApp, type TestApp } from '../helpers/app';
import { bearer, clientId, registerDatabase } from './sqllab.helpers';

describe('/api/v1/dataset/', () => {
  let t: TestApp;
  let admin: string;
  let dir: string;
  let duck: number;

  const run = async (sql: string) => {
    const res = await t.http.post('/api/v1/sqllab/execute/').set(bearer(admin)).send({ database_id: duck, sql, client_id: clientId() });
    if (res.status !== 200) throw new Error(res.text);
  };

  beforeAll(async () => {
    t = await startTestApp();
    admin = await t.token();
    dir = mkdtempSync(join(tmpdir(), 'meridian-ds-'));
    duck = await registerDatabase(t, admin, { database_name: 'duck', sqlalchemy_uri: `duckdb:///${join(dir, 'a.duckdb')}`, allow_dml: true });
    await run("CREATE TABLE sales (ts TIMESTAMP, region VARCHAR, amount INTEGER); INSERT INTO sales VALUES ('2024-01-01', 'north', 10), ('2024-01-02', 'south', 20)");
  });
  afterAll(async () => {
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('creates a physical dataset with the columns read from the table', async () => {
    const res = await t.http.post('/api/v1/dataset/').set(bearer(admin)).send({ database: duck, schema: 'main', table_name: 'sales' });
    expect(res.status).toBe(201);
    const got = await t.http.get(`/api/v1/dataset/${res.body.id}`).set(bearer(admin));
    expect(got.status).toBe(200);
    const ds = got.body.result;
    expect(ds).toMatchObject({ table_name: 'sales', schema: 'main', kind: 'physical', main_dttm_col: 'ts', database: { id: duck, database_name: 'duck', backend: 'duckdb' }, owners: [{ id: 1 }] });
    expect(ds.columns.map((c: any) => [c.column_name, c.type, c.is_dttm, c.type_generic])).toEqual([
      ['ts', 'TIMESTAMP', true, 2],
      ['region', 'VARCHAR', false, 1],
      ['amount', 'INTEGER', false, 0],
    ]);
    expect(ds.metrics.map((m: any) => m.metric_name)).toEqual(['count']);
    expect(ds.select_star).toContain('FROM "main"."sales"');
    const again = await t.http.post('/api/v1/dataset/').set(bearer(admin)).send({ database: duck, schema: 'main', table_name: 'sales' });
    expect(again.status).toBe(422);
    expect(again.body).toEqual({ message: { table_name: ['Dataset main.sales already exists'] } });
    const missing = await t.http.post('/api/v1/dataset/').set(bearer(admin)).send({ database: duck, schema: 'main', table_name: 'nope' });
    expect(missing.status).toBe(422);
  });

  it('creates a virtual dataset from SQL (SQL Lab "Save dataset") and get_or_create finds or makes one', async () => {
    const res = await t.http.post('/api/v1/dataset/').set(bearer(admin)).send({ database: duck, schema: 'main', table_name: 'big_sales', sql: 'SELECT region, amount * 2 AS doubled FROM sales WHERE amount > 5' });
    expect(res.status).toBe(201);
    // Superset's answer: `result` is the body as posted, `data` the dataset made.
    expect(res.body.result).toMatchObject({ database: duck, table_name: 'big_sales' });
    expect(res.body.data.kind).toBe('virtual');
    expect(res.body.data.columns.map((c: any) => c.column_name)).toEqual(['region', 'doubled']);
    const bad = await t.http.post('/api/v1/dataset/').set(bearer(admin)).send({ database: duck, table_name: 'broken', sql: 'SELECT nope FROM sales' });
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0].error_type).toBeDefined();
    const first = await t.http.post('/api/v1/dataset/get_or_create/').set(bearer(admin)).send({ database_id: duck, schema: 'main', table_name: 'sales' });
    expect(first.status).toBe(200);
    const list = await t.http.get('/api/v1/dataset/').query({ q: "(filters:!((col:table_name,opr:eq,value:sales)))" }).set(bearer(admin));
    expect(first.body.result.table_id).toBe(list.body.ids[0]);
  });

  it('lists with rison filters: table_name ct, database, sql null or empty, owners', async () => {
    const q = (text: string) => t.http.get('/api/v1/dataset/').query({ q: text }).set(bearer(admin));
    let res = await q('(filters:!((col:table_name,opr:ct,value:sale)),order_column:table_name,order_direction:asc)');
    expect(res.body.result.map((d: any) => d.table_name)).toEqual(['big_sales', 'sales']);
    expect(res.body.count).toBe(2);
    res = await q('(filters:!((col:sql,opr:dataset_is_null_or_empty,value:!t)))');
    expect(res.body.result.map((d: any) => d.table_name)).toEqual(['sales']);
    res = await q(`(filters:!((col:database,opr:rel_o_m,value:${duck}),(col:owners,opr:rel_m_m,value:1)))`);
    expect(res.body.count).toBe(2);
    res = await q("(filters:!((col:table_name,opr:ct,value:'%')))");
    expect(res.body.count).toBe(0);
    const owners = await t.http.get('/api/v1/dataset/related/owners').query({ q: "(filter:adm)" }).set(bearer(admin));
    expect(owners.body.result).toEqual([{ value: 1, text: expect.any(String), extra: expect.any(Object) }]);
  });

  it('updates columns (verbose name, expression, python_date_format) and metrics (d3format, warning)', async () => {
    const list = await t.http.get('/api/v1/dataset/').query({ q: '(filters:!((col:table_name,opr:eq,value:sales)))' }).set(bearer(admin));
    const id = list.body.ids[0];
    const ds = (await t.http.get(`/api/v1/dataset/${id}`).set(bearer(admin))).body.result;
    const columns = ds.columns.map((c: any) => ({ id: c.id, column_name: c.column_name, type: c.type, is_dttm: c.is_dttm, verbose_name: c.column_name === 'region' ? 'Region' : null }));
    columns.push({ column_name: 'amount_x10', expression: 'amount * 10', type: 'INTEGER', filterable: false });
    const res = await t.http.put(`/api/v1/dataset/${id}`).set(bearer(admin)).send({
      description: 'Daily sales',
      columns,
      metrics: [{ metric_name: 'total', expression: 'SUM(amount)', verbose_name: 'Total', d3format: ',.0f', warning_text: 'Gross' }],
    });
    expect(res.status).toBe(200);
    const r = res.body.result;
    expect(r.description).toBe('Daily sales');
    expect(r.columns.find((c: any) => c.column_name === 'region').verbose_name).toBe('Region');
    expect(r.columns.find((c: any) => c.column_name === 'amount_x10')).toMatchObject({ expression: 'amount * 10', filterable: false });
    expect(r.metrics).toHaveLength(1);
    expect(r.metrics[0]).toMatchObject({ metric_name: 'total', d3format: ',.0f', warning_text: 'Gross', verbose_name: 'Total' });
    expect(r.verbose_map).toMatchObject({ region: 'Region', total: 'Total' });
    const dup = await t.http.put(`/api/v1/dataset/${id}`).set(bearer(admin)).send({ metrics: [{ metric_name: 'a', expression: 'SUM(1)' }, { metric_name: 'a', expression: 'SUM(2)' }] });
    expect(dup.status).toBe(422);
    expect(dup.body.message.metrics).toEqual(['One or more metrics are duplicated']);
    // These were 500s: a catalog longer than Superset's Length(0, 250), another database that does not exist, and
    // is_managed_externally null (allow_none: the flag stays).
    const longCatalog = await t.http.put(`/api/v1/dataset/${id}`).set(bearer(admin)).send({ catalog: 'c'.repeat(251) });
    expect(longCatalog.status).toBe(400);
    expect(longCatalog.body.message).toEqual({ catalog: ['Longer than maximum length 250.'] });
    const elsewhere = await t.http.put(`/api/v1/dataset/${id}`).set(bearer(admin)).send({ database_id: 99999 });
    expect(elsewhere.status).toBe(422);
    expect(elsewhere.body.message).toEqual({ database: ['Database does not exist'] });
    const unmanaged = await t.http.put(`/api/v1/dataset/${id}`).set(bearer(admin)).send({ is_managed_externally: null, description: 'Daily sales (v2)' });
    expect(unmanaged.status).toBe(200);
    expect(unmanaged.body.result).toMatchObject({ is_managed_externally: false, description: 'Daily sales (v2)' });
  });

  it('refreshes columns from the source, keeping calculated columns and user attributes', async () => {
    await run('ALTER TABLE sales ADD COLUMN channel VARCHAR');
    const list = await t.http.get('/api/v1/dataset/').query({ q: '(filters:!((col:table_name,opr:eq,value:sales)))' }).set(bearer(admin));
    const id = list.body.ids[0];
    const res = await t.http.put(`/api/v1/dataset/${id}/refresh`).set(bearer(admin));
    expect(res.status).toBe(200);
    const ds = (await t.http.get(`/api/v1/dataset/${id}`).set(bearer(admin))).body.result;
    expect(ds.columns.map((c: any) => c.column_name).sort()).toEqual(['amount', 'amount_x10', 'channel', 'region', 'ts']);
    expect(ds.columns.find((c: any) => c.column_name === 'region').verbose_name).toBe('Region');
  });

  it('duplicates virtual datasets only, and enforces owners for edits', async () => {
    const list = await t.http.get('/api/v1/dataset/').query({ q: '(order_column:table_name,order_direction:asc)' }).set(bearer(admin));
    const [bigSales, sales] = list.body.result;
    const copy = await t.http.post('/api/v1/dataset/duplicate').set(bearer(admin)).send({ base_model_id: bigSales.id, table_name: 'big_sales_copy' });
    expect(copy.status).toBe(201);
    expect(copy.body.result).toEqual({ base_model_id: bigSales.id, table_name: 'big_sales_copy' });
    expect((await t.http.get(`/api/v1/dataset/${copy.body.id}`).set(bearer(admin))).body.result).toMatchObject({ table_name: 'big_sales_copy', kind: 'virtual', sql: bigSales.sql });
    const physical = await t.http.post('/api/v1/dataset/duplicate').set(bearer(admin)).send({ base_model_id: sales.id, table_name: 'x' });
    expect(physical.status).toBe(422);

    const alpha = await t.userWithRoles('alpha1', ['Alpha']);
    const gamma = await t.userWithRoles('gamma1', ['Gamma']);
    expect((await t.http.get(`/api/v1/dataset/${sales.id}`).set(bearer(alpha))).status).toBe(200);
    expect((await t.http.put(`/api/v1/dataset/${sales.id}`).set(bearer(alpha)).send({ description: 'x' })).status).toBe(403);
    expect((await t.http.post('/api/v1/dataset/').set(bearer(gamma)).send({ database: duck, table_name: 'sales2', sql: 'SELECT 1' })).status).toBe(403);
    expect((await t.http.get('/api/v1/dataset/').set(bearer(gamma))).body.count).toBe(0);
    expect((await t.http.get(`/api/v1/dataset/${sales.id}`).set(bearer(gamma))).status).toBe(404);
    const mine = await t.http.post('/api/v1/dataset/').set(bearer(alpha)).send({ database: duck, table_name: 'alpha_view', sql: 'SELECT 1 AS one' });
    expect(mine.status).toBe(201);
    expect((await t.http.put(`/api/v1/dataset/${mine.body.id}`).set(bearer(alpha)).send({ description: 'mine' })).status).toBe(200);
  });

  it('exports a zip of YAML and bulk deletes with q=!(ids)', async () => {
    const list = await t.http.get('/api/v1/dataset/').set(bearer(admin));
    const ids: number[] = list.body.ids;
    const exp = await t.http.get('/api/v1/dataset/export/').query({ q: `!(${ids.join(',')})` }).set(bearer(admin)).buffer(true).parse((res, cb) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => cb(null, Buffer.concat(chunks)));
    });
    expect(exp.status).toBe(200);
    expect(exp.headers['content-type']).toBe('application/zip');
    const zip = exp.body as Buffer;
    expect(zip.subarray(0, 2).toString()).toBe('PK');
    expect(zip.includes(Buffer.from('metadata.yaml'))).toBe(true);
    const del = await t.http.delete('/api/v1/dataset/').query({ q: `!(${ids.slice(0, 2).join(',')})` }).set(bearer(admin));
    expect(del.status).toBe(200);
    expect(del.body.message).toBe('Deleted 2 datasets');
    expect((await t.http.get('/api/v1/dataset/').set(bearer(admin))).body.count).toBe(ids.length - 2);
  });

  it('registers the example tables as datasets with their metrics', async () => {
    const { id } = await ensureTestExamples(t.services, { path: join(dir, 'examples.duckdb'), salesRows: 2000 });
    const first = await ensureExampleDatasets(t.services);
    expect(first).toEqual({ databaseId: id, created: ['birth_names', 'wb_health_population', 'cleaned_sales_data', 'big_ids'] });
    expect((await ensureExampleDatasets(t.services)).created).toEqual([]);
    const list = await t.http.get('/api/v1/dataset/').query({ q: "(filters:!((col:table_name,opr:eq,value:birth_names)))" }).set(bearer(admin));
    const ds = (await t.http.get(`/api/v1/dataset/${list.body.ids[0]}`).set(bearer(admin))).body.result;
    expect(ds).toMatchObject({ main_dttm_col: 'ds', schema: 'main' });
    expect(ds.metrics.map((m: any) => m.metric_name)).toEqual(['count', 'sum__num', 'sum__num_boys', 'sum__num_girls']);
  });
});
