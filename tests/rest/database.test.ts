import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app';
import { createPgDatabase } from '../helpers/pg';
import { bearer, registerDatabase } from './sqllab.helpers';

describe('/api/v1/database/ on PostgreSQL', () => {
  let t: TestApp;
  let admin: string;
  let target: Awaited<ReturnType<typeof createPgDatabase>>;
  let id: number;
  const uriWith = (password: string) => target.url.replace('postgresql://postgres@', `postgresql://postgres:${password}@`);

  beforeAll(async () => {
    target = await createPgDatabase();
    const c = new pg.Client({ connectionString: target.url });
    await c.connect();
    await c.query(`
      CREATE SCHEMA sales;
      CREATE TABLE sales.customers (id integer PRIMARY KEY, name varchar(40) NOT NULL, created_at timestamp, active boolean);
      CREATE TABLE sales.orders (id bigint PRIMARY KEY, customer_id integer REFERENCES sales.customers(id), amount numeric(10, 2));
      CREATE INDEX orders_customer_idx ON sales.orders (customer_id);
      CREATE VIEW sales.big_orders AS SELECT * FROM sales.orders WHERE amount > 100;
    `);
    await c.end();
    t = await startTestApp({ metadata: process.env.SQLLAB_METADATA === 'postgres' ? 'postgres' : 'pglite' });
    admin = await t.token();
    id = await registerDatabase(t, admin, { database_name: 'warehouse', sqlalchemy_uri: uriWith('s3cret'), expose_in_sqllab: true, allow_run_async: true, extra: '{"disable_data_preview": true}' });
  });
  afterAll(async () => {
    await t?.close();
    await target?.drop();
  });

  it('masks the password and encrypts it at rest', async () => {
    const res = await t.http.get(`/api/v1/database/${id}`).set(bearer(admin));
    expect(res.status).toBe(200);
    expect(res.body.result.sqlalchemy_uri).toBe(uriWith('XXXXXXXXXX'));
    expect(res.text).not.toContain('s3cret');
    expect(res.body.result).toMatchObject({ database_name: 'warehouse', backend: 'postgresql', expose_in_sqllab: true, allow_run_async: true, allow_dml: false, disable_data_preview: true });
    const row = await t.services.db.selectFrom('dbs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(row.sqlalchemy_uri).not.toContain('s3cret');
    expect(row.password_encrypted).toBeTruthy();
    expect(row.password_encrypted).not.toContain('s3cret');
    const db = await t.services.databases.getAccessible((await t.services.security.actorFor(1))!, id);
    expect(t.services.databases.target(db).uri).toBe(uriWith('s3cret'));
  });

  it('keeps the stored password when a PUT sends the masked URI back, replaces it otherwise', async () => {
    const masked = (await t.http.get(`/api/v1/database/${id}`).set(bearer(admin))).body.result.sqlalchemy_uri;
    const put = await t.http.put(`/api/v1/database/${id}`).set(bearer(admin)).send({ sqlalchemy_uri: masked, allow_dml: true });
    expect(put.status).toBe(200);
    expect(put.body.result.allow_dml).toBe(true);
    const actor = (await t.services.security.actorFor(1))!;
    expect(t.services.databases.target(await t.services.databases.getAccessible(actor, id)).uri).toBe(uriWith('s3cret'));
    await t.http.put(`/api/v1/database/${id}`).set(bearer(admin)).send({ sqlalchemy_uri: uriWith('n3w') });
    expect(t.services.databases.target(await t.services.databases.getAccessible(actor, id)).uri).toBe(uriWith('n3w'));
  });

  it('lists databases with rison filters and Superset columns', async () => {
    const res = await t.http.get('/api/v1/database/').query({ q: "(filters:!((col:database_name,opr:ct,value:ware)),page:0,page_size:25)" }).set(bearer(admin));
    expect(res.status).toBe(200);
    expect(res.body.count).toBe(1);
    expect(res.body.ids).toEqual([id]);
    const item = res.body.result[0];
    for (const key of ['database_name', 'backend', 'expose_in_sqllab', 'allow_run_async', 'allow_dml', 'allow_ctas', 'allow_cvas', 'allow_file_upload', 'changed_on', 'changed_on_delta_humanized', 'created_by', 'sqlalchemy_uri']) {
      expect(item).toHaveProperty(key);
    }
    expect(item.sqlalchemy_uri).toContain('XXXXXXXXXX');
    const none = await t.http.get('/api/v1/database/').query({ q: '(filters:!((col:database_name,opr:ct,value:nothing)))' }).set(bearer(admin));
    expect(none.body).toMatchObject({ count: 0, result: [] });
  });

  it('refuses duplicate names and unreachable connections', async () => {
    const dup = await t.http.post('/api/v1/database/').set(bearer(admin)).send({ database_name: 'warehouse', sqlalchemy_uri: target.url });
    expect(dup.status).toBe(422);
    expect(dup.body.message).toEqual({ database_name: ['A database with the same name already exists.'] });
    const bad = await t.http.post('/api/v1/database/').set(bearer(admin)).send({ database_name: 'bad', sqlalchemy_uri: 'postgresql://postgres@127.0.0.1:1/nope' });
    expect(bad.status).toBe(422);
  });

  it("refuses an extra or masked_encrypted_extra that is not JSON, as Superset's validators do, and stores nothing", async () => {
    const before = await t.http.get(`/api/v1/database/${id}`).set(bearer(admin));
    const post = await t.http.post('/api/v1/database/').set(bearer(admin)).send({ database_name: 'encrypted', sqlalchemy_uri: target.url, masked_encrypted_extra: '{"credentials_info": ' });
    expect(post.status).toBe(400);
    expect(Object.keys(post.body.message)).toEqual(['masked_encrypted_extra']);
    expect(post.body.message.masked_encrypted_extra[0]).toMatch(/^Field cannot be decoded by JSON\. \S/);
    const put = await t.http.put(`/api/v1/database/${id}`).set(bearer(admin)).send({ extra: '{"metadata_params": {"not_a_param": 1}}', allow_dml: false });
    expect(put.status).toBe(400);
    expect(put.body.message).toEqual({ extra: ['The metadata_params in Extra field is not configured correctly. The key not_a_param is invalid.'] });
    const tested = await t.http.post('/api/v1/database/test_connection/').set(bearer(admin)).send({ sqlalchemy_uri: target.url, extra: '{bad' });
    expect(tested.status).toBe(400);
    expect(tested.body.message.extra[0]).toMatch(/^Field cannot be decoded by JSON\. /);
    expect((await t.http.get('/api/v1/database/').set(bearer(admin)).query({ q: "(filters:!((col:database_name,opr:eq,value:encrypted)))" })).body.count).toBe(0);
    // Compared without the humanized times, which are derived from the clock when read.
    const stable = (r: Record<string, unknown>) => Object.fromEntries(Object.entries(r).filter(([k]) => !k.endsWith('_humanized')));
    expect(stable((await t.http.get(`/api/v1/database/${id}`).set(bearer(admin))).body.result)).toEqual(stable(before.body.result));
    // Valid JSON is taken (and the encrypted extra, which no engine here uses, is not stored).
    const ok = await t.http.post('/api/v1/database/').set(bearer(admin)).send({ database_name: 'encrypted', sqlalchemy_uri: target.url, masked_encrypted_extra: '{}' });
    expect(ok.status).toBe(201);
    expect((await t.http.delete(`/api/v1/database/${ok.body.id}`).set(bearer(admin))).status).toBe(200);
  });

  it('tests connections and maps connection errors', async () => {
    const ok = await t.http.post('/api/v1/database/test_connection/').set(bearer(admin)).send({ sqlalchemy_uri: target.url });
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ message: 'OK' });
    const missing = await t.http.post('/api/v1/database/test_connection/').set(bearer(admin)).send({ sqlalchemy_uri: 'postgresql://postgres@127.0.0.1:5432/meridian_no_such_db' });
    expect(missing.status).toBe(400);
    expect(missing.body.errors[0].error_type).toBe('CONNECTION_UNKNOWN_DATABASE_ERROR');
    const closed = await t.http.post('/api/v1/database/test_connection/').set(bearer(admin)).send({ sqlalchemy_uri: 'postgresql://postgres@127.0.0.1:1/x' });
    expect(closed.body.errors[0].error_type).toBe('CONNECTION_PORT_CLOSED_ERROR');
  });

  it('browses schemas, tables, table metadata and select star', async () => {
    const schemas = await t.http.get(`/api/v1/database/${id}/schemas/`).query({ q: '(force:!t)' }).set(bearer(admin));
    expect(schemas.status).toBe(200);
    expect(schemas.body.result).toContain('sales');
    expect(schemas.body.result).toEqual([...schemas.body.result].sort((a: string, b: string) => a.localeCompare(b)));
    const tables = await t.http.get(`/api/v1/database/${id}/tables/`).query({ q: '(force:!f,schema_name:sales)' }).set(bearer(admin));
    expect(tables.body).toEqual({
      count: 3,
      result: [
        { value: 'customers', type: 'table', extra: null },
        { value: 'orders', type: 'table', extra: null },
        { value: 'big_orders', type: 'view', extra: null },
      ],
    });
    const meta = await t.http.get(`/api/v1/database/${id}/table_metadata/`).query({ name: 'orders', schema: 'sales' }).set(bearer(admin));
    expect(meta.status).toBe(200);
    expect(meta.body.name).toBe('orders');
    expect(meta.body.columns.map((c: { name: string }) => c.name)).toEqual(['id', 'customer_id', 'amount']);
    expect(meta.body.columns[2]).toMatchObject({ name: 'amount', type_generic: 0 });
    expect(meta.body.primaryKey).toMatchObject({ constrained_columns: ['id'], type: 'pk' });
    expect(meta.body.foreignKeys[0]).toMatchObject({ constrained_columns: ['customer_id'], referred_table: 'customers', referred_columns: ['id'], type: 'fk' });
    expect(meta.body.indexes.map((i: { name: string }) => i.name)).toContain('orders_customer_idx');
    expect(meta.body.selectStar).toMatch(/FROM\s+"?sales"?\."?orders"?/);
    const extra = await t.http.get(`/api/v1/database/${id}/table_metadata/extra/`).query({ name: 'orders', schema: 'sales' }).set(bearer(admin));
    expect(extra.body).toEqual({});
    const star = await t.http.get(`/api/v1/database/${id}/select_star/customers/sales/`).set(bearer(admin));
    expect(star.body.result).toMatch(/SELECT/);
    const nope = await t.http.get(`/api/v1/database/${id}/table_metadata/`).query({ name: 'no_such_table', schema: 'sales' }).set(bearer(admin));
    expect(nope.status).toBe(404);
    const catalogs = await t.http.get(`/api/v1/database/${id}/catalogs/`).set(bearer(admin));
    expect(catalogs.status).toBe(200);
  });

  it('lists only the schemas allowed for file upload with upload_allowed, none when uploads are off', async () => {
    const all = await t.http.get(`/api/v1/database/${id}/schemas/`).set(bearer(admin));
    expect(all.body.result).toEqual(expect.arrayContaining(['public', 'sales']));
    const uploads = await registerDatabase(t, admin, { database_name: 'uploads', sqlalchemy_uri: uriWith('s3cret'), allow_file_upload: true, extra: '{"schemas_allowed_for_file_upload": ["SALES"]}' });
    // Superset compares case-insensitively: the list is typed by hand, the database may answer in another case.
    const allowed = await t.http.get(`/api/v1/database/${uploads}/schemas/`).query({ q: '(upload_allowed:!t)' }).set(bearer(admin));
    expect(allowed.status).toBe(200);
    expect(allowed.body.result).toEqual(['sales']);
    const unrestricted = await registerDatabase(t, admin, { database_name: 'uploads-anywhere', sqlalchemy_uri: uriWith('s3cret'), allow_file_upload: true });
    expect((await t.http.get(`/api/v1/database/${unrestricted}/schemas/`).query({ q: '(upload_allowed:!t)' }).set(bearer(admin))).body.result).toEqual(all.body.result);
    const off = await registerDatabase(t, admin, { database_name: 'no-uploads', sqlalchemy_uri: uriWith('s3cret'), allow_file_upload: false, extra: '{"schemas_allowed_for_file_upload": ["sales"]}' });
    expect((await t.http.get(`/api/v1/database/${off}/schemas/`).query({ q: '(upload_allowed:!t)' }).set(bearer(admin))).body.result).toEqual([]);
  });

  it('gives a user only the databases their roles grant', async () => {
    const lab = await t.userWithRoles('db_lab', ['sql_lab']);
    expect((await t.http.get(`/api/v1/database/${id}`).set(bearer(lab))).status).toBe(404);
    expect((await t.http.get(`/api/v1/database/${id}/schemas/`).set(bearer(lab))).status).toBe(404);
    const role = await t.services.db.insertInto('ab_role').values({ name: 'warehouse_access' }).returning('id').executeTakeFirstOrThrow();
    const pv = await t.services.db
      .selectFrom('ab_permission_view as pv')
      .innerJoin('ab_permission as p', 'p.id', 'pv.permission_id')
      .innerJoin('ab_view_menu as v', 'v.id', 'pv.view_menu_id')
      .select('pv.id')
      .where('p.name', '=', 'database_access')
      .where('v.name', '=', `[warehouse].(id:${id})`)
      .executeTakeFirstOrThrow();
    await t.services.db.insertInto('ab_permission_view_role').values({ role_id: role.id, permission_view_id: pv.id }).execute();
    const granted = await t.userWithRoles('db_lab2', ['sql_lab', 'warehouse_access']);
    expect((await t.http.get(`/api/v1/database/${id}`).set(bearer(granted))).status).toBe(200);
    expect((await t.http.get('/api/v1/database/').set(bearer(granted))).body.count).toBe(1);
    expect((await t.http.post('/api/v1/database/').set(bearer(granted)).send({ database_name: 'x', sqlalchemy_uri: target.url })).status).toBe(403);
    const gamma = await t.userWithRoles('db_gamma', ['Gamma']);
    expect((await t.http.get(`/api/v1/database/${id}`).set(bearer(gamma))).status).toBe(403);
  });

  it('deletes a database with its permission', async () => {
    const other = await registerDatabase(t, admin, { database_name: 'to_delete', sqlalchemy_uri: target.url });
    const del = await t.http.delete(`/api/v1/database/${other}`).set(bearer(admin));
    expect(del.status).toBe(200);
    expect((await t.http.get(`/api/v1/database/${other}`).set(bearer(admin))).status).toBe(404);
    const view = await t.services.db.selectFrom('ab_view_menu').select('id').where('name', '=', `[to_delete].(id:${other})`).executeTakeFirst();
    expect(view).toBeUndefined();
  });
});
