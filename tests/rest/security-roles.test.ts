import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureTestExamples } from '../helpers/examples';
import { ensureExampleDatasets } from '../../server/src/dataset/example-datasets';
import { SecurityRepository } from '../../server/src/security/security.repository';
import { SEEDED_ROLES } from '../../server/src/security/permission-matrix';
import { startTestApp, type TestApp } from '../helpers/app';
import { bearer } from './sqllab.helpers';

// Issue 14: roles CRUD, roles/search/, a role's permissions and users, and the permissions, resources and
// permissions-resources lists, as Superset's security API; changes take effect on the next request.
describe('/api/v1/security/roles, permissions, resources, permissions-resources', () => {
  let t: TestApp;
  let admin: string;
  const get = (path: string, q?: string, token = admin) => t.http.get(path).query(q ? { q } : {}).set(bearer(token));
  const pairId = async (permission: string, view: string) =>
    (await get('/api/v1/security/permissions-resources/', `(filters:!((col:permission,opr:rel_o_m,value:'${permission}'),(col:view_menu,opr:rel_o_m,value:'${view}')))`)).body.result[0]?.id as number;

  beforeAll(async () => {
    t = await startTestApp();
    admin = await t.token();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('creates, renames, reads, searches and deletes a role; names are unique and built-in roles keep theirs', async () => {
    const created = await t.http.post('/api/v1/security/roles/').set(bearer(admin)).send({ name: 'Finance' });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ id: expect.any(Number), result: { name: 'Finance' } });
    const id = created.body.id;
    const dup = await t.http.post('/api/v1/security/roles/').set(bearer(admin)).send({ name: 'Finance' });
    expect(dup.status).toBe(422);
    expect(dup.body.message).toEqual({ name: ['Already exists.'] });
    // Flask-AppBuilder's default post: a body its schema refuses is 422.
    expect((await t.http.post('/api/v1/security/roles/').set(bearer(admin)).send({ name: '' })).status).toBe(422);

    expect((await t.http.put(`/api/v1/security/roles/${id}`).set(bearer(admin)).send({ name: 'Finance team' })).body).toEqual({ result: { name: 'Finance team' } });
    expect((await get(`/api/v1/security/roles/${id}`)).body.result).toMatchObject({ id, name: 'Finance team', permissions: [], user_ids: [] });

    const search = await get('/api/v1/security/roles/search/', '(filters:!((col:name,value:finance)),order_column:name,order_direction:asc)');
    expect(search.body).toEqual({ count: 1, ids: [id], result: [{ id, name: 'Finance team', permission_ids: [], user_ids: [] }] });

    const gammaId = (await get('/api/v1/security/roles/', '(filters:!((col:name,opr:eq,value:Gamma)))')).body.result[0].id;
    const renameBuiltIn = await t.http.put(`/api/v1/security/roles/${gammaId}`).set(bearer(admin)).send({ name: 'Viewers' });
    expect(renameBuiltIn.status).toBe(422);
    expect(renameBuiltIn.body.message).toBe('Gamma is a built-in role: it cannot be renamed or deleted.');
    expect((await t.http.delete(`/api/v1/security/roles/${gammaId}`).set(bearer(admin))).status).toBe(422);

    expect((await t.http.delete(`/api/v1/security/roles/${id}`).set(bearer(admin))).body).toEqual({ message: 'OK' });
    expect((await get(`/api/v1/security/roles/${id}`)).status).toBe(404);
    expect((await t.http.delete(`/api/v1/security/roles/${id}`).set(bearer(admin))).status).toBe(404);
  });

  it("sets a role's permissions and users, which take effect on the next request", async () => {
    const role = (await t.http.post('/api/v1/security/roles/').set(bearer(admin)).send({ name: 'Template editors' })).body.id;
    const user = await t.userWithRoles('templater', ['Public']);
    const userId = (await get('/api/v1/security/users/', '(filters:!((col:username,opr:eq,value:templater)))')).body.result[0].id;
    expect((await t.http.get('/api/v1/css_template/').set(bearer(user))).status).toBe(403);

    const read = await pairId('can_read', 'CssTemplate');
    const write = await pairId('can_write', 'CssTemplate');
    expect(read).toEqual(expect.any(Number));
    const set = await t.http.post(`/api/v1/security/roles/${role}/permissions`).set(bearer(admin)).send({ permission_view_menu_ids: [read, write] });
    expect(set.status).toBe(200);
    expect(set.body).toEqual({ result: { permission_view_menu_ids: [read, write] } });
    expect((await get(`/api/v1/security/roles/${role}/permissions/`)).body.result).toEqual([
      { id: read, permission_name: 'can_read', view_menu_name: 'CssTemplate' },
      { id: write, permission_name: 'can_write', view_menu_name: 'CssTemplate' },
    ]);
    expect((await t.http.put(`/api/v1/security/roles/${role}/users`).set(bearer(admin)).send({ user_ids: [userId] })).body).toEqual({ result: { user_ids: [userId] } });
    expect((await t.http.get('/api/v1/css_template/').set(bearer(user))).status).toBe(200);
    expect((await get('/api/v1/security/roles/search/', `(filters:!((col:user_ids,value:!(${userId})),(col:permission_ids,value:!(${write}))))`)).body.ids).toEqual([role]);

    // Replacing: the write permission goes, reads stay.
    await t.http.post(`/api/v1/security/roles/${role}/permissions`).set(bearer(admin)).send({ permission_view_menu_ids: [read] });
    expect((await t.http.post('/api/v1/css_template/').set(bearer(user)).send({ template_name: 'x' })).status).toBe(403);

    const unknown = await t.http.post(`/api/v1/security/roles/${role}/permissions`).set(bearer(admin)).send({ permission_view_menu_ids: [read, 999999] });
    expect(unknown.status).toBe(422);
    expect(unknown.body.message).toEqual({ permission_view_menu_ids: ['Permission(s) not found: 999999'] });
    expect((await get(`/api/v1/security/roles/${role}/permissions/`)).body.result).toHaveLength(1);
    expect((await t.http.put(`/api/v1/security/roles/${role}/users`).set(bearer(admin)).send({ user_ids: [999999] })).status).toBe(422);
    expect((await t.http.post('/api/v1/security/roles/999999/permissions').set(bearer(admin)).send({ permission_view_menu_ids: [] })).status).toBe(404);
    expect((await t.http.put(`/api/v1/security/roles/${role}/users`).set(bearer(admin)).send({ user_ids: 'x' })).status).toBe(400);

    // Removing the user from the role takes the access away at once.
    await t.http.put(`/api/v1/security/roles/${role}/users`).set(bearer(admin)).send({ user_ids: [] });
    expect((await t.http.get('/api/v1/css_template/').set(bearer(user))).status).toBe(403);
  });

  it('lists and reads permissions, resources and permissions on resources, with their _info', async () => {
    const permissions = await get('/api/v1/security/permissions/', '(filters:!((col:name,opr:eq,value:can_read)))');
    expect(permissions.body).toMatchObject({ count: 1, result: [{ id: expect.any(Number), name: 'can_read' }] });
    expect((await get(`/api/v1/security/permissions/${permissions.body.ids[0]}`)).body).toEqual({ id: permissions.body.ids[0], result: { id: permissions.body.ids[0], name: 'can_read' } });

    const resource = await t.http.post('/api/v1/security/resources/').set(bearer(admin)).send({ name: 'Reports board' });
    expect(resource.status).toBe(201);
    expect((await t.http.post('/api/v1/security/resources/').set(bearer(admin)).send({ name: 'Reports board' })).status).toBe(422);
    expect((await t.http.put(`/api/v1/security/resources/${resource.body.id}`).set(bearer(admin)).send({ name: 'Board' })).body).toEqual({ result: { name: 'Board' } });
    const pair = await t.http.post('/api/v1/security/permissions-resources/').set(bearer(admin)).send({ permission_id: permissions.body.ids[0], view_menu_id: resource.body.id });
    expect(pair.status).toBe(201);
    expect((await get(`/api/v1/security/permissions-resources/${pair.body.id}`)).body.result).toEqual({ id: pair.body.id, permission: { name: 'can_read' }, view_menu: { name: 'Board' } });
    expect((await t.http.post('/api/v1/security/permissions-resources/').set(bearer(admin)).send({ permission_id: permissions.body.ids[0], view_menu_id: 999999 })).body.message).toEqual({ view_menu_id: ['Resource not found.'] });
    // Deleting the resource takes its permissions with it.
    expect((await t.http.delete(`/api/v1/security/resources/${resource.body.id}`).set(bearer(admin))).body).toEqual({ message: 'OK' });
    expect((await get(`/api/v1/security/permissions-resources/${pair.body.id}`)).status).toBe(404);

    for (const path of ['roles', 'permissions', 'resources', 'permissions-resources']) {
      const info = await get(`/api/v1/security/${path}/_info`, '(keys:!(permissions,filters))');
      expect(info.status, path).toBe(200);
      expect(Object.keys(info.body).sort(), path).toEqual(['filters', 'permissions']);
    }
  });

  it("gives each dataset its datasource_access permission, and sync_permissions re-makes a database's", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'meridian-sync-'));
    try {
      const examples = (await ensureTestExamples(t.services, { path: join(dir, 'examples.duckdb'), salesRows: 20 })).id;
      await ensureExampleDatasets(t.services);
      const birth = (await get('/api/v1/dataset/', '(filters:!((col:table_name,opr:eq,value:birth_names)))')).body.ids[0];
      const view = `[examples].[birth_names](id:${birth})`;
      const access = await pairId('datasource_access', view);
      expect(access).toEqual(expect.any(Number));
      // Dropped by hand, made again by sync_permissions.
      await t.services.db.deleteFrom('ab_permission_view').where('id', '=', access).execute();
      const synced = await t.http.post(`/api/v1/database/${examples}/sync_permissions/`).set(bearer(admin));
      expect(synced.body).toEqual({ message: 'Permissions successfully synced' });
      const again = await pairId('datasource_access', view);
      expect(again).toEqual(expect.any(Number));
      // A role with that permission alone sees that dataset alone.
      const role = (await t.http.post('/api/v1/security/roles/').set(bearer(admin)).send({ name: 'Births only' })).body.id;
      const gammaPairs = (await get(`/api/v1/security/roles/${(await get('/api/v1/security/roles/', '(filters:!((col:name,opr:eq,value:Gamma)))')).body.ids[0]}/permissions/`)).body.result.map((p: { id: number }) => p.id);
      await t.http.post(`/api/v1/security/roles/${role}/permissions`).set(bearer(admin)).send({ permission_view_menu_ids: [...gammaPairs, again] });
      const analyst = await t.userWithRoles('births_only', ['Births only']);
      expect((await get('/api/v1/dataset/', undefined, analyst)).body.result.map((d: { table_name: string }) => d.table_name)).toEqual(['birth_names']);
      const gamma = await t.userWithRoles('gamma_sync', ['Gamma']);
      expect((await t.http.post(`/api/v1/database/${examples}/sync_permissions/`).set(bearer(gamma))).status).toBe(403);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('is for admins only, and start-up seeding takes back a grant the matrix no longer gives a built-in role', async () => {
    const gamma = await t.userWithRoles('gamma_roles', ['Gamma']);
    for (const path of ['/api/v1/security/roles/', '/api/v1/security/roles/search/', '/api/v1/security/permissions/', '/api/v1/security/resources/', '/api/v1/security/permissions-resources/']) {
      expect((await get(path, undefined, gamma)).status, path).toBe(403);
    }
    expect((await t.http.post('/api/v1/security/roles/').set(bearer(gamma)).send({ name: 'Mine' })).status).toBe(403);

    const gammaId = (await get('/api/v1/security/roles/', '(filters:!((col:name,opr:eq,value:Gamma)))')).body.result[0].id;
    const logRead = await pairId('can_read', 'Log');
    const granted = (await get(`/api/v1/security/roles/${gammaId}/permissions/`)).body.result.map((p: { id: number }) => p.id);
    await t.http.post(`/api/v1/security/roles/${gammaId}/permissions`).set(bearer(admin)).send({ permission_view_menu_ids: [...granted, logRead] });
    expect((await get('/api/v1/log/', undefined, gamma)).status).toBe(200);
    await new SecurityRepository(t.services.db).seedRoles(SEEDED_ROLES);
    t.services.security.invalidateActors();
    expect((await get('/api/v1/log/', undefined, gamma)).status).toBe(403);
    expect((await get(`/api/v1/security/roles/${gammaId}/permissions/`)).body.result).toHaveLength(granted.length);
  });
});
