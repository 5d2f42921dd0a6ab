import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureTestExamples } from '../helpers/examples';
import { startTestApp, type TestApp } from '../helpers/app';
import { bearer, clientId, registerDatabase } from './sqllab.helpers';

describe('SQL Lab on DuckDB and the examples database', () => {
  let t: TestApp;
  let admin: string;
  let dir: string;
  let duck: number;
  let examples: number;

  beforeAll(async () => {
    t = await startTestApp();
    admin = await t.token();
    dir = mkdtempSync(join(tmpdir(), 'meridian-duck-'));
    duck = await registerDatabase(t, admin, { database_name: 'duck', sqlalchemy_uri: `duckdb:///${join(dir, 'a.duckdb')}`, allow_dml: true, allow_ctas: true, allow_cvas: true, allow_run_async: true });
    ({ id: examples } = await ensureTestExamples(t.services, { path: join(dir, 'examples.duckdb'), salesRows: 2000 }));
  });
  afterAll(async () => {
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('registers the examples database idempotently', async () => {
    const again = await ensureTestExamples(t.services, { path: join(dir, 'examples.duckdb') });
    expect(again).toMatchObject({ id: examples, built: false, created: false });
    const res = await t.http.get(`/api/v1/database/${examples}`).set(bearer(admin));
    expect(res.body.result).toMatchObject({ database_name: 'examples', backend: 'duckdb', expose_in_sqllab: true, allow_run_async: true, allow_dml: false });
  });

  it('returns big ids from the examples database with every digit', async () => {
    const res = await t.http.post('/api/v1/sqllab/execute/').set(bearer(admin)).send({ database_id: examples, sql: 'SELECT * FROM big_ids ORDER BY 1', client_id: clientId(), queryLimit: 100 });
    expect(res.status).toBe(200);
    expect(res.text).toContain('9007199254740993');
    expect(res.body.status).toBe('success');
    expect(res.body.query.limitingFactor).toBeDefined();
  });

  it('runs, limits and reports the limiting factor', async () => {
    let res = await t.http.post('/api/v1/sqllab/execute/').set(bearer(admin)).send({ database_id: duck, sql: 'CREATE TABLE t AS SELECT range AS i FROM range(50)', client_id: clientId() });
    expect(res.status).toBe(200);
    res = await t.http.post('/api/v1/sqllab/execute/').set(bearer(admin)).send({ database_id: duck, sql: 'SELECT i FROM t ORDER BY i', client_id: clientId(), queryLimit: 10 });
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(10);
    expect(res.body.query).toMatchObject({ limitingFactor: 'DROPDOWN', rows: 10, state: 'success', limit: 10 });
    expect(res.body.columns[0]).toMatchObject({ column_name: 'i', name: 'i', is_dttm: false, type_generic: 0 });
    expect(typeof res.body.query.startDttm).toBe('number');
    res = await t.http.post('/api/v1/sqllab/execute/').set(bearer(admin)).send({ database_id: duck, sql: 'SELECT i FROM t LIMIT 5', client_id: clientId(), queryLimit: 10 });
    expect(res.body.query.limitingFactor).toBe('QUERY');
    res = await t.http.post('/api/v1/sqllab/execute/').set(bearer(admin)).send({ database_id: duck, sql: 'SELECT i FROM t', client_id: clientId(), queryLimit: 100 });
    expect(res.body.query.limitingFactor).toBe('NOT_LIMITED');
  });

  it('runs DuckDB with extension autoinstall and autoload off', async () => {
    for (const database_id of [duck, examples]) {
      const res = await t.http
        .post('/api/v1/sqllab/execute/')
        .set(bearer(admin))
        .send({ database_id, sql: "SELECT current_setting('autoinstall_known_extensions') AS autoinstall, current_setting('autoload_known_extensions') AS autoload", client_id: clientId() });
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual([{ autoinstall: false, autoload: false }]);
    }
  });

  it('lists schemas and tables from a cache that force=true re-reads', async () => {
    const schemas = async (force: boolean) => (await t.http.get(`/api/v1/database/${duck}/schemas/`).query({ q: `(force:${force ? '!t' : '!f'})` }).set(bearer(admin))).body.result as string[];
    const tables = async (force: boolean) =>
      ((await t.http.get(`/api/v1/database/${duck}/tables/`).query({ q: `(force:${force ? '!t' : '!f'},schema_name:main)` }).set(bearer(admin))).body.result as { value: string }[]).map((r) => r.value);
    expect(await schemas(false)).not.toContain('fresh_schema');
    expect(await tables(false)).not.toContain('fresh_table');
    const run = async (sql: string) => expect((await t.http.post('/api/v1/sqllab/execute/').set(bearer(admin)).send({ database_id: duck, sql, client_id: clientId() })).status).toBe(200);
    await run('CREATE SCHEMA fresh_schema');
    await run('CREATE TABLE fresh_table AS SELECT 1 AS x');
    // Within the metadata cache timeout the lists come from the cache...
    expect(await schemas(false)).not.toContain('fresh_schema');
    expect(await tables(false)).not.toContain('fresh_table');
    // ...force reads the database again, and the cache keeps the fresh answer.
    expect(await schemas(true)).toContain('fresh_schema');
    expect(await tables(true)).toContain('fresh_table');
    expect(await schemas(false)).toContain('fresh_schema');
    expect(await tables(false)).toContain('fresh_table');
  });
});
