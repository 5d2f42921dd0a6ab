import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app';
import { bearer, clientId, queryState, registerDatabase, waitFor } from './sqllab.helpers';

describe('SQL Lab calls (spec 01 §7) on a DuckDB database', () => {
  let t: TestApp;
  let admin: string;
  let dir: string;
  let db: number;

  const exec = (body: Record<string, unknown>, token = admin) =>
    t.http.post('/api/v1/sqllab/execute/').set(bearer(token)).send({ client_id: clientId(), queryLimit: 1000, ...body });

  beforeAll(async () => {
    process.env.RESULTS_TTL_SECONDS = '3600';
    t = await startTestApp({ metadata: process.env.SQLLAB_METADATA === 'postgres' ? 'postgres' : 'pglite', env: { DISPLAY_MAX_ROW: '20', SQL_MAX_ROW: '60' } });
    admin = await t.token();
    dir = mkdtempSync(join(tmpdir(), 'meridian-sqllab-'));
    db = await registerDatabase(t, admin, { database_name: 'lab', sqlalchemy_uri: `duckdb:///${join(dir, 'lab.duckdb')}`, allow_dml: true, allow_run_async: true });
    const setup = await exec({ sql: "CREATE TABLE nums AS SELECT range::BIGINT AS n, 'v' || range AS label, range % 2 = 0 AS even FROM range(100); CREATE TABLE big AS SELECT 9007199254740993::BIGINT AS id", database_id: db });
    expect(setup.status).toBe(200);
  });
  afterAll(async () => {
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('sends the first DISPLAY_MAX_ROW rows and pages past them with offset', async () => {
    const id = clientId();
    const res = await exec({ database_id: db, sql: 'SELECT n, label FROM nums ORDER BY n', client_id: id, queryLimit: 50 });
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(20);
    expect(res.body.displayLimitReached).toBe(true);
    expect(res.body.query.rows).toBe(50);
    const key = res.body.query.resultsKey;
    const page = await t.http.get('/api/v1/sqllab/results/').query({ q: `(key:'${key}',offset:20,rows:20)` }).set(bearer(admin));
    expect(page.status).toBe(200);
    expect(page.body.data.map((r: { n: number }) => r.n)).toEqual(Array.from({ length: 20 }, (_, i) => 20 + i));
    expect(page.body.displayLimitReached).toBe(true);
    const last = await t.http.get('/api/v1/sqllab/results/').query({ q: `(key:'${key}',offset:40,rows:20)` }).set(bearer(admin));
    expect(last.body.data).toHaveLength(10);
    expect(last.body.displayLimitReached).toBeUndefined();
  });

  it('never lets queryLimit exceed SQL_MAX_ROW', async () => {
    const res = await exec({ database_id: db, sql: 'SELECT n FROM nums', queryLimit: 100000 });
    expect(res.body.query).toMatchObject({ rows: 60, limit: 60, limitingFactor: 'DROPDOWN' });
  });

  it('keeps big integers intact in execute and results', async () => {
    const res = await exec({ database_id: db, sql: 'SELECT id FROM big' });
    expect(res.text).toContain('"id":9007199254740993');
    const page = await t.http.get('/api/v1/sqllab/results/').query({ q: `(key:'${res.body.query.resultsKey}')` }).set(bearer(admin));
    expect(page.text).toContain('"id":9007199254740993');
  });

  it('runs asynchronously: 202 pending, then success visible through updated_since', async () => {
    const id = clientId();
    const started = Date.now();
    const res = await exec({ database_id: db, sql: 'SELECT count(*) AS c FROM nums', client_id: id, runAsync: true });
    expect(res.status).toBe(202);
    expect(res.body.query).toMatchObject({ id, state: 'pending', progress: 0 });
    const done = await waitFor('async success', async () => {
      const q = await queryState(t, admin, id);
      return q?.state === 'success' ? q : null;
    });
    expect(done).toMatchObject({ rows: 1, progress: 100 });
    const since = await t.http.get('/api/v1/query/updated_since').query({ q: `(last_updated_ms:${started - 1000})` }).set(bearer(admin));
    expect(since.body.result.map((q: { id: string }) => q.id)).toContain(id);
    const future = await t.http.get('/api/v1/query/updated_since').query({ q: `(last_updated_ms:${Date.now() + 60_000})` }).set(bearer(admin));
    expect(future.body.result).toEqual([]);
    const rows = await t.http.get('/api/v1/sqllab/results/').query({ q: `(key:'${done.resultsKey}')` }).set(bearer(admin));
    expect(rows.body.data).toEqual([{ c: 100 }]);
  });

  it('exports CSV from the results backend and re-runs the query when the results are gone', async () => {
    const id = clientId();
    const res = await exec({ database_id: db, sql: 'SELECT n, label, even FROM nums ORDER BY n LIMIT 3', client_id: id, tab: 'My Tab' });
    const csv = await t.http.get(`/api/v1/sqllab/export/${id}/`).set(bearer(admin));
    expect(csv.status).toBe(200);
    expect(csv.headers['content-type']).toMatch(/text\/csv/);
    expect(csv.headers['content-disposition']).toMatch(/attachment; filename="sqllab_my_tab_\d{8}T\d{6}\.csv"/);
    expect(csv.text).toBe('n,label,even\n0,v0,True\n1,v1,False\n2,v2,True\n');
    await t.services.queryRuntime.results.delete(res.body.query.resultsKey);
    const again = await t.http.get(`/api/v1/sqllab/export/${id}/`).set(bearer(admin));
    expect(again.text).toBe(csv.text);
    const big = await exec({ database_id: db, sql: 'SELECT id FROM big', client_id: id.slice(0, 10) + 'b' });
    const bigCsv = await t.http.get(`/api/v1/sqllab/export/${big.body.query.id}/`).set(bearer(admin));
    expect(bigCsv.text).toBe('id\n9007199254740993\n');
  });

  it('answers 410 asking to re-run once the stored result is gone', async () => {
    const res = await exec({ database_id: db, sql: 'SELECT 1 AS one' });
    await t.services.queryRuntime.results.delete(res.body.query.resultsKey);
    const page = await t.http.get('/api/v1/sqllab/results/').query({ q: `(key:'${res.body.query.resultsKey}')` }).set(bearer(admin));
    expect(page.status).toBe(410);
    expect(page.body.errors[0]).toMatchObject({ error_type: 'RESULTS_BACKEND_ERROR', message: 'Data could not be retrieved from the results backend. You need to re-run the original query.' });
  });

  it('lists the history (own queries) and gets one query', async () => {
    const id = clientId();
    await exec({ database_id: db, sql: 'SELECT 42 AS answer', client_id: id, tab: 'History tab' });
    const list = await t.http.get('/api/v1/query/').query({ q: "(filters:!((col:sql,opr:ct,value:'42 AS answer')),order_column:changed_on,order_direction:desc)" }).set(bearer(admin));
    expect(list.status).toBe(200);
    expect(list.body.count).toBe(1);
    const item = list.body.result[0];
    expect(item).toMatchObject({ client_id: id, status: 'success', tab_name: 'History tab', database: { id: db, database_name: 'lab' } });
    const one = await t.http.get(`/api/v1/query/${item.id}`).set(bearer(admin));
    expect(one.body.result).toMatchObject({ id: item.id, sql: 'SELECT 42 AS answer', schema: null, tab_name: 'History tab', database: { id: db } });
    const sqlLabUser = await t.userWithRoles('history_user', ['sql_lab', 'Alpha']);
    const theirs = await t.http.get('/api/v1/query/').set(bearer(sqlLabUser));
    expect(theirs.body.count).toBe(0);
    expect((await t.http.get(`/api/v1/query/${item.id}`).set(bearer(sqlLabUser))).status).toBe(404);
  });

  it('estimates cost and formats SQL in the database dialect', async () => {
    const estimate = await t.http.post('/api/v1/sqllab/estimate/').set(bearer(admin)).send({ database_id: db, sql: 'SELECT * FROM nums WHERE n > {{ x }}', template_params: { x: 3 } });
    expect(estimate.status).toBe(200);
    expect(Array.isArray(estimate.body.result)).toBe(true);
    const formatted = await t.http.post('/api/v1/sqllab/format_sql/').set(bearer(admin)).send({ sql: 'select a,b from t where x=1', database_id: db });
    expect(formatted.status).toBe(200);
    expect(formatted.body.result).toBe('SELECT\n  a,\n  b\nFROM\n  t\nWHERE\n  x = 1');
  });

  it('refuses a cost estimate when the database has cost_estimate_enabled off', async () => {
    const off = await registerDatabase(t, admin, { database_name: 'lab-no-estimate', sqlalchemy_uri: `duckdb:///${join(dir, 'lab.duckdb')}`, extra: '{"cost_estimate_enabled": false}' });
    expect((await t.http.get(`/api/v1/database/${off}`).set(bearer(admin))).body.result.allows_cost_estimate).toBe(false);
    const refused = await t.http.post('/api/v1/sqllab/estimate/').set(bearer(admin)).send({ database_id: off, sql: 'SELECT * FROM nums' });
    expect(refused.status).toBe(400);
    expect(refused.body.errors[0]).toMatchObject({ message: 'Database does not support cost estimation', error_type: 'GENERIC_DB_ENGINE_ERROR' });
    expect(refused.body.errors[0].extra.issue_codes).toEqual([{ code: 1002, message: 'Issue 1002 - The database returned an unexpected error.' }]);
  });

  it('refuses to estimate a mutating statement on a database without DML (EXPLAIN ANALYZE would run it)', async () => {
    const readOnly = await registerDatabase(t, admin, { database_name: 'lab-read-only', sqlalchemy_uri: `duckdb:///${join(dir, 'lab.duckdb')}`, allow_dml: false });
    const refused = await t.http.post('/api/v1/sqllab/estimate/').set(bearer(admin)).send({ database_id: readOnly, sql: 'ANALYZE DELETE FROM nums' });
    expect(refused.body.errors[0]).toMatchObject({ error_type: 'DML_NOT_ALLOWED_ERROR', message: 'Only SELECT statements are allowed against this database.' });
    const count = await exec({ database_id: db, sql: 'SELECT count(*) AS c FROM nums' });
    expect(count.body.data).toEqual([{ c: 100 }]);
  });

  it('honours the database flags: expose_in_sqllab off refuses, allow_run_async off runs sync, allow_cvas off refuses a view', async () => {
    const file = `duckdb:///${join(dir, 'lab.duckdb')}`;
    const hidden = await registerDatabase(t, admin, { database_name: 'lab-hidden', sqlalchemy_uri: file, expose_in_sqllab: false });
    const refused = await exec({ database_id: hidden, sql: 'SELECT 1 AS one' });
    expect(refused.status).toBe(400);
    expect(refused.body.errors[0]).toMatchObject({ error_type: 'DATABASE_SECURITY_ACCESS_ERROR', message: 'This database is not exposed in SQL Lab.' });

    const flags = await registerDatabase(t, admin, { database_name: 'lab-flags', sqlalchemy_uri: file, allow_run_async: false, allow_dml: true, allow_ctas: true, allow_cvas: false });
    const id = clientId();
    const sync = await exec({ database_id: flags, sql: 'SELECT count(*) AS c FROM nums', client_id: id, runAsync: true });
    expect(sync.status).toBe(200);
    expect(sync.body.data).toEqual([{ c: 100 }]);
    expect(sync.body.query).toMatchObject({ id, state: 'success' });

    const view = await exec({ database_id: flags, sql: 'SELECT n FROM nums', select_as_cta: true, ctas_method: 'VIEW', tmp_table_name: 'refused_view' });
    expect(view.status).toBe(400);
    expect(view.body.errors[0]).toMatchObject({ error_type: 'INVALID_CVAS_QUERY_ERROR', message: 'This database does not allow CREATE VIEW AS SELECT.' });
    const table = await exec({ database_id: flags, sql: 'SELECT n FROM nums WHERE n < 3', select_as_cta: true, ctas_method: 'TABLE', tmp_table_name: 'allowed_table' });
    expect(table.status).toBe(200);
    const made = await exec({ database_id: db, sql: "SELECT table_name FROM information_schema.tables WHERE table_name IN ('refused_view', 'allowed_table') ORDER BY 1" });
    expect(made.body.data).toEqual([{ table_name: 'allowed_table' }]);
  });

  it('refuses SQL Lab to a Gamma user (403) and hides databases without access', async () => {
    const gamma = await t.userWithRoles('gamma_user', ['Gamma']);
    const res = await exec({ database_id: db, sql: 'SELECT 1' }, gamma);
    expect(res.status).toBe(403);
    expect((await t.http.get('/api/v1/database/').set(bearer(gamma))).status).toBe(403);
    const lab = await t.userWithRoles('lab_only', ['sql_lab']);
    expect((await exec({ database_id: db, sql: 'SELECT 1' }, lab)).status).toBe(404);
    const list = await t.http.get('/api/v1/database/').set(bearer(lab));
    expect(list.body.count).toBe(0);
  });

  it('saves, updates, lists and bulk-deletes saved queries; others get 404', async () => {
    const created = await t.http.post('/api/v1/saved_query/').set(bearer(admin)).send({ label: 'My query', sql: 'SELECT 1', db_id: db, schema: 'main', template_parameters: '{}' });
    expect(created.status).toBe(201);
    const id = created.body.id;
    expect(created.body.result).toMatchObject({ label: 'My query', sql: 'SELECT 1', db_id: db, schema: 'main' });
    const updated = await t.http.put(`/api/v1/saved_query/${id}`).set(bearer(admin)).send({ label: 'Renamed', sql: 'SELECT 2' });
    expect(updated.body.result).toMatchObject({ id, label: 'Renamed', sql: 'SELECT 2' });
    const got = await t.http.get(`/api/v1/saved_query/${id}`).set(bearer(admin));
    expect(got.body.result).toMatchObject({ id, label: 'Renamed', database: { id: db, database_name: 'lab' }, template_parameters: '{}' });
    const other = await t.userWithRoles('saver', ['sql_lab', 'Alpha']);
    expect((await t.http.get(`/api/v1/saved_query/${id}`).set(bearer(other))).status).toBe(404);
    expect((await t.http.put(`/api/v1/saved_query/${id}`).set(bearer(other)).send({ label: 'x' })).status).toBe(404);
    // Template parameters are JSON text: text that does not parse is refused (422, as Flask-AppBuilder's default put), the saved query unchanged.
    const badParams = await t.http.put(`/api/v1/saved_query/${id}`).set(bearer(admin)).send({ label: 'Broken', template_parameters: '{"limit": ' });
    expect(badParams.status).toBe(422);
    expect(badParams.body.message).toEqual({ template_parameters: ['JSON not valid'] });
    expect((await t.http.get(`/api/v1/saved_query/${id}`).set(bearer(admin))).body.result).toMatchObject({ label: 'Renamed', template_parameters: '{}' });
    const second = await t.http.post('/api/v1/saved_query/').set(bearer(admin)).send({ label: 'Second', sql: 'SELECT 3', db_id: db });
    const list = await t.http.get('/api/v1/saved_query/').query({ q: "(filters:!((col:label,opr:ct,value:'e')),order_column:label,order_direction:asc)" }).set(bearer(admin));
    expect(list.body.result.map((r: { label: string }) => r.label)).toEqual(['Renamed', 'Second']);
    const bulk = await t.http.delete('/api/v1/saved_query/').query({ q: `!(${id},${second.body.id})` }).set(bearer(admin));
    expect(bulk.status).toBe(200);
    expect(bulk.body.message).toBe('Deleted 2 saved queries');
    expect((await t.http.get(`/api/v1/saved_query/${id}`).set(bearer(admin))).status).toBe(404);
  });

  it('stores and reads shared queries through /kv/', async () => {
    const data = JSON.stringify({ sql: 'SELECT 1', dbId: db, name: 'Shared' });
    const stored = await t.http.post('/kv/store/').set(bearer(admin)).type('form').send({ data });
    expect(stored.status).toBe(200);
    const read = await t.http.get(`/kv/${stored.body.id}`).set(bearer(admin));
    expect(read.status).toBe(200);
    expect(read.body).toEqual({ sql: 'SELECT 1', dbId: db, name: 'Shared' });
    expect((await t.http.get('/kv/999999').set(bearer(admin))).status).toBe(404);
  });

  it('keeps a tab as a permalink: POST /api/v1/sqllab/permalink and GET /api/v1/sqllab/permalink/{key}', async () => {
    const state = { dbId: db, name: 'Revenue', sql: 'SELECT 1 AS one', schema: 'main', autorun: false, templateParams: '{}' };
    const created = await t.http.post('/api/v1/sqllab/permalink').set(bearer(admin)).send(state);
    expect(created.status).toBe(201);
    expect(created.body.url).toMatch(new RegExp(`/sqllab/p/${created.body.key}$`));
    const read = await t.http.get(`/api/v1/sqllab/permalink/${created.body.key}`).set(bearer(admin));
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ ...state, state });
    const bad = await t.http.post('/api/v1/sqllab/permalink').set(bearer(admin)).send({ sql: 'SELECT 1' });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.message).sort()).toEqual(['dbId', 'name']);
    expect((await t.http.get('/api/v1/sqllab/permalink/00000000-0000-0000-0000-000000000000').set(bearer(admin))).status).toBe(404);
    expect((await t.http.get(`/api/v1/sqllab/permalink/${created.body.key}`)).status).toBe(401);
    // Gamma (no SQL Lab) may neither make nor open one.
    const gamma = await t.userWithRoles('gamma_sqllab_link', ['Gamma']);
    expect((await t.http.get(`/api/v1/sqllab/permalink/${created.body.key}`).set(bearer(gamma))).status).toBe(403);
  });

  it('persists editor tabs through /tabstateview/ and /tableschemaview/', async () => {
    const editor = { name: 'Untitled Query 1', dbId: db, schema: 'main', sql: 'SELECT 1', queryLimit: 100, autorun: false, templateParams: '{}' };
    const created = await t.http.post('/tabstateview/').set(bearer(admin)).type('form').send({ queryEditor: JSON.stringify(editor) });
    expect(created.status).toBe(200);
    const tabId = created.body.id;
    const second = await t.http.post('/tabstateview/').set(bearer(admin)).send({ queryEditor: { ...editor, name: 'Untitled Query 2' } });
    const put = await t.http.put(`/tabstateview/${tabId}`).set(bearer(admin)).type('form').send({ sql: JSON.stringify('SELECT 2'), query_limit: '10', extra_json: JSON.stringify(JSON.stringify({ updatedAt: 5, version: 1 })) });
    expect(put.status).toBe(200);
    await t.http.put(`/tabstateview/${tabId}`).set(bearer(admin)).send({ label: 'Renamed tab', hide_left_bar: true });
    const activate = await t.http.post(`/tabstateview/${tabId}/activate`).set(bearer(admin));
    expect(activate.status).toBe(200);

    const queryId = clientId();
    await exec({ database_id: db, sql: 'SELECT 7 AS seven', client_id: queryId, sql_editor_id: String(second.body.id) });
    expect((await t.http.post(`/tabstateview/${tabId}/migrate_query`).set(bearer(admin)).type('form').send({ queryId: JSON.stringify(queryId) })).status).toBe(200);
    await t.http.put(`/tabstateview/${tabId}`).set(bearer(admin)).send({ latest_query_id: queryId });

    const table = await t.http.post('/tableschemaview/').set(bearer(admin)).type('form').send({ table: JSON.stringify({ dbId: db, queryEditorId: tabId, schema: 'main', name: 'nums', dataPreviewQueryId: null }) });
    expect(table.status).toBe(200);
    const collapse = await t.http.post(`/tableschemaview/${table.body.id}/expanded`).set(bearer(admin)).type('form').send({ expanded: 'false' });
    expect(collapse.body).toEqual({ id: table.body.id, expanded: false });

    const tab = await t.http.get(`/tabstateview/${tabId}`).set(bearer(admin));
    expect(tab.status).toBe(200);
    expect(tab.body).toMatchObject({
      id: tabId, label: 'Renamed tab', active: true, database_id: db, schema: 'main', sql: 'SELECT 2', query_limit: 10, hide_left_bar: true,
      extra_json: { updatedAt: 5, version: 1 },
      latest_query: { id: queryId, state: 'success', sqlEditorId: String(tabId) },
      table_schemas: [{ id: table.body.id, tab_state_id: tabId, database_id: db, schema: 'main', table: 'nums', expanded: false, description: { name: 'nums' } }],
    });

    const boot = await t.http.get('/api/v1/sqllab/').set(bearer(admin));
    expect(boot.status).toBe(200);
    expect(boot.body.active_tab.id).toBe(tabId);
    expect(boot.body.tab_state_ids).toEqual(expect.arrayContaining([expect.objectContaining({ id: tabId, label: 'Renamed tab' }), { id: second.body.id, label: 'Untitled Query 2', saved_query_id: null }]));
    expect(boot.body.databases[db]).toMatchObject({ id: db, database_name: 'lab', backend: 'duckdb', allow_run_async: true });
    expect(boot.body.queries[queryId]).toMatchObject({ id: queryId });

    const other = await t.userWithRoles('tab_other', ['sql_lab']);
    expect((await t.http.get(`/tabstateview/${tabId}`).set(bearer(other))).status).toBe(403);
    expect((await t.http.delete(`/tabstateview/${tabId}/query/${queryId}`).set(bearer(admin))).text).toBe('"OK"');
    expect(await queryState(t, admin, queryId)).toBeUndefined();
    expect((await t.http.delete(`/tableschemaview/${table.body.id}`).set(bearer(admin))).status).toBe(200);
    expect((await t.http.delete(`/tabstateview/${tabId}`).set(bearer(admin))).text).toBe('"OK"');
    expect((await t.http.get(`/tabstateview/${tabId}`).set(bearer(admin))).status).toBe(404);
  });

  it("lists each tab's saved query in the bootstrap, so a saved query's link finds its tab before it is loaded", async () => {
    const saved = await t.http.post('/api/v1/saved_query/').set(bearer(admin)).send({ label: 'Linked', sql: 'SELECT 7', db_id: db });
    expect(saved.status).toBe(201);
    const tab = await t.http.post('/tabstateview/').set(bearer(admin)).type('form').send({ queryEditor: JSON.stringify({ name: 'Linked', dbId: db, sql: 'SELECT 7', remoteId: saved.body.id, autorun: false }) });
    expect(tab.status).toBe(200);
    const boot = await t.http.get('/api/v1/sqllab/').set(bearer(admin));
    expect(boot.body.tab_state_ids).toContainEqual({ id: tab.body.id, label: 'Linked', saved_query_id: saved.body.id });
    expect((await t.http.delete(`/tabstateview/${tab.body.id}`).set(bearer(admin))).status).toBe(200);
  });

  it("a failed query keeps the database's own message under the catalogue's, and the line of the submitted SQL", async () => {
    const res = await exec({ database_id: db, sql: 'SELECT 1;\nSELECT n,\n  no_such_col\nFROM nums' });
    expect(res.status).toBe(500);
    expect(res.body.errors[0]).toMatchObject({
      error_type: 'COLUMN_DOES_NOT_EXIST_ERROR',
      message: 'We can\'t seem to resolve the column "no_such_col".',
      extra: { database_message: expect.stringContaining('Referenced column "no_such_col" not found'), line: 3 },
    });
  });
});
