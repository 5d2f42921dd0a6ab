import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import mysql from 'mysql2/promise';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app';
import { createPgDatabase } from '../helpers/pg';
import { bearer, clientId, registerDatabase } from './sqllab.helpers';

// exceljs is the server's dependency; read the exported workbook with it.
const ExcelJS = createRequire(new URL('../../server/package.json', import.meta.url))('exceljs');
// better-sqlite3 is the query worker's (optional) dependency: the SQLite file is made with it.
const SqliteDatabase = createRequire(new URL('../../query-worker/package.json', import.meta.url))('better-sqlite3') as new (path: string) => { exec(sql: string): void; close(): void };

// Eight births whose sums are easy to check by hand (see each expectation).
const ROWS: Array<[string, string, string, number, boolean | null]> = [
  ['2024-01-01 00:00:00', 'boy', 'Adam', 10, true],
  ['2024-01-01 00:00:00', 'girl', 'Beth', 20, false],
  ['2024-01-02 00:00:00', 'boy', 'Carl', 30, true],
  ['2024-01-02 00:00:00', 'girl', 'Dana', 40, false],
  ['2024-01-08 00:00:00', 'boy', 'Adam', 50, true],
  ['2024-02-01 00:00:00', 'girl', 'Beth', 60, null],
  ['2024-02-15 00:00:00', 'boy', 'Carl', 70, false],
  ['2024-03-01 00:00:00', 'girl', "O'Hara", 80, true],
];
const lit = (v: unknown) => (v === null ? 'NULL' : typeof v === 'string' ? `'${v.replace(/'/g, "''")}'` : String(v));
const INSERT = `INSERT INTO births (ds, gender, name, num, flag) VALUES ${ROWS.map((r) => `(${r.map(lit).join(', ')})`).join(', ')}`;
const ms = (iso: string) => Date.parse(`${iso}T00:00:00Z`);
const SUM = { expressionType: 'SIMPLE', column: { column_name: 'num' }, aggregate: 'SUM', label: 'SUM(num)' };

type Engine = 'duckdb' | 'postgresql' | 'mysql' | 'sqlite';

