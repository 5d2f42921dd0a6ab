import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureTestExamples } from '../helpers/examples';
import { ensureExampleDatasets } from '../../server/src/dataset/example-datasets';
import { startTestApp, type TestApp } from '../helpers/app';
import { bearer } from './sqllab.helpers';

// Issue 14: `_info`, `related/{column}` and `distinct/{column}` on every resource Superset has them for, and
// deleting one column or metric of a dataset, in Superset's shapes and error envelope.
describe('_info, related and distinct across /api/v1', () => {
  let t: TestApp;
  let admin: string;
  let gamma: string;
  let analyst: string;
  let nobody: string;
  let dir: string;
  let examples: number;
  const get = (path: string, token = admin, q?: string) => t.http.get(path).query(q ? { q } : {}).set(bearer(token));

  beforeAll(async () => {
    t = await startTestApp();
    admin = await t.token();
    gamma = await t.userWithRoles('gamma_parity', ['Gamma']);
    analyst = await t.userWithRoles('analyst_parity', ['sql_lab', 'Alpha']);
    nobody = await t.userWithRoles('nobody_parity', ['Public']);
    dir = mkdtempSync(join(tmpdir(), 'meridian-parity-'));
    examples = (await ensureTestExamples(t.services, { path: join(dir, 'examples.duckdb'), salesRows: 50 })).id;
    await ensureExampleDatasets(t.services);
  });
  afterAll(async () => {
    await t?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("answers _info with add/edit columns, filters and the caller's permissions, narrowed by keys", async () => {
    for (const resource of ['dataset', 'database', 'saved_query', 'annotation_layer', 'security/users']) {
      const info = await get(`/api/v1/${resource}/_info`);
      expect(info.status, resource).toBe(200);
      expect(Object.keys(info.body).sort(), resource).toEqual(['add_columns', 'add_title', 'edit_columns', 'edit_title', 'filters', 'permissions']);
      expect(info.body.permissions, resource).toContain('can_read');
      expect(info.body.add_columns.length, resource).toBeGreaterThan(0);
    }
    const dataset = await get('/api/v1/dataset/_info', admin, '(keys:!(permissions,filters))');
    expect(Object.keys(dataset.body).sort()).toEqual(['filters', 'permissions']);
    expect(dataset.body.filters.sql).toEqual([{ name: 'Null or Empty', operator: 'dataset_is_null_or_empty' }]);
    expect(dataset.body.filters.owners).toEqual([{ name: 'Relation as Many', operator: 'rel_m_m' }, { name: 'No Relation as Many', operator: 'nrel_m_m' }]);
    const database = (await get('/api/v1/database/_info', admin, '(keys:!(add_columns))')).body.add_columns;
    expect(database.find((c: { name: string }) => c.name === 'database_name')).toMatchObject({ required: true, type: 'String' });
    // Gamma may read datasets but not write them; someone with no role gets the 403 envelope.
    expect((await get('/api/v1/dataset/_info', gamma, '(keys:!(permissions))')).body.permissions).not.toContain('can_write');
    const refused = await get('/api/v1/database/_info', nobody);
    expect(refused.status).toBe(403);
    expect(refused.body).toHaveProperty('message');
  });

  it('answers related/{column} with people and databases, paged and filtered; an unknown column is a 404', async () => {
    for (const [resource, column] of [
      ['dataset', 'owners'],
      ['dataset', 'created_by'],
      ['database', 'changed_by'],
      ['saved_query', 'created_by'],
      ['annotation_layer', 'created_by'],
      ['css_template', 'changed_by'],
      ['query', 'user'],
    ]) {
      const related = await get(`/api/v1/${resource}/related/${column}`, admin, '(filter:adm,page:0,page_size:10)');
      expect(related.status, `${resource}/${column}`).toBe(200);
      expect(related.body.result[0], `${resource}/${column}`).toMatchObject({ value: expect.any(Number), text: expect.any(String), extra: { email: expect.any(String) } });
    }
    const people = await get('/api/v1/dataset/related/owners', admin, '(page:0,page_size:1)');
    expect(people.body.count).toBeGreaterThanOrEqual(3);
    expect(people.body.result).toHaveLength(1);
    for (const resource of ['dataset', 'saved_query', 'query']) {
      const dbs = await get(`/api/v1/${resource}/related/database`, admin, '(filter:exam)');
      expect(dbs.body, resource).toEqual({ count: 1, result: [{ value: examples, text: 'examples', extra: {} }] });
    }
    const unknown = await get('/api/v1/dataset/related/password');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ message: 'Not found' });
    expect((await get('/api/v1/query/related/user', nobody)).status).toBe(403);
  });

  it('answers distinct/{column} among what the caller may see', async () => {
    const schemas = await get('/api/v1/dataset/distinct/schema');
    expect(schemas.body).toEqual({ count: 1, result: [{ text: 'main', value: 'main' }] });
    expect((await get('/api/v1/dataset/distinct/schema', admin, '(filter:zzz)')).body).toEqual({ count: 0, result: [] });

    await t.http.post('/api/v1/saved_query/').set(bearer(admin)).send({ db_id: examples, label: 'Admin query', sql: 'SELECT 1', schema: 'main' });
    expect((await t.http.post('/api/v1/saved_query/').set(bearer(analyst)).send({ db_id: examples, label: 'Analyst query', sql: 'SELECT 2', schema: 'sales' })).status).toBe(201);
    expect((await get('/api/v1/saved_query/distinct/schema')).body.result.map((r: { value: string }) => r.value)).toEqual(['main', 'sales']);
    // Saved queries are their author's: the analyst sees only their own schema.
    expect((await get('/api/v1/saved_query/distinct/schema', analyst)).body.result.map((r: { value: string }) => r.value)).toEqual(['sales']);

    const run = await t.http.post('/api/v1/sqllab/execute/').set(bearer(admin)).send({ database_id: examples, sql: 'SELECT 1 AS one', runAsync: false, client_id: 'parity01' });
    expect(run.status).toBe(200);
    expect((await get('/api/v1/query/distinct/status')).body.result).toContainEqual({ text: 'success', value: 'success' });
    expect((await get('/api/v1/saved_query/distinct/sql')).status).toBe(404);
  });

  it("deletes one column or one metric of a dataset its owner may edit; a wrong id is Superset's 404", async () => {
    const id = (await get('/api/v1/dataset/', admin, '(filters:!((col:table_name,opr:eq,value:birth_names)))')).body.ids[0];
    const before = (await get(`/api/v1/dataset/${id}`)).body.result;
    const column = before.columns.find((c: { column_name: string }) => c.column_name === 'num_girls');
    const metric = before.metrics[0];
    expect((await t.http.delete(`/api/v1/dataset/${id}/column/${column.id}`).set(bearer(gamma))).status).toBe(403);
    expect((await t.http.delete(`/api/v1/dataset/${id}/column/${column.id}`).set(bearer(admin))).body).toEqual({ message: 'OK' });
    expect((await t.http.delete(`/api/v1/dataset/${id}/metric/${metric.id}`).set(bearer(admin))).body).toEqual({ message: 'OK' });
    const after = (await get(`/api/v1/dataset/${id}`)).body.result;
    expect(after.columns.map((c: { column_name: string }) => c.column_name)).not.toContain('num_girls');
    expect(after.columns).toHaveLength(before.columns.length - 1);
    expect(after.metrics).toHaveLength(before.metrics.length - 1);
    const again = await t.http.delete(`/api/v1/dataset/${id}/column/${column.id}`).set(bearer(admin));
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ message: 'Dataset column not found.' });
    expect((await t.http.delete(`/api/v1/dataset/${id}/metric/999999`).set(bearer(admin))).body).toEqual({ message: 'Dataset metric not found.' });
  });
});
