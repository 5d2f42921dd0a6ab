import type { ListQuery, UserView } from '@meridian/contracts';
import { sql } from 'kysely';
import { likePattern as like, runListQuery } from '../common/list-query';
import type { MetadataDb } from '../db/database';
import type { NewUser, UserUpdate } from '../db/schema';
import { pythonIsoformat } from '@meridian/contracts/rules/dates';

const USER_COLUMNS = {
  id: 'ab_user.id',
  username: 'ab_user.username',
  first_name: 'ab_user.first_name',
  last_name: 'ab_user.last_name',
  email: 'ab_user.email',
  active: 'ab_user.active',
  last_login: 'ab_user.last_login',
  changed_on: 'ab_user.changed_on',
  created_on: 'ab_user.created_on',
};

/** The columns a user list may be ordered by. */
export const USER_ORDER_COLUMNS = Object.keys(USER_COLUMNS);


/** Users and roles in the metadata store; rows in, contract views out. */
export class UserRepository {
  constructor(private readonly db: MetadataDb) {}

  /** Active users matching a name or username, a page of them with how many match (`related/{owners,created_by,...}`). */
  async related(search: string, page: number, pageSize: number): Promise<{ count: number; rows: Array<{ id: number; first_name: string; last_name: string; email: string }> }> {
    let q = this.db.selectFrom('ab_user').where('active', '=', true);
    if (search) q = q.where(sql<boolean>`(first_name || ' ' || last_name) ilike ${like(search)} or username ilike ${like(search)}`);
    const count = Number((await q.select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow()).n);
    const rows = await q.select(['id', 'first_name', 'last_name', 'email']).orderBy('first_name').orderBy('id').limit(pageSize).offset(page * pageSize).execute();
    return { count, rows };
  }

  async list(query: ListQuery): Promise<{ count: number; rows: UserView[] }> {
    const { count, rows } = await runListQuery(this.db.selectFrom('ab_user').selectAll('ab_user'), query, {
      columns: USER_COLUMNS,
      idColumn: 'ab_user.id',
      defaultOrder: ['username', 'asc'],
      custom: {
        roles: (eb, value) =>
          eb.exists(
            eb.selectFrom('ab_user_role').select('ab_user_role.id').whereRef('ab_user_role.user_id', '=', 'ab_user.id').where('ab_user_role.role_id', '=', Number(value)),
          ),
      },
    });
    return { count, rows: await this.withRoles(rows) };
  }

  async get(id: number): Promise<UserView | undefined> {
    const row = await this.db.selectFrom('ab_user').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? (await this.withRoles([row]))[0] : undefined;
  }

  findConflicting(username: string | undefined, email: string | undefined, exceptId?: number) {
    let q = this.db.selectFrom('ab_user').select(['id', 'username', 'email']);
    // Only the fields given are compared (PostgreSQL refuses a NUL character as a stand-in for the other).
    q = q.where((eb) => eb.or([...(username !== undefined ? [eb('username', '=', username)] : []), ...(email !== undefined ? [eb('email', '=', email)] : [])]));
    if (exceptId !== undefined) q = q.where('id', '<>', exceptId);
    return q.executeTakeFirst();
  }

  async existingRoleIds(ids: number[]): Promise<number[]> {
    if (!ids.length) return [];
    const rows = await this.db.selectFrom('ab_role').select('id').where('id', 'in', ids).execute();
    return rows.map((r) => r.id);
  }

  /** Inserts a user with roles in one transaction; returns its id. */
  async create(user: NewUser, roleIds: number[]): Promise<number> {
    return this.db.transaction().execute(async (trx) => {
      const { id } = await trx.insertInto('ab_user').values(user).returning('id').executeTakeFirstOrThrow();
      if (roleIds.length) await trx.insertInto('ab_user_role').values(roleIds.map((role_id) => ({ user_id: id, role_id }))).execute();
      return id;
    });
  }

  /** Updates a user and, when given, replaces its roles, in one transaction. */
  async update(id: number, patch: UserUpdate, roleIds?: number[]): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      if (Object.keys(patch).length) await trx.updateTable('ab_user').set({ ...patch, changed_on: new Date() }).where('id', '=', id).execute();
      if (roleIds) {
        await trx.deleteFrom('ab_user_role').where('user_id', '=', id).execute();
        if (roleIds.length) await trx.insertInto('ab_user_role').values(roleIds.map((role_id) => ({ user_id: id, role_id }))).execute();
      }
    });
  }

  async delete(id: number): Promise<void> {
    await this.db.deleteFrom('ab_user').where('id', '=', id).execute();
  }

  private async withRoles(rows: Awaited<ReturnType<typeof this.getRow>>[]): Promise<UserView[]> {
    const present = rows.filter((r): r is NonNullable<typeof r> => !!r);
    if (!present.length) return [];
    const links = await this.db
      .selectFrom('ab_user_role')
      .innerJoin('ab_role', 'ab_role.id', 'ab_user_role.role_id')
      .select(['ab_user_role.user_id', 'ab_role.id', 'ab_role.name'])
      .where('ab_user_role.user_id', 'in', present.map((r) => r.id))
      .orderBy('ab_role.name')
      .execute();
    return present.map((u) => ({
      id: u.id,
      first_name: u.first_name,
      last_name: u.last_name,
      username: u.username,
      email: u.email,
      active: u.active,
      last_login: pythonIsoformat(u.last_login),
      login_count: u.login_count,
      fail_login_count: u.fail_login_count,
      created_on: pythonIsoformat(u.created_on)!,
      changed_on: pythonIsoformat(u.changed_on)!,
      roles: links.filter((l) => l.user_id === u.id).map((l) => ({ id: l.id, name: l.name })),
    }));
  }

  private getRow(id: number) {
    return this.db.selectFrom('ab_user').selectAll().where('id', '=', id).executeTakeFirst();
  }
}
