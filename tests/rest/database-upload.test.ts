import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app';
import { createMysqlDatabase, createPostgresDatabase } from '../../query-worker/src/testing/test-databases.ts';
import { bearer, registerDatabase, waitFor } from './sqllab.helpers';

const TABLE_EXISTS = "Table already exists. You can change your 'if table already exists' strategy to append or replace or provide a different Table Name to use.";

// Issue 14: POST /api/v1/database/{pk}/upload/ and upload_metadata/ for CSV, Excel and columnar files, into
// DuckDB, PostgreSQL and MariaDB; the table gets a dataset; bad files and bad forms get clear errors.
describe('/api/v1/database/{pk}/upload/ and /api/v1/database/upload_metadata/', () => {
  let t: TestApp;
  let admin: string;
  let dir: string;
  let duck: number;
  let pgDb: Awaited<ReturnType<typeof createPostgresDatabase>>;
  let pg: number;
  let mariaDb: Awaited<ReturnType<typeof createMysqlDatabase>>;
  let maria: number;

  const upload = (db: number, file: string, fields: Record<string, string>, token = admin) => {
    let req = t.http.post(`/api/v1/database/${db}/upload/`).set(bearer(token));
    for (const [k, v] of Object.entries(fields)) req = req.field(k, v);
    return req.attach('file', file);
  };
  /** Runs SQL in SQL Lab and answers its rows. */
  const rows = async (db: number, sql: string) => {
    const res = await t.http.post('/api/v1/sqllab/execute/').set(bearer(admin)).send({ database_id: db, sql, runAsync: false, queryLimit: 1000 });
    expect(res.status, res.text).toBe(200);
    return res.body.data as Record<string, unknown>[];
  };
  const dataset = async (db: number, table: string) =>
    (await t.http.get('/api/v1/dataset/').query({ q: `(filters:!((col:table_name,opr:eq,value:${table}),(col:database,opr:rel_o_m,value:${db})))` }).set(bearer(admin))).body.result[0] as { id: number } | undefined;

  beforeAll(async () => {
    t = await startTestApp();
    admin = await t.token();
    dir = mkdtempSync(join(tmpdir(), 'meridian-upload-'));
    duck = await registerDatabase(t, admin, { database_name: 'uploads', sqlalchemy_uri: `duckdb:///${join(dir, 'uploads.duckdb')}`, allow_file_upload: true, allow_dml: true });
    [pgDb, mariaDb] = await Promise.all([createPostgresDatabase(), createMysqlDatabase()]);
    pg = await registerDatabase(t, admin, { database_name: 'pg_uploads', sqlalchemy_uri: pgDb.uri, allow_file_upload: true });
    maria = await registerDatabase(t, admin, { database_name: 'maria_uploads', sqlalchemy_uri: mariaDb.uri, allow_file_upload: true });

    writeFileSync(join(dir, 'sales.csv'), 'region,units,price,sold_on\nNorth,3,9.5,2024-01-02\nSouth,N/A,12.25,2024-02-03\n"West, far",7,1.5,2024-03-04\n');
    writeFileSync(join(dir, 'euro.csv'), 'title;amount;day\nintro;1,5;03/02/2024\n# note\nfinal;2,25;04/02/2024\n'.replace('# note\n', ''));
    writeFileSync(join(dir, 'notes.txt'), 'just text');
    const lines = ['id,name,score'];
    for (let i = 0; i < 25_000; i++) lines.push(`${i},name ${i},${(i % 100) / 4}`);
    writeFileSync(join(dir, 'many.csv'), `${lines.join('\n')}\n`);
    const workbook = new ExcelJS.Workbook();
    const first = workbook.addWorksheet('Targets');
    first.addRow(['team', 'goal', 'due']);
    first.addRow(['Red', 10, new Date(Date.UTC(2024, 4, 1))]);
    first.addRow(['Blue', 12.5, new Date(Date.UTC(2024, 5, 1))]);
    workbook.addWorksheet('Other').addRow(['a', 'b']);
    await workbook.xlsx.writeFile(join(dir, 'targets.xlsx'));
    const instance = await DuckDBInstance.create(':memory:');
    const connection = await instance.connect();
    await connection.run(`COPY (SELECT range AS n, 'item ' || range AS label, range * 1.5 AS weight FROM range(40)) TO '${join(dir, 'items.parquet')}' (FORMAT parquet)`);
    connection.closeSync();
    instance.closeSync();
  });
  afterAll(async () => {
    await t?.close();
    await pgDb?.drop();
    await mariaDb?.drop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('uploads a CSV into DuckDB with its types and null values, makes a dataset, and fails, appends or replaces when the table exists', async () => {
    const res = await upload(duck, join(dir, 'sales.csv'), { type: 'csv', table_name: 'sales', null_values: 'N/A', column_dates: 'sold_on' });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toEqual({ message: 'OK' });
    expect(await rows(duck, 'SELECT region, units, price, CAST(sold_on AS VARCHAR) AS sold_on FROM sales ORDER BY region')).toEqual([
      { region: 'North', units: 3, price: 9.5, sold_on: '2024-01-02 00:00:00' },
      { region: 'South', units: null, price: 12.25, sold_on: '2024-02-03 00:00:00' },
      { region: 'West, far', units: 7, price: 1.5, sold_on: '2024-03-04 00:00:00' },
    ]);
    const ds = await dataset(duck, 'sales');
    expect(ds).toBeDefined();
    const columns = (await t.http.get(`/api/v1/dataset/${ds!.id}`).set(bearer(admin))).body.result.columns as Array<{ column_name: string; is_dttm: boolean }>;
    expect(columns.map((c) => c.column_name).sort()).toEqual(['price', 'region', 'sold_on', 'units']);
    expect(columns.find((c) => c.column_name === 'sold_on')!.is_dttm).toBe(true);

    const again = await upload(duck, join(dir, 'sales.csv'), { type: 'csv', table_name: 'sales' });
    expect(again.status).toBe(422);
    expect(again.body.message).toBe(TABLE_EXISTS);
    expect((await upload(duck, join(dir, 'sales.csv'), { type: 'csv', table_name: 'sales', already_exists: 'append', null_values: 'N/A', column_dates: 'sold_on' })).status).toBe(201);
    expect(await rows(duck, 'SELECT count(*) AS n FROM sales')).toEqual([{ n: 6 }]);
    expect((await upload(duck, join(dir, 'many.csv'), { type: 'csv', table_name: 'sales', already_exists: 'replace' })).status).toBe(201);
    expect(await rows(duck, 'SELECT count(*) AS n, sum(id) AS s, max(score) AS top FROM sales')).toEqual([{ n: 25_000, s: (25_000 * 24_999) / 2, top: 24.75 }]);
    // The dataset follows the replaced table's columns; still one dataset.
    await waitFor('refreshed columns', async () => {
      const cols = (await t.http.get(`/api/v1/dataset/${ds!.id}`).set(bearer(admin))).body.result.columns as Array<{ column_name: string }>;
      return cols.map((c) => c.column_name).sort().join() === 'id,name,score';
    });
  });

  it('reads delimiter, decimal character, day-first dates, rows to read and columns to read', async () => {
    const res = await upload(duck, join(dir, 'euro.csv'), { type: 'csv', table_name: 'euro', delimiter: ';', decimal_character: ',', day_first: 'true', column_dates: 'day', columns_read: 'title,amount,day' });
    expect(res.status, res.text).toBe(201);
    expect(await rows(duck, 'SELECT title, amount, CAST(day AS VARCHAR) AS day FROM euro ORDER BY title')).toEqual([
      { title: 'final', amount: 2.25, day: '2024-02-04 00:00:00' },
      { title: 'intro', amount: 1.5, day: '2024-02-03 00:00:00' },
    ]);
    expect((await upload(duck, join(dir, 'many.csv'), { type: 'csv', table_name: 'few', rows_to_read: '10', columns_read: 'name' })).status).toBe(201);
    expect(await rows(duck, 'SELECT count(*) AS n FROM few')).toEqual([{ n: 10 }]);
    expect(Object.keys((await rows(duck, 'SELECT * FROM few LIMIT 1'))[0]!)).toEqual(['name']);
  });

  it('uploads an Excel sheet into PostgreSQL and a Parquet file into MariaDB', async () => {
    const xlsx = await upload(pg, join(dir, 'targets.xlsx'), { type: 'excel', table_name: 'targets', schema: 'public', sheet_name: 'Targets' });
    expect(xlsx.status, xlsx.text).toBe(201);
    expect(await rows(pg, "SELECT team, goal, to_char(due, 'YYYY-MM-DD') AS due FROM public.targets ORDER BY team")).toEqual([
      { team: 'Blue', goal: 12.5, due: '2024-06-01' },
      { team: 'Red', goal: 10, due: '2024-05-01' },
    ]);
    const parquet = await upload(maria, join(dir, 'items.parquet'), { type: 'columnar', table_name: 'items' });
    expect(parquet.status, parquet.text).toBe(201);
    expect(await rows(maria, 'SELECT count(*) AS n, sum(n) AS s, max(label) AS last FROM items')).toEqual([{ n: 40, s: 780, last: 'item 9' }]);
    expect(await dataset(maria, 'items')).toBeDefined();
  });

  it('uploads CSVs into PostgreSQL through COPY: awkward text kept, appends in one go, a bad file leaves the table as it was', async () => {
    writeFileSync(join(dir, 'notes.csv'), 'id,note,flag\n1,"tab\there",true\n2,"two\nlines",false\n3,"back\\slash and \\N",\n');
    const first = await upload(pg, join(dir, 'notes.csv'), { type: 'csv', table_name: 'notes', schema: 'public' });
    expect(first.status, first.text).toBe(201);
    expect(await rows(pg, 'SELECT id, note, flag FROM public.notes ORDER BY id')).toEqual([
      { id: 1, note: 'tab\there', flag: true },
      { id: 2, note: 'two\nlines', flag: false },
      { id: 3, note: 'back\\slash and \\N', flag: null },
    ]);
    expect((await upload(pg, join(dir, 'notes.csv'), { type: 'csv', table_name: 'notes', schema: 'public', already_exists: 'append' })).status).toBe(201);
    expect(await rows(pg, 'SELECT count(*)::int AS n FROM public.notes')).toEqual([{ n: 6 }]);
    expect((await upload(pg, join(dir, 'many.csv'), { type: 'csv', table_name: 'many', schema: 'public' })).status).toBe(201);
    expect(await rows(pg, 'SELECT count(*)::int AS n, sum(id)::bigint AS s FROM public.many')).toEqual([{ n: 25_000, s: (25_000 * 24_999) / 2 }]);
    // A file DuckDB cannot read as asked: the upload fails and the existing table keeps its rows.
    const bad = await upload(pg, join(dir, 'sales.csv'), { type: 'csv', table_name: 'notes', schema: 'public', already_exists: 'replace', column_data_types: '{"region": "int"}' });
    expect(bad.status).toBe(422);
    expect(await rows(pg, 'SELECT count(*)::int AS n FROM public.notes')).toEqual([{ n: 6 }]);
  });

  it("answers a file's column names, per sheet for a workbook", async () => {
    const csv = await t.http.post('/api/v1/database/upload_metadata/').set(bearer(admin)).field('type', 'csv').attach('file', join(dir, 'sales.csv'));
    expect(csv.status, csv.text).toBe(200);
    expect(csv.body).toEqual({ result: { items: [{ column_names: ['region', 'units', 'price', 'sold_on'] }] } });
    const xlsx = await t.http.post('/api/v1/database/upload_metadata/').set(bearer(admin)).field('type', 'excel').attach('file', join(dir, 'targets.xlsx'));
    expect(xlsx.body.result.items).toEqual([
      { sheet_name: 'Targets', column_names: ['team', 'goal', 'due'] },
      { sheet_name: 'Other', column_names: ['a', 'b'] },
    ]);
  });

  it('refuses bad forms, bad files, databases without uploads and callers without the permission', async () => {
    const noTable = await upload(duck, join(dir, 'sales.csv'), { type: 'csv' });
    expect(noTable.status).toBe(400);
    expect(noTable.body.message).toEqual({ table_name: ['Missing data for required field.'] });
    const ext = await upload(duck, join(dir, 'notes.txt'), { type: 'excel', table_name: 'x' });
    expect(ext.status).toBe(400);
    expect(ext.body.message).toEqual({ file: ['File extension is not allowed.'] });
    const noFile = await t.http.post(`/api/v1/database/${duck}/upload/`).set(bearer(admin)).field('type', 'csv').field('table_name', 'x');
    expect(noFile.status).toBe(400);
    expect(noFile.body.message).toEqual({ file: ['Missing data for required field.'] });
    const badTypes = await upload(duck, join(dir, 'sales.csv'), { type: 'csv', table_name: 'x', column_data_types: '{"region": ' });
    expect(badTypes.status).toBe(400);
    const garbled = await upload(duck, join(dir, 'sales.csv'), { type: 'csv', table_name: 'garbled', column_data_types: '{"region": "int"}' });
    expect(garbled.status).toBe(422);
    expect(garbled.body.message).toMatch(/^Parsing error: /);
    expect((await rows(duck, "SELECT count(*) AS n FROM information_schema.tables WHERE table_name LIKE 'garbled%'"))[0]).toEqual({ n: 0 });
    const notParquet = await upload(duck, join(dir, 'sales.csv').replace('sales.csv', 'notes.txt'), { type: 'columnar', table_name: 'x' });
    expect(notParquet.status).toBe(400);

    const closed = await registerDatabase(t, admin, { database_name: 'no_uploads', sqlalchemy_uri: `duckdb:///${join(dir, 'closed.duckdb')}` });
    const refused = await upload(closed, join(dir, 'sales.csv'), { type: 'csv', table_name: 'sales' });
    expect(refused.status).toBe(422);
    expect(refused.body.message).toBe('Database or schema does not allow file uploads.');
    const gamma = await t.userWithRoles('gamma_upload', ['Gamma']);
    expect((await upload(duck, join(dir, 'sales.csv'), { type: 'csv', table_name: 'sales2' }, gamma)).status).toBe(403);
    expect((await upload(9999, join(dir, 'sales.csv'), { type: 'csv', table_name: 'sales2' })).status).toBe(404);
  });
});