describe.each<Engine>(['duckdb', 'postgresql', 'mysql', 'sqlite'])('chart data on %s', (engine) => {
  let t: TestApp;
  let admin: string;
  let dir: string;
  let datasetId: number;
  let dbId: number;
  let dropPg: (() => Promise<void>) | null = null;

  const chartData = (queries: Record<string, unknown>[], extra: Record<string, unknown> = {}) =>
    t.http.post('/api/v1/chart/data').set(bearer(admin)).send({ datasource: { id: datasetId, type: 'table' }, queries, result_type: 'full', result_format: 'json', force: true, ...extra });
  const data = async (query: Record<string, unknown>) => {
    const res = await chartData([query]);
    if (res.status !== 200) throw new Error(`${res.status} ${res.text}`);
    return res.body.result[0];
  };
  const total = async (filters: unknown[], metric: unknown = SUM) => {
    const r = await data({ metrics: [metric], filters });
    return Number(r.data[0][typeof metric === 'string' ? metric : (metric as { label: string }).label]);
  };

  beforeAll(async () => {
    t = await startTestApp();
    admin = await t.token();
    dir = mkdtempSync(join(tmpdir(), 'meridian-cd-'));
    let schema: string;
    if (engine === 'duckdb') {
      dbId = await registerDatabase(t, admin, { database_name: 'duck', sqlalchemy_uri: `duckdb:///${join(dir, 'c.duckdb')}`, allow_dml: true });
      const res = await t.http.post('/api/v1/sqllab/execute/').set(bearer(admin)).send({ database_id: dbId, client_id: clientId(), sql: `CREATE TABLE births (ds TIMESTAMP, gender VARCHAR, name VARCHAR, num INTEGER, flag BOOLEAN); ${INSERT}` });
      expect(res.status).toBe(200);
      schema = 'main';
    } else if (engine === 'sqlite') {
      // Timestamps as SQLite keeps them: ISO text; booleans as 1/0.
      const file = join(dir, 'births.db');
      const sqlite = new SqliteDatabase(file);
      sqlite.exec(`CREATE TABLE births (ds TIMESTAMP, gender VARCHAR(10), name VARCHAR(20), num INTEGER, flag BOOLEAN); ${INSERT}`);
      sqlite.close();
      dbId = await registerDatabase(t, admin, { database_name: 'lite', sqlalchemy_uri: `sqlite:///${file}` });
      schema = 'main';
    } else if (engine === 'mysql') {
      const name = `meridian_test_${Math.random().toString(16).slice(2, 12)}`;
      const conn = await mysql.createConnection({ host: '127.0.0.1', port: 3306, user: 'root' });
      await conn.query(`CREATE DATABASE ${name}`);
      await conn.query(`CREATE TABLE ${name}.births (ds DATETIME, gender VARCHAR(10), name VARCHAR(20), num INT, flag BOOLEAN)`);
      await conn.query(INSERT.replace('INSERT INTO births', `INSERT INTO ${name}.births`));
      await conn.end();
      dropPg = async () => {
        const c = await mysql.createConnection({ host: '127.0.0.1', port: 3306, user: 'root' });
        await c.query(`DROP DATABASE IF EXISTS ${name}`);
        await c.end();
      };
      dbId = await registerDatabase(t, admin, { database_name: 'maria', sqlalchemy_uri: `mysql://root@127.0.0.1:3306/${name}` });
      schema = name;
    } else {
      const db = await createPgDatabase();
      dropPg = db.drop;
      const client = new pg.Client({ connectionString: db.url });
      await client.connect();
      await client.query('CREATE TABLE births (ds TIMESTAMP, gender VARCHAR(10), name VARCHAR(20), num INTEGER, flag BOOLEAN)');
      await client.query(INSERT);
      await client.end();
      dbId = await registerDatabase(t, admin, { database_name: 'pg', sqlalchemy_uri: db.url });
      schema = 'public';
    }
    const ds = await t.http.post('/api/v1/dataset/').set(bearer(admin)).send({ database: dbId, schema, table_name: 'births' });
    expect(ds.status).toBe(201);
    datasetId = ds.body.id;
    const current = ds.body.data;
    const upd = await t.http.put(`/api/v1/dataset/${datasetId}`).set(bearer(admin)).send({
      metrics: [...current.metrics.map((m: any) => ({ id: m.id, metric_name: m.metric_name, expression: m.expression })), { metric_name: 'sum__num', expression: 'SUM(num)' }],
    });
    expect(upd.status).toBe(200);
  });
  afterAll(async () => {
    await t?.close();
    await dropPg?.();
    rmSync(dir, { recursive: true, force: true });
  });

  it('aggregates: SUM 360, AVG 45, COUNT 8, COUNT_DISTINCT names 5, MAX 80, MIN 10, saved and SQL metrics', async () => {
    const agg = (aggregate: string) => ({ expressionType: 'SIMPLE', column: { column_name: aggregate === 'COUNT_DISTINCT' ? 'name' : 'num' }, aggregate, label: aggregate });
    const r = await data({ metrics: ['SUM', 'AVG', 'COUNT', 'COUNT_DISTINCT', 'MAX', 'MIN'].map(agg).concat([{ expressionType: 'SQL', sqlExpression: 'SUM(num) * 2', label: 'twice' } as any, 'sum__num', 'count']) });
    const row = r.data[0];
    expect([row.SUM, row.AVG, row.COUNT, row.COUNT_DISTINCT, row.MAX, row.MIN, row.twice, row.sum__num, row.count].map(Number)).toEqual([360, 45, 8, 5, 80, 10, 720, 360, 8]);
    expect(r).toMatchObject({ status: 'success', rowcount: 1, is_cached: false, colnames: ['SUM', 'AVG', 'COUNT', 'COUNT_DISTINCT', 'MAX', 'MIN', 'twice', 'sum__num', 'count'] });
    expect(r.coltypes.every((c: number) => c === 0)).toBe(true);
  });

  it('groups by a column, ordered by the metric', async () => {
    const r = await data({ columns: ['gender'], metrics: [SUM], row_limit: 10 });
    expect(r.data.map((d: any) => [d.gender, Number(d['SUM(num)'])])).toEqual([['girl', 200], ['boy', 160]]);
    expect(r.coltypes).toEqual([1, 0]);
  });

  it('every filter operator gives the hand-computed sum', async () => {
    const f = (col: string, op: string, val?: unknown) => ({ col, op, val });
    expect(await total([f('gender', '==', 'boy')])).toBe(160);
    expect(await total([f('gender', '!=', 'boy')])).toBe(200);
    expect(await total([f('num', '>', 40)])).toBe(260);
    expect(await total([f('num', '<', 30)])).toBe(30);
    expect(await total([f('num', '>=', '40')])).toBe(300);
    expect(await total([f('num', '<=', 20)])).toBe(30);
    expect(await total([f('name', 'IN', ['Adam', 'Beth'])])).toBe(140);
    expect(await total([f('name', 'NOT IN', ['Adam', 'Beth'])])).toBe(220);
    expect(await total([f('name', 'LIKE', 'C%')])).toBe(100);
    // LIKE is case-sensitive on every engine (SQLite's own LIKE is not, MySQL's depends on the collation).
    expect(await total([f('name', 'LIKE', 'c%')])).toBe(0);
    expect(await total([f('name', 'NOT LIKE', 'c%')])).toBe(360);
    expect(await total([f('name', 'LIKE', '_a%')])).toBe(140); // Carl 100 + Dana 40
    expect(await total([f('name', 'NOT LIKE', 'C%')])).toBe(260);
    expect(await total([f('name', 'ILIKE', 'c%')])).toBe(100);
    expect(await total([f('name', 'ILIKE', "o'h%")])).toBe(80);
    expect(await total([f('name', '==', "O'Hara")])).toBe(80);
    expect(await total([f('flag', 'IS NULL')])).toBe(60);
    expect(await total([f('flag', 'IS NOT NULL')])).toBe(300);
    expect(await total([f('flag', 'IS TRUE')])).toBe(170);
    expect(await total([f('flag', 'IS FALSE')])).toBe(130);
    expect(await total([f('flag', '==', true)])).toBe(170);
    expect(await total([f('flag', '!=', 'true')])).toBe(130);
    expect(await total([f('ds', 'TEMPORAL_RANGE', '2024-01-01 : 2024-02-01')])).toBe(150);
    expect(await total([f('ds', '==', ms('2024-01-08'))])).toBe(50);
  });

  it('native filters and cross-filters: form_data.extra_form_data narrows, overrides the time range and the grain (spec 02 §3 Data mask)', async () => {
    const rows = async (query: Record<string, unknown>, extra: Record<string, unknown>) => {
      const res = await chartData([query], { form_data: { extra_form_data: extra } });
      if (res.status !== 200) throw new Error(`${res.status} ${res.text}`);
      return res.body.result[0].data as Array<Record<string, unknown>>;
    };
    // A value filter (IN) and a numerical range (>= / <=) append to the chart's own filters.
    const byGender = await rows({ columns: ['gender'], metrics: [SUM], filters: [{ col: 'num', op: '>', val: 10 }] }, { filters: [{ col: 'gender', op: 'IN', val: ['boy'] }, { col: 'num', op: '<=', val: 50 }] });
    expect(byGender.map((d) => [d.gender, Number(d['SUM(num)'])])).toEqual([['boy', 80]]);
    // NOT IN (inverse selection).
    expect((await rows({ metrics: [SUM] }, { filters: [{ col: 'name', op: 'NOT IN', val: ['Adam', 'Beth'] }] })).map((d) => Number(d['SUM(num)']))).toEqual([220]);
    // A time range filter overrides the chart's 'No filter': January 2024 only.
    expect((await rows({ metrics: [SUM], granularity: 'ds', time_range: 'No filter' }, { time_range: '2024-01-01 : 2024-02-01' })).map((d) => Number(d['SUM(num)']))).toEqual([150]);
    // A time grain filter regroups a time x-axis by month.
    const monthly = await rows({ columns: [{ columnType: 'BASE_AXIS', sqlExpression: 'ds', label: 'ds', expressionType: 'SQL', timeGrain: 'P1D' }], metrics: [SUM], orderby: [['ds', true]] }, { time_grain_sqla: 'P1M' });
    expect(monthly.map((d) => Number(d['SUM(num)']))).toEqual([150, 130, 80]);
  });

  it('adhoc WHERE and HAVING clauses', async () => {
    const r = await data({ columns: ['name'], metrics: [SUM], extras: { where: "gender = 'boy'", having: 'SUM(num) > 60' } });
    expect(r.data.map((d: any) => [d.name, Number(d['SUM(num)'])])).toEqual([['Carl', 100]]);
  });

  it('time grains: day, week (Monday), month, quarter, year', async () => {
    const byGrain = async (grain: string) => {
      const r = await data({ columns: [{ label: 'ds', sqlExpression: 'ds', columnType: 'BASE_AXIS', timeGrain: grain }], metrics: [SUM], orderby: [[{ label: 'ds', sqlExpression: 'ds' }, true]] });
      return r.data.map((d: any) => [d.ds, Number(d['SUM(num)'])]);
    };
    expect(await byGrain('P1D')).toEqual([[ms('2024-01-01'), 30], [ms('2024-01-02'), 70], [ms('2024-01-08'), 50], [ms('2024-02-01'), 60], [ms('2024-02-15'), 70], [ms('2024-03-01'), 80]]);
    if (engine === 'mysql' || engine === 'sqlite') {
      // Superset's MySQL and SQLite weeks start on Sunday
      expect(await byGrain('P1W')).toEqual([[ms('2023-12-31'), 100], [ms('2024-01-07'), 50], [ms('2024-01-28'), 60], [ms('2024-02-11'), 70], [ms('2024-02-25'), 80]]);
    } else {
      expect(await byGrain('P1W')).toEqual([[ms('2024-01-01'), 100], [ms('2024-01-08'), 50], [ms('2024-01-29'), 60], [ms('2024-02-12'), 70], [ms('2024-02-26'), 80]]);
    }
    expect(await byGrain('P1M')).toEqual([[ms('2024-01-01'), 150], [ms('2024-02-01'), 130], [ms('2024-03-01'), 80]]);
    expect(await byGrain('P3M')).toEqual([[ms('2024-01-01'), 360]]);
    expect(await byGrain('P1Y')).toEqual([[ms('2024-01-01'), 360]]);
  });

  it('legacy time series with granularity and a time range select __timestamp', async () => {
    const r = await data({ metrics: [SUM], granularity: 'ds', is_timeseries: true, extras: { time_grain_sqla: 'P1M' }, time_range: '2024-01-01 : 2024-03-01' });
    expect(r.data.map((d: any) => [d.__timestamp, Number(d['SUM(num)'])]).sort((a: any, b: any) => a[0] - b[0])).toEqual([[ms('2024-01-01'), 150], [ms('2024-02-01'), 130]]);
    expect(r.from_dttm).toBe(ms('2024-01-01'));
    expect(r.to_dttm).toBe(ms('2024-03-01'));
  });

  it('epoch columns (python_date_format epoch_s / epoch_ms) take time grains and time ranges', async () => {
    // 2024-01-01 num 10, 2024-01-20 num 20, 2024-02-01 num 5, as epoch seconds and milliseconds.
    const sql = 'SELECT 1704067200 AS ts_s, 1704067200000 AS ts_ms, 10 AS num UNION ALL SELECT 1705708800, 1705708800000, 20 UNION ALL SELECT 1706745600, 1706745600000, 5';
    const created = await t.http.post('/api/v1/dataset/').set(bearer(admin)).send({ database: (await t.http.get(`/api/v1/dataset/${datasetId}`).set(bearer(admin))).body.result.database.id, table_name: 'epochs', sql });
    expect(created.status).toBe(201);
    const epochId = created.body.id;
    const columns = created.body.data.columns.map((c: any) => ({
      id: c.id, column_name: c.column_name, type: c.type,
      is_dttm: c.column_name !== 'num',
      python_date_format: c.column_name === 'ts_s' ? 'epoch_s' : c.column_name === 'ts_ms' ? 'epoch_ms' : null,
    }));
    expect((await t.http.put(`/api/v1/dataset/${epochId}`).set(bearer(admin)).send({ columns })).status).toBe(200);
    const monthly = async (col: string, timeRange = 'No filter') => {
      const res = await t.http.post('/api/v1/chart/data').set(bearer(admin)).send({
        datasource: { id: epochId, type: 'table' }, force: true, result_format: 'json', result_type: 'full',
        queries: [{ columns: [{ label: col, sqlExpression: col, columnType: 'BASE_AXIS', timeGrain: 'P1M' }], metrics: [{ ...SUM, label: 'total' }], orderby: [[{ label: col, sqlExpression: col }, true]], filters: [{ col, op: 'TEMPORAL_RANGE', val: timeRange }] }],
      });
      if (res.status !== 200) throw new Error(`${res.status} ${res.text}`);
      return res.body.result[0].data.map((d: any) => [d[col], Number(d.total)]);
    };
    expect(await monthly('ts_s')).toEqual([[ms('2024-01-01'), 30], [ms('2024-02-01'), 5]]);
    expect(await monthly('ts_ms')).toEqual([[ms('2024-01-01'), 30], [ms('2024-02-01'), 5]]);
    // The range compares epoch numbers with the raw column: 2024-01-15 onwards keeps the 20 and the 5.
    expect(await monthly('ts_s', '2024-01-15 : 2024-03-01')).toEqual([[ms('2024-01-01'), 20], [ms('2024-02-01'), 5]]);
    expect(await monthly('ts_ms', '2024-01-15 : 2024-03-01')).toEqual([[ms('2024-01-01'), 20], [ms('2024-02-01'), 5]]);
  });

  it('series limit keeps the top series by the series limit metric (MAX: O\'Hara 80, Carl 70)', async () => {
    const r = await data({
      columns: [{ label: 'ds', sqlExpression: 'ds', columnType: 'BASE_AXIS', timeGrain: 'P1M' }, 'name'],
      metrics: [SUM],
      series_columns: ['name'],
      series_limit: 2,
      series_limit_metric: { expressionType: 'SIMPLE', column: { column_name: 'num' }, aggregate: 'MAX', label: 'MAX(num)' },
      is_timeseries: true,
    });
    expect([...new Set(r.data.map((d: any) => d.name))].sort()).toEqual(['Carl', "O'Hara"]);
    expect(r.data.reduce((acc: number, d: any) => acc + Number(d['SUM(num)']), 0)).toBe(180);
  });

  it('row limit, offset and orderby', async () => {
    const r = await data({ columns: ['name', 'num'], orderby: [['num', false]], row_limit: 2, row_offset: 1 });
    expect(r.data.map((d: any) => Number(d.num))).toEqual([70, 60]);
    // An offset without a row limit (MySQL and SQLite need a LIMIT before OFFSET).
    const rest = await data({ columns: ['name', 'num'], orderby: [['num', false]], row_offset: 5 });
    expect(rest.data.map((d: any) => Number(d.num))).toEqual([30, 20, 10]);
  });

  it("server pagination: a page by row_offset and row_limit, and is_rowcount's total of the rows within the row limit", async () => {
    // Superset's table with server pagination asks for one page, then the same query with is_rowcount for the total.
    const query = { columns: ['name'], metrics: [SUM], orderby: [[SUM, false]] };
    const res = await chartData([
      { ...query, row_limit: 2, row_offset: 2 },
      { ...query, row_limit: 1000, row_offset: 0, is_rowcount: true, post_processing: [] },
      { ...query, row_limit: 3, row_offset: 0, is_rowcount: true },
    ]);
    expect(res.status).toBe(200);
    const [page, total, capped] = res.body.result;
    // Names by their sums: Carl 100, Beth 80, O'Hara 80, Adam 60, Dana 40: the second page of two is 80 and 60.
    expect(page.data.map((d: any) => Number(d['SUM(num)']))).toEqual([80, 60]);
    expect(total.colnames).toEqual(['rowcount']);
    expect(total.data).toEqual([{ rowcount: 5 }]);
    // The row limit caps the count, as the page query never reads past it.
    expect(capped.data).toEqual([{ rowcount: 3 }]);
    // Filters count too: the boys' names are Adam and Carl.
    const boys = await data({ ...query, filters: [{ col: 'gender', op: '==', val: 'boy' }], row_limit: 1000, is_rowcount: true });
    expect(boys.data).toEqual([{ rowcount: 2 }]);
    // The table's search box (Superset's ILIKE 'text%' on the 'Search by' column) narrows the page and the count alike,
    // whatever the case: 'BO' finds the boys, Carl 100 and Adam 60.
    const search = { ...query, filters: [{ col: 'gender', op: 'ILIKE', val: 'BO%' }] };
    const searched = await chartData([{ ...search, row_limit: 10, row_offset: 0 }, { ...search, row_limit: 1000, row_offset: 0, is_rowcount: true }]);
    expect(searched.body.result.map((r: any) => r.data.map((d: any) => d.rowcount ?? [d.name, Number(d['SUM(num)'])]))).toEqual([[['Carl', 100], ['Adam', 60]], [2]]);
    // Cached apart from the rows of the same query (page one of a page size equal to the row limit).
    const cached = await chartData([{ ...query, row_limit: 4 }, { ...query, row_limit: 4, is_rowcount: true }], { force: false });
    expect(cached.body.result.map((r: any) => r.data.length)).toEqual([4, 1]);
    expect(cached.body.result[1].data).toEqual([{ rowcount: 4 }]);
  });

  it("a table's time comparison: time_offsets without a time axis join the shifted period's rows on the group-bys", async () => {
    // February and March 2024 against one month earlier (January 1 to March 1): boys 70 against 160, girls 140 against 120.
    const query = { columns: ['gender'], metrics: [SUM], filters: [{ col: 'ds', op: 'TEMPORAL_RANGE', val: '2024-02-01 : 2024-04-01' }], time_offsets: ['1 month ago'], orderby: [[SUM, false]] };
    const r = await data(query);
    expect(r.colnames).toEqual(['gender', 'SUM(num)', 'SUM(num)__1 month ago']);
    expect(r.data.map((d: any) => [d.gender, Number(d['SUM(num)']), Number(d['SUM(num)__1 month ago'])])).toEqual([['girl', 140, 120], ['boy', 70, 160]]);
    // A page (row limit, offset) of the main rows still finds its match: the shifted query is neither limited nor paged alike.
    const paged = await data({ ...query, orderby: [[SUM, true]], row_limit: 1, row_offset: 1 });
    expect(paged.data.map((d: any) => [d.gender, Number(d['SUM(num)__1 month ago'])])).toEqual([['girl', 120]]);
    // No group-by: the totals row against the shifted period's.
    const totals = await data({ ...query, columns: [], orderby: [] });
    expect(totals.data.map((d: any) => [Number(d['SUM(num)']), Number(d['SUM(num)__1 month ago'])])).toEqual([[210, 280]]);
    // Superset's refusal when the time range is open.
    const open = await chartData([{ ...query, filters: [] }]);
    expect(open.status).toBe(400);
    expect(JSON.stringify(open.body)).toContain('An enclosed time range (both start and end) must be specified when using a Time Comparison.');
  });

  it("'Custom date' and 'Inherit range from time filter': a start date shifts by the days to the range's start, 'inherit' by the range's length", async () => {
    // February and March 2024 (60 days). '2024-01-02' is 30 days before: January 2 to March 2, boys 30+50+70, girls 40+60+80.
    // 'inherit' is 60 days before: December 3 to February 1, boys 10+30+50, girls 20+40. The columns keep the offsets' names.
    const query = { columns: ['gender'], metrics: [SUM], filters: [{ col: 'ds', op: 'TEMPORAL_RANGE', val: '2024-02-01 : 2024-04-01' }], time_offsets: ['2024-01-02', 'inherit'], orderby: [[SUM, false]] };
    const r = await data(query);
    expect(r.colnames).toEqual(['gender', 'SUM(num)', 'SUM(num)__2024-01-02', 'SUM(num)__inherit']);
    expect(r.data.map((d: any) => [d.gender, ...['SUM(num)', 'SUM(num)__2024-01-02', 'SUM(num)__inherit'].map((k) => Number(d[k]))])).toEqual([['girl', 140, 180, 60], ['boy', 70, 150, 90]]);
    // A table's percentage metric takes its shifted twin's share too (contribution after the join): 60 and 90 of 150.
    const shares = await data({ ...query, time_offsets: ['inherit'], post_processing: [{ operation: 'contribution', options: { columns: ['SUM(num)', 'SUM(num)__inherit'], rename_columns: ['%SUM(num)', '%SUM(num)__inherit'] } }] });
    expect(shares.data.map((d: any) => [d.gender, Number(d['%SUM(num)__inherit'])])).toEqual([['girl', 0.4], ['boy', 0.6]]);
  });

  it('post-processing: pivot + cumsum, rolling sum, contribution', async () => {
    const month = { label: 'ds', sqlExpression: 'ds', columnType: 'BASE_AXIS', timeGrain: 'P1M' };
    let r = await data({
      columns: [month, 'gender'],
      metrics: [SUM],
      post_processing: [
        { operation: 'pivot', options: { index: ['ds'], columns: ['gender'], aggregates: { 'SUM(num)': { operator: 'mean' } }, drop_missing_columns: false } },
        { operation: 'rename', options: { columns: { 'SUM(num)': null }, level: 0, inplace: true } },
        { operation: 'cum', options: { operator: 'sum' } },
        { operation: 'flatten' },
      ],
    });
    expect(r.colnames).toEqual(['ds', 'boy', 'girl']);
    expect(r.data).toEqual([{ ds: ms('2024-01-01'), boy: 90, girl: 60 }, { ds: ms('2024-02-01'), boy: 160, girl: 120 }, { ds: ms('2024-03-01'), boy: null, girl: 200 }]);
    r = await data({
      columns: [month],
      metrics: [SUM],
      post_processing: [
        { operation: 'pivot', options: { index: ['ds'], aggregates: { 'SUM(num)': { operator: 'mean' } } } },
        { operation: 'rolling', options: { rolling_type: 'sum', window: 2, columns: { 'SUM(num)': 'SUM(num)' } } },
        { operation: 'flatten' },
      ],
    });
    expect(r.data.map((d: any) => d['SUM(num)'])).toEqual([null, 280, 210]);
    r = await data({ columns: ['gender'], metrics: [SUM], orderby: [['gender', true]], post_processing: [{ operation: 'contribution', options: { orientation: 'column' } }] });
    expect(r.data.map((d: any) => d['SUM(num)'])).toEqual([160 / 360, 200 / 360]);
  });

  it('post-processing: aggregate then sort, diff, boxplot and histogram', async () => {
    // Sums by name: Adam 60, Carl 100 (boys); Beth 80, Dana 40, O'Hara 80 (girls).
    let r = await data({
      columns: ['gender', 'name'],
      metrics: [SUM],
      post_processing: [
        { operation: 'aggregate', options: { groupby: ['gender'], aggregates: { total: { column: 'SUM(num)', operator: 'sum' }, biggest: { column: 'SUM(num)', operator: 'max' }, names: { column: 'SUM(num)', operator: 'count' } } } },
        { operation: 'sort', options: { by: 'total', ascending: false } },
      ],
    });
    expect(r.colnames).toEqual(['gender', 'total', 'biggest', 'names']);
    expect(r.data.map((d: any) => [d.gender, Number(d.total), Number(d.biggest), d.names])).toEqual([['girl', 200, 80, 3], ['boy', 160, 100, 2]]);

    // Monthly sums 150, 130, 80: the difference from the month before.
    r = await data({
      columns: [{ label: 'ds', sqlExpression: 'ds', columnType: 'BASE_AXIS', timeGrain: 'P1M' }],
      metrics: [SUM],
      orderby: [[{ label: 'ds', sqlExpression: 'ds' }, true]],
      post_processing: [
        { operation: 'pivot', options: { index: ['ds'], aggregates: { 'SUM(num)': { operator: 'mean' } } } },
        { operation: 'diff', options: { columns: { 'SUM(num)': 'SUM(num)' }, periods: 1 } },
        { operation: 'flatten' },
      ],
    });
    expect(r.data.map((d: any) => [d.ds, d['SUM(num)']])).toEqual([[ms('2024-01-01'), null], [ms('2024-02-01'), -20], [ms('2024-03-01'), -50]]);

    // Box plot of the per-name sums by gender. Quartiles use numpy's midpoint interpolation, as Superset's do:
    // girls [40, 80, 80] give q1 60, q3 80 and whiskers 40..80; boys [60, 100] give q1 = q3 = 80, so with Tukey
    // whiskers (1.5 x IQR 0) both values are outliers and the whisker ends cross, exactly as Superset answers.
    r = await data({
      columns: ['gender', 'name'],
      metrics: [SUM],
      post_processing: [{ operation: 'boxplot', options: { groupby: ['gender'], metrics: ['SUM(num)'], whisker_type: 'tukey' } }],
    });
    const box = Object.fromEntries(r.data.map((d: any) => [d.gender, d]));
    expect(box.boy).toMatchObject({ 'SUM(num)__mean': 80, 'SUM(num)__median': 80, 'SUM(num)__q1': 80, 'SUM(num)__q3': 80, 'SUM(num)__min': 100, 'SUM(num)__max': 60, 'SUM(num)__count': 2 });
    expect([...box.boy['SUM(num)__outliers']].sort()).toEqual([100, 60]);
    expect(box.girl).toMatchObject({ 'SUM(num)__median': 80, 'SUM(num)__q1': 60, 'SUM(num)__q3': 80, 'SUM(num)__min': 40, 'SUM(num)__max': 80, 'SUM(num)__count': 3, 'SUM(num)__outliers': [] });
    expect(box.girl['SUM(num)__mean']).toBeCloseTo(200 / 3, 10);

    // Histogram of the same five sums in 3 bins of 20 between 40 and 100 (the last bin is closed).
    r = await data({ columns: ['name'], metrics: [SUM], post_processing: [{ operation: 'histogram', options: { column: 'SUM(num)', bins: 3 } }] });
    expect(r.data).toEqual([{ '40.0 - 60.0': 1, '60.0 - 80.0': 1, '80.0 - 100.0': 3 }]);
  });

  it('resample fills missing days with zero', async () => {
    const r = await data({
      columns: [{ label: 'ds', sqlExpression: 'ds', columnType: 'BASE_AXIS', timeGrain: 'P1D' }],
      metrics: [SUM],
      time_range: '2024-01-01 : 2024-01-09',
      granularity: 'ds',
      post_processing: [
        { operation: 'pivot', options: { index: ['ds'], aggregates: { 'SUM(num)': { operator: 'mean' } } } },
        { operation: 'resample', options: { method: 'asfreq', rule: '1D', fill_value: 0 } },
        { operation: 'flatten' },
      ],
    });
    expect(r.data.map((d: any) => d['SUM(num)'])).toEqual([30, 70, 0, 0, 0, 0, 0, 50]);
  });

  // Sums by day: 01-01 30, 01-02 70, 01-08 50, 02-01 60, 02-15 70, 03-01 80; by month 150, 130, 80;
  // by month and gender: boy 90, 70, (none); girl 60, 60, 80.
  const byAxis = async (grain: string, post: unknown[], extra: Record<string, unknown> = {}) => {
    const r = await data({
      columns: [{ label: 'ds', sqlExpression: 'ds', columnType: 'BASE_AXIS', timeGrain: grain }],
      metrics: [SUM],
      orderby: [[{ label: 'ds', sqlExpression: 'ds' }, true]],
      ...extra,
      post_processing: [{ operation: 'pivot', options: { index: ['ds'], aggregates: { 'SUM(num)': { operator: 'mean' } } } }, ...post, { operation: 'flatten' }],
    });
    return r.data as Array<Record<string, any>>;
  };
  const round6 = (x: unknown) => (typeof x === 'number' ? Math.round(x * 1e6) / 1e6 : x);

  it('rolling mean and std with window and min_periods (Superset keeps rows from the first that reaches min_periods)', async () => {
    const rolling = (options: Record<string, unknown>) => byAxis('P1M', [{ operation: 'rolling', options: { columns: { 'SUM(num)': 'SUM(num)' }, ...options } }]);
    // window 2, min_periods 1: Jan alone 150, then (150+130)/2, (130+80)/2; no row dropped
    expect((await rolling({ rolling_type: 'mean', window: 2, min_periods: 1 })).map((d) => [d.ds, d['SUM(num)']])).toEqual([[ms('2024-01-01'), 150], [ms('2024-02-01'), 140], [ms('2024-03-01'), 105]]);
    // window 3 without min_periods: pandas needs 3 values, so only March has a mean (120), and no row is dropped
    expect((await rolling({ rolling_type: 'mean', window: 3 })).map((d) => d['SUM(num)'])).toEqual([null, null, 120]);
    // sample std of (150, 130) = sqrt(200), of (130, 80) = sqrt(1250); min_periods 2 drops January only
    const std = await rolling({ rolling_type: 'std', window: 2, min_periods: 2 });
    expect(std.map((d) => d.ds)).toEqual([ms('2024-02-01'), ms('2024-03-01')]);
    expect(std.map((d) => round6(d['SUM(num)']))).toEqual([round6(Math.sqrt(200)), round6(Math.sqrt(1250))]);
  });

  it('cum: sum, min and max by day (cumsum/cummin/cummax), into new columns', async () => {
    const r = await byAxis('P1D', [
      { operation: 'cum', options: { operator: 'sum', columns: { 'SUM(num)': 'running' } } },
      { operation: 'cum', options: { operator: 'min', columns: { 'SUM(num)': 'low' } } },
      { operation: 'cum', options: { operator: 'max', columns: { 'SUM(num)': 'high' } } },
    ]);
    expect(r.map((d) => [d['SUM(num)'], d.running, d.low, d.high])).toEqual([
      [30, 30, 30, 30], [70, 100, 30, 70], [50, 150, 30, 70], [60, 210, 30, 70], [70, 280, 30, 70], [80, 360, 30, 80],
    ]);
  });

  it('contribution by column and by row over the monthly series per gender', async () => {
    const contribution = async (orientation: string) => {
      const r = await data({
        columns: [{ label: 'ds', sqlExpression: 'ds', columnType: 'BASE_AXIS', timeGrain: 'P1M' }, 'gender'],
        metrics: [SUM],
        post_processing: [
          { operation: 'pivot', options: { index: ['ds'], columns: ['gender'], aggregates: { 'SUM(num)': { operator: 'mean' } }, drop_missing_columns: false } },
          { operation: 'rename', options: { columns: { 'SUM(num)': null }, level: 0, inplace: true } },
          { operation: 'contribution', options: { orientation } },
          { operation: 'flatten' },
        ],
      });
      return r.data.map((d: any) => [d.ds, d.boy, d.girl]);
    };
    // column totals: boy 160 (March's missing value counts as 0), girl 200
    expect(await contribution('column')).toEqual([[ms('2024-01-01'), 90 / 160, 60 / 200], [ms('2024-02-01'), 70 / 160, 60 / 200], [ms('2024-03-01'), 0, 80 / 200]]);
    // row totals: 150, 130, 80; March's missing boy value stays empty
    expect(await contribution('row')).toEqual([[ms('2024-01-01'), 90 / 150, 60 / 150], [ms('2024-02-01'), 70 / 130, 60 / 130], [ms('2024-03-01'), null, 1]]);
  });

  it('resample by day: asfreq, asfreq with fill_value, ffill, bfill and linear; by week: sum; by month start: linear by position', async () => {
    const firstWeek = { time_range: '2024-01-01 : 2024-01-09', granularity: 'ds' };
    const resample = async (options: Record<string, unknown>, grain = 'P1D', extra: Record<string, unknown> = firstWeek) =>
      (await byAxis(grain, [{ operation: 'resample', options }], extra)).map((d) => round6(d['SUM(num)']));
    expect(await resample({ method: 'asfreq', rule: '1D' })).toEqual([30, 70, null, null, null, null, null, 50]);
    expect(await resample({ method: 'asfreq', rule: '1D', fill_value: 5 })).toEqual([30, 70, 5, 5, 5, 5, 5, 50]);
    expect(await resample({ method: 'ffill', rule: '1D' })).toEqual([30, 70, 70, 70, 70, 70, 70, 50]);
    expect(await resample({ method: 'bfill', rule: '1D' })).toEqual([30, 70, 50, 50, 50, 50, 50, 50]);
    // 70 down to 50 over six days
    expect(await resample({ method: 'linear', rule: '1D' })).toEqual([30, 70, ...[1, 2, 3, 4, 5].map((k) => round6(70 - (20 * k) / 6)), 50]);
    // weeks ending Sunday: 01-07 holds 30+70, 01-14 holds 50, then empty weeks sum to 0
    const weekly = await byAxis('P1D', [{ operation: 'resample', options: { method: 'sum', rule: 'W' } }]);
    expect(weekly.map((d) => [d.ds, d['SUM(num)']])).toEqual([
      [ms('2024-01-07'), 100], [ms('2024-01-14'), 50], [ms('2024-01-21'), 0], [ms('2024-01-28'), 0], [ms('2024-02-04'), 60],
      [ms('2024-02-11'), 0], [ms('2024-02-18'), 70], [ms('2024-02-25'), 0], [ms('2024-03-03'), 80],
    ]);
    // Without Beth and Carl February is empty: Jan 100, Mar 80; pandas interpolates by position, so Feb is 90
    expect(await resample({ method: 'linear', rule: 'MS' }, 'P1M', { filters: [{ col: 'name', op: 'NOT IN', val: ['Beth', 'Carl'] }] })).toEqual([100, 90, 80]);
  });

  it("time_offsets '1 year ago' joins last year's months; compare values, difference, percentage and ratio", async () => {
    // births plus two rows a year earlier: 2023-01-15 15 and 2023-02-10 65
    const ts = (v: string) => (engine === 'sqlite' ? `'${v}'` : engine === 'mysql' ? `CAST('${v}' AS DATETIME)` : `CAST('${v}' AS TIMESTAMP)`);
    const sql = `SELECT ds, num FROM births UNION ALL SELECT ${ts('2023-01-15 00:00:00')}, 15 UNION ALL SELECT ${ts('2023-02-10 00:00:00')}, 65`;
    const created = await t.http.post('/api/v1/dataset/').set(bearer(admin)).send({ database: dbId, table_name: `births_with_2023_${engine}`, sql });
    expect(created.status).toBe(201);
    const id = created.body.id;
    const columns = created.body.data.columns.map((c: any) => ({ id: c.id, column_name: c.column_name, type: c.type, is_dttm: c.column_name === 'ds' }));
    expect((await t.http.put(`/api/v1/dataset/${id}`).set(bearer(admin)).send({ columns })).status).toBe(200);
    const shifted = 'SUM(num)__1 year ago';
    const compareOp = (compare_type: string) => ({ operation: 'compare', options: { source_columns: ['SUM(num)'], compare_columns: [shifted], compare_type, drop_original_columns: false } });
    const res = await t.http.post('/api/v1/chart/data').set(bearer(admin)).send({
      datasource: { id, type: 'table' }, force: true, result_format: 'json', result_type: 'full',
      queries: [{
        columns: [{ label: 'ds', sqlExpression: 'ds', columnType: 'BASE_AXIS', timeGrain: 'P1M' }],
        metrics: [SUM],
        time_range: '2024-01-01 : 2024-03-01',
        granularity: 'ds',
        time_offsets: ['1 year ago'],
        orderby: [[{ label: 'ds', sqlExpression: 'ds' }, true]],
        post_processing: [
          { operation: 'pivot', options: { index: ['ds'], aggregates: { 'SUM(num)': { operator: 'mean' }, [shifted]: { operator: 'mean' } } } },
          compareOp('difference'), compareOp('percentage'), compareOp('ratio'),
          { operation: 'flatten' },
        ],
      }],
    });
    if (res.status !== 200) throw new Error(`${res.status} ${res.text}`);
    const r = res.body.result[0];
    // values: Jan 150 vs 15, Feb 130 vs 65
    expect(r.data.map((d: any) => [d.ds, d['SUM(num)'], d[shifted], d[`difference__SUM(num)__${shifted}`], d[`percentage__SUM(num)__${shifted}`], d[`ratio__SUM(num)__${shifted}`]])).toEqual([
      [ms('2024-01-01'), 150, 15, 135, 9, 10],
      [ms('2024-02-01'), 130, 65, 65, 1, 2],
    ]);
    expect(r.label_map[shifted]).toEqual(['SUM(num)', '1 year ago']);
  });

  it('time comparison through time_offsets, then compare difference and percentage', async () => {
    const r = await data({
      columns: [{ label: 'ds', sqlExpression: 'ds', columnType: 'BASE_AXIS', timeGrain: 'P1M' }],
      metrics: [SUM],
      time_range: '2024-02-01 : 2024-04-01',
      granularity: 'ds',
      time_offsets: ['1 month ago'],
      orderby: [[{ label: 'ds', sqlExpression: 'ds' }, true]],
      post_processing: [
        { operation: 'pivot', options: { index: ['ds'], aggregates: { 'SUM(num)': { operator: 'mean' }, 'SUM(num)__1 month ago': { operator: 'mean' } } } },
        { operation: 'compare', options: { source_columns: ['SUM(num)'], compare_columns: ['SUM(num)__1 month ago'], compare_type: 'difference', drop_original_columns: false } },
        { operation: 'compare', options: { source_columns: ['SUM(num)'], compare_columns: ['SUM(num)__1 month ago'], compare_type: 'percentage', drop_original_columns: false } },
        { operation: 'flatten' },
      ],
    });
    expect(r.data.map((d: any) => [d.ds, d['SUM(num)'], d['SUM(num)__1 month ago'], d['difference__SUM(num)__SUM(num)__1 month ago'], d['percentage__SUM(num)__SUM(num)__1 month ago']])).toEqual([
      [ms('2024-02-01'), 130, 150, -20, -0.1333],
      [ms('2024-03-01'), 80, 130, -50, -0.3846],
    ]);
    expect(r.label_map['SUM(num)__1 month ago']).toEqual(['SUM(num)', '1 month ago']);
  });

  it('result types: query, results, samples, columns, drill_detail', async () => {
    const q = { columns: ['gender'], metrics: [SUM], filters: [{ col: 'gender', op: '==', val: 'boy' }] };
    let res = await chartData([q], { result_type: 'query' });
    expect(res.body.result[0].language).toBe('sql');
    expect(res.body.result[0].query).toContain("= 'boy'");
    res = await chartData([q], { result_type: 'results' });
    expect(res.body.result[0]).toMatchObject({ colnames: ['gender', 'SUM(num)'], rowcount: 1 });
    expect(Object.keys(res.body.result[0]).sort()).toEqual(['colnames', 'coltypes', 'data', 'rowcount', 'sql_rowcount']);
    res = await chartData([q], { result_type: 'samples' });
    expect(res.body.result[0].colnames).toEqual(['ds', 'gender', 'name', 'num', 'flag']);
    expect(res.body.result[0].rowcount).toBe(4);
    res = await chartData([q], { result_type: 'columns' });
    expect(res.body.result[0].data.map((c: any) => c.column_name)).toEqual(['ds', 'gender', 'name', 'num', 'flag']);
    res = await chartData([{ ...q, row_limit: 2 }], { result_type: 'drill_detail' });
    expect(res.body.result[0]).toMatchObject({ rowcount: 2, total_count: 4 });
  });

  it('csv and xlsx exports carry the same numbers', async () => {
    const q = { columns: ['gender'], metrics: [SUM], orderby: [['gender', true]] };
    const csv = await chartData([q], { result_format: 'csv' });
    expect(csv.status).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.text.trim().split('\n')).toEqual(['gender,SUM(num)', 'boy,160', 'girl,200']);
    const xlsx = await chartData([q], { result_format: 'xlsx' }).buffer(true).parse((r, cb) => {
      const chunks: Buffer[] = [];
      r.on('data', (c: Buffer) => chunks.push(c));
      r.on('end', () => cb(null, Buffer.concat(chunks)));
    });
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(xlsx.body as Buffer);
    const sheet = wb.worksheets[0];
    expect([sheet.getRow(2).values, sheet.getRow(3).values].map((v: any) => [v[1], Number(v[2])])).toEqual([['boy', 160], ['girl', 200]]);
  });

  it('caches by the normalised query; force bypasses', async () => {
    const q = { columns: ['name'], metrics: [SUM], filters: [{ col: 'gender', op: '==', val: 'girl' }] };
    const first = await chartData([q], { force: false });
    const second = await chartData([q], { force: false });
    expect(first.body.result[0].cache_key).toBe(second.body.result[0].cache_key);
    expect(second.body.result[0].is_cached).toBe(true);
    expect(second.body.result[0].data).toEqual(first.body.result[0].data);
    const forced = await chartData([q], { force: true });
    expect(forced.body.result[0].is_cached).toBe(false);
    const other = await chartData([{ ...q, filters: [{ col: 'gender', op: '==', val: 'boy' }] }], { force: false });
    expect(other.body.result[0].cache_key).not.toBe(first.body.result[0].cache_key);
  });

  it('injection through filters, metrics, orderby and columns is refused or inert', async () => {
    expect(await total([{ col: 'name', op: '==', val: "x' OR '1'='1" }])).toBe(0);
    expect(await total([{ col: 'name', op: 'IN', val: ["Adam'); DROP TABLE births; --"] }])).toBe(0);
    expect(await total([{ col: 'name', op: 'LIKE', val: "%' OR 1=1 --" }])).toBe(0);
    const rejected = await data({ metrics: [SUM], filters: [{ col: 'name = name OR 1', op: '==', val: 1 }] });
    expect(rejected.rejected_filters).toEqual([{ column: 'name = name OR 1', reason: 'not_in_datasource' }]);
    expect(Number(rejected.data[0]['SUM(num)'])).toBe(360);
    let res = await chartData([{ metrics: [{ expressionType: 'SQL', sqlExpression: '(SELECT COUNT(*) FROM births)', label: 'x' }] }]);
    expect(res.status).toBe(400);
    expect(res.body.errors[0].error_type).toBe('ADHOC_SUBQUERY_NOT_ALLOWED_ERROR');
    res = await chartData([{ metrics: [SUM], extras: { where: '1=1; DROP TABLE births' } }]);
    expect(res.status).toBe(400);
    expect(res.body.errors[0].error_type).toBe('INVALID_SQL_ERROR');
    res = await chartData([{ columns: ['name'], metrics: [SUM], orderby: [['num; DROP TABLE births', true]] }]);
    expect(res.status).toBe(400);
    res = await chartData([{ columns: ['name"; DROP TABLE births; --'], metrics: [SUM] }]);
    expect(res.status).toBe(400);
    expect(res.body.errors[0].error_type).toBe('COLUMN_DOES_NOT_EXIST_ERROR');
    res = await chartData([{ metrics: [{ expressionType: 'SIMPLE', column: { column_name: 'num) FROM births; --' }, aggregate: 'SUM' }] }]);
    expect(res.status).toBe(400);
    expect(await total([])).toBe(360);
  });

  it('the legacy /superset/explore_json/ answers form data', async () => {
    const formData = { datasource: `${datasetId}__table`, viz_type: 'table', groupby: ['gender'], metrics: [SUM], adhoc_filters: [{ expressionType: 'SIMPLE', clause: 'WHERE', subject: 'num', operator: '>', comparator: 20 }], row_limit: 10, time_range: 'No filter' };
    const res = await t.http.post('/superset/explore_json/').set(bearer(admin)).type('form').send({ form_data: JSON.stringify(formData) });
    expect(res.status).toBe(200);
    expect(res.body.data.map((d: any) => [d.gender, Number(d['SUM(num)'])]).sort()).toEqual([['boy', 150], ['girl', 180]]);
    expect(res.body.form_data.viz_type).toBe('table');
  });

  it('/superset/explore_json/?csv=true answers the rows as CSV; ?query=true answers the SQL only', async () => {
    const formData = { datasource: `${datasetId}__table`, viz_type: 'table', groupby: ['gender'], metrics: [SUM], adhoc_filters: [{ expressionType: 'SIMPLE', clause: 'WHERE', subject: 'num', operator: '>', comparator: 20 }], orderby: [['gender', true]], row_limit: 10, time_range: 'No filter' };
    const csv = await t.http.post('/superset/explore_json/').query({ csv: 'true' }).set(bearer(admin)).type('form').send({ form_data: JSON.stringify(formData) });
    expect(csv.status, csv.text).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.headers['content-disposition']).toMatch(/^attachment; filename="?[^"]+\.csv"?$/);
    expect(csv.text.trim().split(/\r?\n/).slice(1).sort()).toEqual(['boy,150', 'girl,180']);
    expect(csv.text.split(/\r?\n/)[0]).toBe('gender,SUM(num)');
    const query = await t.http.post('/superset/explore_json/').query({ query: 'true' }).set(bearer(admin)).type('form').send({ form_data: JSON.stringify(formData) });
    expect(query.status, query.text).toBe(200);
    expect(Object.keys(query.body).sort()).toEqual(['language', 'query']);
    expect(query.body.language).toBe('sql');
    expect(query.body.query).toMatch(/SUM\(.*num.*\)/i);
    expect(query.body.query).toMatch(/> 20/);
    expect(query.body.query).toMatch(/GROUP BY/i);
    // The SQL it shows is the SQL that runs: the same sums come back through SQL Lab.
    const ran = await t.http.post('/api/v1/sqllab/execute/').set(bearer(admin)).send({ database_id: dbId, client_id: clientId(), sql: query.body.query });
    expect(ran.status, ran.text).toBe(200);
    expect(ran.body.data.map((d: any) => [d.gender, Number(Object.values(d)[1])]).sort()).toEqual([['boy', 150], ['girl', 180]]);
  });
});
