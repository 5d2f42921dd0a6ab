import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureTestExamples } from '../helpers/examples';
import { ensureExampleDatasets } from '../../server/src/dataset/example-datasets';
import { startTestApp, type TestApp } from '../helpers/app';
import { createPgDatabase } from '../helpers/pg';
import { bearer, registerDatabase } from './sqllab.helpers';

const MARIADB_URL = process.env.TEST_MARIADB_URL ?? 'mysql://root@127.0.0.1:3306';

// Issue 14: the database endpoints scripts call around SQL Lab, on the examples (DuckDB), PostgreSQL and MariaDB.
describe('/api/v1/database/{pk}: function names, related objects, upload schemas, table metadata, validate SQL', () => {
  let t: TestApp;
  let admin: string;
  let dir: string;
  let examples: number;
  let pgDb: Awaited<ReturnType<typeof createPgDatabase>>;
  let pgId: number;
  let mariaName: string;
  let mariaId: number;
  const get = (path: string) => t.http.get(path).set(bearer(admin));

  beforeAll(async () => {
    t = await startTestApp();
    admin = await t.token();
    dir = mkdtempSync(join(tmpdir(), 'meridian-dbextra-'));
    examples = (await ensureTestExamples(t.services, { path: join(dir, 'examples.duckdb'), salesRows: 50 })).id;
    await ensureExampleDatasets(t.services);
    pgDb = await createPgDatabase();
    pgId = await registerDatabase(t, admin, { database_name: 'pg_extra', sqlalchemy_uri: pgDb.url });
    mariaName = `meridian_extra_${Date.now().toString(36)}`;
    const conn = await mysql.createConnection(MARIADB_URL);
    await conn.query(`CREATE DATABASE ${mariaName}`);
    await conn.query(`CREATE FUNCTION ${mariaName}.twice(x INT) RETURNS INT DETERMINISTIC RETURN x * 2`);
    await conn.end();
    mariaId = await registerDatabase(t, admin, { database_name: 'maria_extra', sqlalchemy_uri: `${MARIADB_URL}/${mariaName}` });
  });
  afterAll(async () => {
    await t?.close();
    await pgDb?.drop();
    if (mariaName) {
      const conn = await mysql.createConnection(MARIADB_URL);
      await conn.query(`DROP DATABASE IF EXISTS ${mariaName}`);
      await conn.end();
    }
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("lists each engine's function names", async () => {
    const duck = await get(`/api/v1/database/${examples}/function_names/`);
    expect(duck.status).toBe(200);
    expect(duck.body.function_names).toEqual(expect.arrayContaining(['sum', 'date_trunc', 'regexp_matches']));
    expect((await get(`/api/v1/database/${pgId}/function_names/`)).body.function_names).toEqual(expect.arrayContaining(['lower', 'generate_series', 'date_trunc']));
    expect((await get(`/api/v1/database/${mariaId}/function_names/`)).body.function_names).toContain('twice');
    expect((await get('/api/v1/database/99999/function_names/')).status).toBe(404);
  });

  it('lists the charts, dashboards and SQL Lab tabs that use a database', async () => {
    const dataset = (await get('/api/v1/dataset/?q=(filters:!((col:table_name,opr:eq,value:birth_names)))')).body.ids[0];
    const chart = await t.http.post('/api/v1/chart/').set(bearer(admin)).send({ slice_name: 'Uses examples', viz_type: 'table', datasource_id: dataset, datasource_type: 'table', params: '{}' });
    const dashboard = await t.http.post('/api/v1/dashboard/').set(bearer(admin)).send({ dashboard_title: 'Examples board', slug: 'examples-board' });
    await t.http.put(`/api/v1/dashboard/${dashboard.body.id}`).set(bearer(admin)).send({ json_metadata: JSON.stringify({ positions: {} }), position_json: JSON.stringify({ 'CHART-1': { type: 'CHART', id: 'CHART-1', children: [], meta: { chartId: chart.body.id } } }) });
    await t.http.put(`/api/v1/chart/${chart.body.id}`).set(bearer(admin)).send({ dashboards: [dashboard.body.id] });
    const tab = await t.http.post('/tabstateview/').set(bearer(admin)).type('form').send({ queryEditor: JSON.stringify({ title: 'On examples', dbId: examples, schema: 'main', sql: 'SELECT 1', autorun: false }) });
    expect(tab.status).toBe(200);
    const related = await get(`/api/v1/database/${examples}/related_objects/`);
    expect(related.status).toBe(200);
    expect(related.body.charts.result).toContainEqual({ id: chart.body.id, slice_name: 'Uses examples', viz_type: 'table' });
    expect(related.body.dashboards.result).toContainEqual(expect.objectContaining({ id: dashboard.body.id, title: 'Examples board', slug: 'examples-board' }));
    expect(related.body.sqllab_tab_states.result).toContainEqual({ id: tab.body.id, label: expect.any(String), active: true });
    expect((await get(`/api/v1/database/${pgId}/related_objects/`)).body).toEqual({ charts: { count: 0, result: [] }, dashboards: { count: 0, result: [] }, sqllab_tab_states: { count: 0, result: [] } });
  });

  it('answers the schemas open to file upload: none while uploads are off, the allowed ones when listed', async () => {
    expect((await get(`/api/v1/database/${pgId}/schemas_access_for_file_upload/`)).body).toEqual({ schemas: [] });
    await t.http.put(`/api/v1/database/${pgId}`).set(bearer(admin)).send({ allow_file_upload: true });
    expect((await get(`/api/v1/database/${pgId}/schemas_access_for_file_upload/`)).body.schemas).toEqual(expect.arrayContaining(['public', 'information_schema']));
    await t.http.put(`/api/v1/database/${pgId}`).set(bearer(admin)).send({ extra: JSON.stringify({ schemas_allowed_for_file_upload: ['PUBLIC'] }) });
    expect((await get(`/api/v1/database/${pgId}/schemas_access_for_file_upload/`)).body).toEqual({ schemas: ['public'] });
  });

  it("answers Superset's older table and table_extra endpoints like table_metadata", async () => {
    const table = await get(`/api/v1/database/${examples}/table/birth_names/main/`);
    expect(table.status).toBe(200);
    expect(table.body).toMatchObject({ name: 'birth_names', selectStar: expect.stringContaining('birth_names') });
    expect(table.body.columns.map((c: { name: string }) => c.name)).toContain('num');
    expect(table.body).toEqual((await get(`/api/v1/database/${examples}/table_metadata/?name=birth_names&schema=main`)).body);
    expect((await get(`/api/v1/database/${examples}/table_extra/birth_names/main/`)).body).toEqual({});
    expect((await get(`/api/v1/database/${examples}/table/no_such_table/main/`)).status).toBe(404);
  });

  it('validates SQL in the PostgreSQL and MySQL dialects, with the place of each error; other engines have no validator', async () => {
    const ok = await t.http.post(`/api/v1/database/${pgId}/validate_sql/`).set(bearer(admin)).send({ sql: 'SELECT 1 AS one', schema: 'public' });
    expect(ok.body).toEqual({ result: [] });
    const bad = await t.http.post(`/api/v1/database/${pgId}/validate_sql/`).set(bearer(admin)).send({ sql: 'SELECT 1\nFROM', schema: 'public' });
    expect(bad.body.result).toEqual([expect.objectContaining({ line_number: 2, message: 'syntax error at or near end of input' })]);
    expect((await t.http.post(`/api/v1/database/${mariaId}/validate_sql/`).set(bearer(admin)).send({ sql: 'SELECT `a` FROM t WHERE' })).body.result).toHaveLength(1);
    const duck = await t.http.post(`/api/v1/database/${examples}/validate_sql/`).set(bearer(admin)).send({ sql: 'SELECT 1' });
    expect(duck.status).toBe(422);
    expect(duck.body.errors[0].message).toBe('no SQL validator is configured for DuckDB');
    expect((await t.http.post(`/api/v1/database/${pgId}/validate_sql/`).set(bearer(admin)).send({})).status).toBe(400);
  });
});
