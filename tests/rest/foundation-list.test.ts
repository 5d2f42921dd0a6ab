import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app';
import { bearer, registerDatabase } from './sqllab.helpers';

// Rison `columns` and `keys` of Superset's list calls (Flask-AppBuilder's get_list).
describe('list calls honour columns and answer the list metadata', () => {
  let t: TestApp;
  let admin: string;
  let dbId: number;
  const dir = mkdtempSync(join(tmpdir(), 'meridian-list-'));

  beforeAll(async () => {
    t = await startTestApp();
    admin = await t.token();
    await t.userWithRoles('cols_alpha', ['Alpha']);
    dbId = await registerDatabase(t, admin, { database_name: 'cols_duck', sqlalchemy_uri: `duckdb:///${join(dir, 'c.duckdb')}` });
  });
  afterAll(async () => {
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers only the named columns of each user, and narrows the metadata to them', async () => {
    const res = await t.http.get(`/api/v1/security/users/?q=(columns:!(username,roles),filters:!((col:username,opr:eq,value:cols_alpha)))`).set(bearer(admin));
    expect(res.status).toBe(200);
    expect(res.body.result).toEqual([{ username: 'cols_alpha', roles: [{ id: expect.any(Number), name: 'Alpha' }] }]);
    expect(res.body.ids).toEqual([expect.any(Number)]);
    expect(res.body.count).toBe(1);
    expect(res.body.list_columns).toEqual(['username', 'roles']);
    expect(res.body.order_columns).toEqual(['username']);
    expect(res.body.label_columns).toEqual({ username: 'Username', roles: 'Roles' });
    expect(res.body.list_title).toBe('List User');
  });

  it('ignores column names the list does not have, as Flask-AppBuilder prunes them', async () => {
    const some = await t.http.get(`/api/v1/security/users/?q=(columns:!(username,password,nope),filters:!((col:username,opr:eq,value:admin)))`).set(bearer(admin));
    expect(some.status).toBe(200);
    expect(some.body.result).toEqual([{ username: 'admin' }]);
    // With no known column left, rows stay whole (never the password hash).
    const none = await t.http.get(`/api/v1/security/users/?q=(columns:!(password),filters:!((col:username,opr:eq,value:admin)))`).set(bearer(admin));
    expect(none.status).toBe(200);
    expect(none.body.result[0]).toMatchObject({ id: expect.any(Number), username: 'admin', first_name: 'Admin', active: true });
    expect(none.body.result[0]).not.toHaveProperty('password');
    expect(none.body.list_columns).toContain('email');
  });

  it('answers the full metadata without columns, and only the keys asked for with keys', async () => {
    const all = await t.http.get('/api/v1/security/users/').set(bearer(admin));
    expect(all.body.list_columns).toEqual(expect.arrayContaining(['id', 'username', 'email', 'roles']));
    expect(all.body.order_columns).toEqual(expect.arrayContaining(['username', 'changed_on']));
    expect(all.body.description_columns).toEqual({});
    const keys = await t.http.get('/api/v1/security/users/?q=(keys:!(list_columns))').set(bearer(admin));
    expect(keys.body.list_columns).toEqual(expect.arrayContaining(['username']));
    expect(keys.body).not.toHaveProperty('order_columns');
    expect(keys.body).not.toHaveProperty('list_title');
    const none = await t.http.get('/api/v1/security/users/?q=(keys:!(none))').set(bearer(admin));
    expect(Object.keys(none.body).sort()).toEqual(['count', 'ids', 'result']);
  });

  it('projects the database list too', async () => {
    const res = await t.http.get('/api/v1/database/?q=(columns:!(database_name,backend))').set(bearer(admin));
    expect(res.status).toBe(200);
    expect(res.body.result).toContainEqual({ database_name: 'cols_duck', backend: 'duckdb' });
    for (const row of res.body.result) expect(Object.keys(row).sort()).toEqual(['backend', 'database_name']);
    expect(res.body.list_columns).toEqual(['database_name', 'backend']);
    expect(res.body.order_columns).toEqual(['database_name', 'backend']);
    expect(res.body.list_title).toBe('List Database');
  });

  it('projects a list that declares no metadata (saved queries) by the keys of its rows', async () => {
    const saved = await t.http.post('/api/v1/saved_query/').set(bearer(admin)).send({ label: 'cols q', db_id: dbId, sql: 'select 1', schema: null });
    expect(saved.status).toBe(201);
    const res = await t.http.get('/api/v1/saved_query/?q=(columns:!(label,nope))').set(bearer(admin));
    expect(res.status).toBe(200);
    expect(res.body.result).toEqual([{ label: 'cols q' }]);
  });
});
