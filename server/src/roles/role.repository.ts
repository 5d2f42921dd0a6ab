import type { ListQuery, PermissionViewView, RoleSearchView, RoleView } from '@meridian/contracts';
import { likePattern, runListQuery } from '../common/list-query';
import type { MetadataDb } from '../db/database';

/** A row of `ab_permission` or `ab_view_menu`. */
export interface NamedRow {
  id: number;
  name: string;
}

/** The filters of `roles/search/`: by name (contains), or roles holding one of these users or permission-view pairs. */
export interface RoleSearch {
  name?: string;
  userIds?: number[];
  permissionIds?: number[];
  orderColumn: 'id' | 'name';
  orderDirection: 'asc' | 'desc';
  page: number;
  pageSize: number;
}

/** Roles, permissions, resources (view menus) and the pairs between them, in the metadata store. */
export class RoleRepository {
  constructor(private readonly db: MetadataDb) {}

  async list(query: ListQuery): Promise<{ count: number; rows: RoleView[] }> {
    const { count, rows } = await runListQuery(this.db.selectFrom('ab_role').selectAll('ab_role'), query, {
      columns: { id: 'ab_role.id', name: 'ab_role.name' },
      idColumn: 'ab_role.id',
      defaultOrder: ['name', 'asc'],
    });
    return { count, rows: await this.withGrants(rows) };
  }

  async get(id: number): Promise<RoleView | undefined> {
    const row = await this.db.selectFrom('ab_role').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? (await this.withGrants([row]))[0] : undefined;
  }

  findByName(name: string) {
    return this.db.selectFrom('ab_role').selectAll().where('name', '=', name).executeTakeFirst();
  }

  async existingIds(ids: number[]): Promise<number[]> {
    if (!ids.length) return [];
    return (await this.db.selectFrom('ab_role').select('id').where('id', 'in', ids).execute()).map((r) => r.id);
  }

  async search(s: RoleSearch): Promise<{ count: number; rows: RoleSearchView[] }> {
    let q = this.db.selectFrom('ab_role');
    if (s.name) q = q.where('name', 'ilike', likePattern(s.name));
    if (s.userIds?.length) q = q.where('id', 'in', this.db.selectFrom('ab_user_role').select('role_id').where('user_id', 'in', s.userIds));
    if (s.permissionIds?.length) q = q.where('id', 'in', this.db.selectFrom('ab_permission_view_role').select('role_id').where('permission_view_id', 'in', s.permissionIds));
    const { n } = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    const rows = await q.selectAll().orderBy(s.orderColumn, s.orderDirection).orderBy('id').limit(s.pageSize).offset(s.page * s.pageSize).execute();
    const full = await this.withGrants(rows);
    return { count: Number(n), rows: full.map((r) => ({ id: r.id, name: r.name, permission_ids: r.permissions.map((p) => p.id), user_ids: r.user_ids })) };
  }

  async create(name: string): Promise<number> {
    return (await this.db.insertInto('ab_role').values({ name }).returning('id').executeTakeFirstOrThrow()).id;
  }

  async rename(id: number, name: string): Promise<void> {
    await this.db.updateTable('ab_role').set({ name }).where('id', '=', id).execute();
  }

  /** Deletes a role; its grants, user assignments and dashboard access go with it (foreign keys cascade). */
  async delete(id: number): Promise<void> {
    await this.db.deleteFrom('ab_role').where('id', '=', id).execute();
  }

