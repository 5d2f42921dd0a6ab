import { sql } from 'kysely';
import type { MetadataDb } from '../db/database';
import type { PermissionView } from './permission-matrix';

/** Queries of the security model: users with their roles, roles with their permission-view pairs. */
export class SecurityRepository {
  constructor(private readonly db: MetadataDb) {}

  findUserByUsername(username: string) {
    return this.db.selectFrom('ab_user').selectAll().where('username', '=', username).executeTakeFirst();
  }

  findUserById(id: number) {
    return this.db.selectFrom('ab_user').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** Role name to permission-view pairs for one user. */
  async rolesOf(userId: number): Promise<Record<string, PermissionView[]>> {
    return grantsByRole(await this.rolesWithGrants().innerJoin('ab_user_role as ur', 'ur.role_id', 'r.id').where('ur.user_id', '=', userId).execute());
  }

  /** Roles with the permission and view names of each grant (a role without grants comes once, with nulls). */
  private rolesWithGrants() {
    return this.db
      .selectFrom('ab_role as r')
      .leftJoin('ab_permission_view_role as pvr', 'pvr.role_id', 'r.id')
      .leftJoin('ab_permission_view as pv', 'pv.id', 'pvr.permission_view_id')
      .leftJoin('ab_permission as p', 'p.id', 'pv.permission_id')
      .leftJoin('ab_view_menu as v', 'v.id', 'pv.view_menu_id')
      .select(['r.name as role', 'p.name as permission', 'v.name as view']);
  }

  async recordLogin(userId: number, ok: boolean): Promise<void> {
    await this.db
      .updateTable('ab_user')
      .set(
        ok
          ? { last_login: new Date(), login_count: sql`login_count + 1`, fail_login_count: 0 }
          : { fail_login_count: sql`fail_login_count + 1` },
      )
      .where('id', '=', userId)
      .execute();
  }

  /**
   * Creates the seeded roles and sets each to exactly its grants in the matrix (missing ones added, others
   * taken back). Set-based (a few queries per role whatever the matrix size), because it runs on every start.
   */
  async seedRoles(matrix: Record<string, readonly PermissionView[]>): Promise<void> {
    // Nearly every start finds the seeded roles exactly as the matrix says: one read tells, and the
    // dozen writes below (a noticeable part of a start on the embedded store) are skipped.
    if (await this.rolesMatch(matrix)) return;
    await this.db.transaction().execute(async (trx) => {
      const pairs = Object.values(matrix).flat();
      const names = (values: string[]) => [...new Set(values)].map((name) => ({ name }));
      await trx.insertInto('ab_role').values(names(Object.keys(matrix))).onConflict((oc) => oc.column('name').doNothing()).execute();
      await trx.insertInto('ab_permission').values(names(pairs.map(([p]) => p))).onConflict((oc) => oc.column('name').doNothing()).execute();
      await trx.insertInto('ab_view_menu').values(names(pairs.map(([, v]) => v))).onConflict((oc) => oc.column('name').doNothing()).execute();
      const roleIds = new Map((await trx.selectFrom('ab_role').select(['id', 'name']).execute()).map((r) => [r.name, r.id]));
      const permIds = new Map((await trx.selectFrom('ab_permission').select(['id', 'name']).execute()).map((r) => [r.name, r.id]));
      const viewIds = new Map((await trx.selectFrom('ab_view_menu').select(['id', 'name']).execute()).map((r) => [r.name, r.id]));
      const pvKey = (p: string, v: string) => `${permIds.get(p)}:${viewIds.get(v)}`;
      const uniquePairs = [...new Map(pairs.map(([p, v]) => [pvKey(p, v), { permission_id: permIds.get(p)!, view_menu_id: viewIds.get(v)! }])).values()];
      if (uniquePairs.length) {
        await trx.insertInto('ab_permission_view').values(uniquePairs).onConflict((oc) => oc.columns(['permission_id', 'view_menu_id']).doNothing()).execute();
      }
      const pvIds = new Map((await trx.selectFrom('ab_permission_view').select(['id', 'permission_id', 'view_menu_id']).execute()).map((r) => [`${r.permission_id}:${r.view_menu_id}`, r.id]));
      const grants = Object.entries(matrix).flatMap(([role, list]) => list.map(([p, v]) => `${pvIds.get(pvKey(p, v))}:${roleIds.get(role)}`));
      const rows = [...new Set(grants)].map((g) => {
        const [permission_view_id, role_id] = g.split(':').map(Number);
        return { permission_view_id, role_id };
      });
      if (rows.length) {
        await trx.insertInto('ab_permission_view_role').values(rows).onConflict((oc) => oc.columns(['permission_view_id', 'role_id']).doNothing()).execute();
      }
      // A grant the matrix no longer lists is taken back, as Superset's `init` does, so an upgrade that narrows a
      // seeded role (can_read Log left Gamma) narrows it on existing installs too.
      for (const [role, list] of Object.entries(matrix)) {
        const keep = [...new Set(list.map(([p, v]) => pvIds.get(pvKey(p, v))!))];
        let stale = trx.deleteFrom('ab_permission_view_role').where('role_id', '=', roleIds.get(role)!);
        if (keep.length) stale = stale.where('permission_view_id', 'not in', keep);
        await stale.execute();
      }
    });
  }

  /** Whether each seeded role holds exactly the matrix's grants (every other role is left alone either way). */
  private async rolesMatch(matrix: Record<string, readonly PermissionView[]>): Promise<boolean> {
    const held = grantsByRole(await this.rolesWithGrants().where('r.name', 'in', Object.keys(matrix)).execute());
    const key = ([permission, view]: PermissionView) => `${permission}\u0000${view}`;
    return Object.entries(matrix).every(([role, list]) => {
      const grants = new Set((held[role] ?? []).map(key));
      const wanted = new Set(list.map(key));
      return role in held && grants.size === wanted.size && [...wanted].every((g) => grants.has(g));
    });
  }
}

/** Rows of role and grant names as role name to its permission-view pairs. */
function grantsByRole(rows: Array<{ role: string; permission: string | null; view: string | null }>): Record<string, PermissionView[]> {
  const roles: Record<string, PermissionView[]> = {};
  for (const row of rows) {
    const list = (roles[row.role] ??= []);
    if (row.permission && row.view) list.push([row.permission, row.view]);
  }
  return roles;
}

/** The id of a permission-view pair, created if missing. */
export async function ensurePermissionView(db: MetadataDb, permission: string, view: string): Promise<number> {
  await db.insertInto('ab_permission').values({ name: permission }).onConflict((oc) => oc.column('name').doNothing()).execute();
  await db.insertInto('ab_view_menu').values({ name: view }).onConflict((oc) => oc.column('name').doNothing()).execute();
  const p = await db.selectFrom('ab_permission').select('id').where('name', '=', permission).executeTakeFirstOrThrow();
  const v = await db.selectFrom('ab_view_menu').select('id').where('name', '=', view).executeTakeFirstOrThrow();
  await db
    .insertInto('ab_permission_view')
    .values({ permission_id: p.id, view_menu_id: v.id })
    .onConflict((oc) => oc.columns(['permission_id', 'view_menu_id']).doNothing())
    .execute();
  const pv = await db
    .selectFrom('ab_permission_view')
    .select('id')
    .where('permission_id', '=', p.id)
    .where('view_menu_id', '=', v.id)
    .executeTakeFirstOrThrow();
  return pv.id;
}
