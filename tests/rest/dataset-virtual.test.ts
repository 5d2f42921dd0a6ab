import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app';
import { bearer, clientId, registerDatabase } from './sqllab.helpers';

/** A virtual dataset's SQL changed through PUT or its source changed under it: columns follow, bad SQL changes nothing. */
describe('virtual dataset SQL: PUT validates and re-reads columns; refresh follows the source', () => {
  let t: TestApp;
  let admin: string;
  let dir: string;
  let duck: number;
  let id: number;

  const run = async (sql: string) => {
    const res = await t.http.post('/api/v1/sqllab/execute/').set(bearer(admin)).send({ database_id: duck, sql, client_id: clientId() });
    if (res.status !== 200) throw new Error(res.text);
    return res.body;
  };
  const get = async () => (await t.http.get(`/api/v1/dataset/${id}`).set(bearer(admin))).body.result;
  const names = (ds: any) => ds.columns.map((c: any) => c.column_name).sort();
  const put = (body: Record<string, unknown>) => t.http.put(`/api/v1/dataset/${id}`).set(bearer(admin)).send(body);
  const sum = async (metric: string) => {
    const res = await t.http.post('/api/v1/chart/data').set(bearer(admin)).send({ datasource: { id, type: 'table' }, force: true, queries: [{ metrics: [{ expressionType: 'SQL', sqlExpression: metric, label: 'x' }] }] });
    if (res.status !== 200) throw new Error(res.text);
    return Number(res.body.result[0].data[0].x);
  };

  beforeAll(async () => {
    t = await startTestApp();
    admin = await t.token();
    dir = mkdtempSync(join(tmpdir(), 'meridian-vds-'));
    duck = await registerDatabase(t, admin, { database_name: 'duck', sqlalchemy_uri: `duckdb:///${join(dir, 'v.duckdb')}`, allow_dml: true });
    await run("CREATE TABLE sales (region VARCHAR, amount INTEGER); INSERT INTO sales VALUES ('north', 10), ('south', 20), ('north', 5)");
    const created = await t.http.post('/api/v1/dataset/').set(bearer(admin)).send({ database: duck, schema: 'main', table_name: 'sales_view', sql: 'SELECT region, amount * 2 AS doubled FROM sales' });
    expect(created.status).toBe(201);
    id = created.body.id;
    // A user-set label and a calculated column, both to be kept across SQL changes.
    const ds = await get();
    const columns = ds.columns.map((c: any) => ({ id: c.id, column_name: c.column_name, type: c.type, verbose_name: c.column_name === 'region' ? 'Region' : null }));
    expect((await put({ columns: [...columns, { column_name: 'is_north', expression: "region = 'north'", type: 'BOOLEAN' }] })).status).toBe(200);
  });
  afterAll(async () => {
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('new SQL re-reads the columns: new ones added, gone ones removed, labels and calculated columns kept', async () => {
    expect(await sum('SUM(doubled)')).toBe(70);
    const res = await put({ sql: 'SELECT region, amount, amount * 3 AS tripled FROM sales' });
    expect(res.status).toBe(200);
    expect(names(res.body.result)).toEqual(['amount', 'is_north', 'region', 'tripled']);
    expect(res.body.result.sql).toBe('SELECT region, amount, amount * 3 AS tripled FROM sales');
    expect(res.body.result.columns.find((c: any) => c.column_name === 'region').verbose_name).toBe('Region');
    expect(res.body.result.columns.find((c: any) => c.column_name === 'tripled').type).toBe('INTEGER');
    expect(await sum('SUM(tripled)')).toBe(105);
    // The calculated column still works on the new SQL: north 10 + 5, south 20.
    const grouped = await t.http.post('/api/v1/chart/data').set(bearer(admin)).send({ datasource: { id, type: 'table' }, force: true, queries: [{ columns: ['is_north'], metrics: [{ expressionType: 'SQL', sqlExpression: 'SUM(amount)', label: 'x' }], orderby: [['is_north', true]] }] });
    expect(grouped.body.result[0].data.map((r: any) => [r.is_north, Number(r.x)])).toEqual([[false, 20], [true, 15]]);
  });

  it('refuses two statements, a write and SQL that fails, and keeps the dataset as it was', async () => {
    const before = await get();
    const two = await put({ sql: 'SELECT 1 AS a; SELECT 2 AS b' });
    expect(two.status).toBe(422);
    expect(two.body).toEqual({ message: { sql: ['Only single queries supported'] } });
    const write = await put({ sql: 'DELETE FROM sales' });
    expect(write.status).toBe(422);
    expect(write.body.errors[0]).toMatchObject({ message: 'Only `SELECT` statements are allowed' });
    const hidden = await put({ sql: 'SELECT 1 AS a; DELETE FROM sales' });
    expect(hidden.status).toBe(422);
    const broken = await put({ sql: 'SELECT no_such_column FROM sales' });
    expect(broken.status).toBe(422);
    expect(broken.body.errors[0].message).toContain('no_such_column');
    const after = await get();
    expect({ sql: after.sql, columns: names(after) }).toEqual({ sql: before.sql, columns: names(before) });
    // Nothing was deleted.
    expect((await run('SELECT count(*) AS n FROM sales')).data[0].n).toBe(3);
  });

  it('columns given with the new SQL are the ones kept', async () => {
    const res = await put({ sql: 'SELECT region, amount FROM sales', columns: [{ column_name: 'region', type: 'VARCHAR' }, { column_name: 'amount', type: 'INTEGER' }] });
    expect(res.status).toBe(200);
    expect(names(res.body.result)).toEqual(['amount', 'region']);
  });

  it("Jinja in chart queries reads the dashboard's url_params and the native filters' values, each answer cached apart", async () => {
    const table = await t.http.post('/api/v1/dataset/').set(bearer(admin)).send({ database: duck, schema: 'main', table_name: 'sales' });
    expect(table.status).toBe(201);
    const total = async (formData: Record<string, unknown>, where: string) => {
      const res = await t.http.post('/api/v1/chart/data').set(bearer(admin)).send({ datasource: { id: table.body.id, type: 'table' }, form_data: formData, queries: [{ metrics: [{ expressionType: 'SQL', sqlExpression: 'SUM(amount)', label: 'x' }], extras: { where } }] });
      if (res.status !== 200) throw new Error(res.text);
      return Number(res.body.result[0].data[0].x);
    };
    const byParam = "region = '{{ url_param('region', 'north') }}'";
    expect(await total({}, byParam)).toBe(15);
    expect(await total({ url_params: { region: 'south' } }, byParam)).toBe(20);
    // Not the south answer from the cache.
    expect(await total({}, byParam)).toBe(15);
    // filter_values sees a native filter's values (extra_form_data).
    // (north's amounts are 10 and 5: one value selected makes the condition amount >= 10.)
    const byFilter = "amount >= {{ filter_values('region')|length * 10 }}";
    expect(await total({ extra_form_data: { filters: [{ col: 'region', op: 'IN', val: ['north'] }] } }, byFilter)).toBe(10);
  });

  it('refresh of a virtual dataset follows a change of its source table', async () => {
    expect((await put({ sql: 'SELECT * FROM sales' })).status).toBe(200);
    expect(names(await get())).toEqual(['amount', 'region']);
    await run("ALTER TABLE sales ADD COLUMN channel VARCHAR DEFAULT 'web'");
    const res = await t.http.put(`/api/v1/dataset/${id}/refresh`).set(bearer(admin));
    expect(res.status).toBe(200);
    expect(names(await get())).toEqual(['amount', 'channel', 'region']);
    await run('ALTER TABLE sales DROP COLUMN amount');
    expect((await t.http.put(`/api/v1/dataset/${id}/refresh`).set(bearer(admin))).status).toBe(200);
    expect(names(await get())).toEqual(['channel', 'region']);
  });
});