  /** Replaces a role's permission-view pairs. */
  async setPermissions(roleId: number, permissionViewIds: number[]): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('ab_permission_view_role').where('role_id', '=', roleId).execute();
      const ids = [...new Set(permissionViewIds)];
      if (ids.length) await trx.insertInto('ab_permission_view_role').values(ids.map((permission_view_id) => ({ permission_view_id, role_id: roleId }))).execute();
    });
  }

  /** Replaces a role's users. */
  async setUsers(roleId: number, userIds: number[]): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('ab_user_role').where('role_id', '=', roleId).execute();
      const ids = [...new Set(userIds)];
      if (ids.length) await trx.insertInto('ab_user_role').values(ids.map((user_id) => ({ user_id, role_id: roleId }))).execute();
    });
  }

  async existingUserIds(ids: number[]): Promise<number[]> {
    if (!ids.length) return [];
    return (await this.db.selectFrom('ab_user').select('id').where('id', 'in', ids).execute()).map((r) => r.id);
  }

  // Permissions (`ab_permission`) and resources (`ab_view_menu`): named rows, listed and read alike.

  listNamed(table: 'ab_permission' | 'ab_view_menu', query: ListQuery): Promise<{ count: number; rows: NamedRow[] }> {
    return runListQuery(this.db.selectFrom(table).select(['id', 'name']), query, { columns: { id: 'id', name: 'name' }, idColumn: 'id', defaultOrder: ['name', 'asc'] });
  }

  getNamed(table: 'ab_permission' | 'ab_view_menu', id: number): Promise<NamedRow | undefined> {
    return this.db.selectFrom(table).select(['id', 'name']).where('id', '=', id).executeTakeFirst();
  }

  findNamed(table: 'ab_permission' | 'ab_view_menu', name: string): Promise<NamedRow | undefined> {
    return this.db.selectFrom(table).select(['id', 'name']).where('name', '=', name).executeTakeFirst();
  }

  async createResource(name: string): Promise<number> {
    return (await this.db.insertInto('ab_view_menu').values({ name }).returning('id').executeTakeFirstOrThrow()).id;
  }

  async renameResource(id: number, name: string): Promise<void> {
    await this.db.updateTable('ab_view_menu').set({ name }).where('id', '=', id).execute();
  }

  async deleteResource(id: number): Promise<void> {
    await this.db.deleteFrom('ab_view_menu').where('id', '=', id).execute();
  }

  // Permission-view pairs (`ab_permission_view`).

  private pairs() {
    return this.db
      .selectFrom('ab_permission_view as pv')
      .innerJoin('ab_permission as p', 'p.id', 'pv.permission_id')
      .innerJoin('ab_view_menu as v', 'v.id', 'pv.view_menu_id')
      .select(['pv.id', 'pv.permission_id', 'pv.view_menu_id', 'p.name as permission_name', 'v.name as view_menu_name']);
  }

  async listPairs(query: ListQuery): Promise<{ count: number; rows: PermissionViewView[] }> {
    const { count, rows } = await runListQuery(this.pairs(), query, {
      columns: { id: 'pv.id', permission: 'p.name', view_menu: 'v.name', permission_id: 'pv.permission_id', view_menu_id: 'pv.view_menu_id' },
      idColumn: 'pv.id',
      defaultOrder: ['view_menu', 'asc'],
    });
    return { count, rows: rows.map(pairView) };
  }

  async getPair(id: number): Promise<PermissionViewView | undefined> {
    const row = await this.pairs().where('pv.id', '=', id).executeTakeFirst();
    return row && pairView(row);
  }

  async findPair(permissionId: number, viewMenuId: number): Promise<number | undefined> {
    return (await this.db.selectFrom('ab_permission_view').select('id').where('permission_id', '=', permissionId).where('view_menu_id', '=', viewMenuId).executeTakeFirst())?.id;
  }

  async existingPairIds(ids: number[]): Promise<number[]> {
    if (!ids.length) return [];
    return (await this.db.selectFrom('ab_permission_view').select('id').where('id', 'in', ids).execute()).map((r) => r.id);
  }

  async createPair(permissionId: number, viewMenuId: number): Promise<number> {
    return (await this.db.insertInto('ab_permission_view').values({ permission_id: permissionId, view_menu_id: viewMenuId }).returning('id').executeTakeFirstOrThrow()).id;
  }

  async updatePair(id: number, patch: { permission_id?: number; view_menu_id?: number }): Promise<void> {
    // An empty change is no change (an UPDATE with nothing to set is not SQL).
    if (patch.permission_id === undefined && patch.view_menu_id === undefined) return;
    await this.db.updateTable('ab_permission_view').set(patch).where('id', '=', id).execute();
  }

  async deletePair(id: number): Promise<void> {
    await this.db.deleteFrom('ab_permission_view').where('id', '=', id).execute();
  }

  /** Roles with their permission-view pairs (ordered by resource, then permission) and user ids, in two queries. */
  private async withGrants(roles: { id: number; name: string }[]): Promise<RoleView[]> {
    if (!roles.length) return [];
    const ids = roles.map((r) => r.id);
    const perms = await this.db
      .selectFrom('ab_permission_view_role as pvr')
      .innerJoin('ab_permission_view as pv', 'pv.id', 'pvr.permission_view_id')
      .innerJoin('ab_permission as p', 'p.id', 'pv.permission_id')
      .innerJoin('ab_view_menu as v', 'v.id', 'pv.view_menu_id')
      .select(['pvr.role_id', 'pv.id', 'p.name as permission_name', 'v.name as view_menu_name'])
      .where('pvr.role_id', 'in', ids)
      .orderBy('v.name')
      .orderBy('p.name')
      .execute();
    const users = await this.db.selectFrom('ab_user_role').select(['role_id', 'user_id']).where('role_id', 'in', ids).orderBy('user_id').execute();
    return roles.map((role) => ({
      id: role.id,
      name: role.name,
      permissions: perms.filter((p) => p.role_id === role.id).map(({ id, permission_name, view_menu_name }) => ({ id, permission_name, view_menu_name })),
      user_ids: users.filter((u) => u.role_id === role.id).map((u) => u.user_id),
    }));
  }
}

const pairView = (r: { id: number; permission_name: string; view_menu_name: string }): PermissionViewView => ({ id: r.id, permission: { name: r.permission_name }, view_menu: { name: r.view_menu_name } });
