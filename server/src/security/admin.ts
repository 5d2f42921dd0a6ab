import type { MetadataDb } from '../db/database';
import { hashPassword } from './password';
import { SEEDED_ROLES } from './permission-matrix';
import { SecurityRepository } from './security.repository';

/**
 * Seeds the roles and makes sure an Admin user exists; an existing user's password is left alone.
 * With `promoteExisting` (the CLI's create-admin), an existing user is given the Admin role too
 * (`promoted: true` when it lacked it); the server's start never changes an existing user's roles.
 */
export async function ensureAdmin(
  db: MetadataDb,
  opts: { username?: string; password: string; email?: string; promoteExisting?: boolean },
): Promise<{ created: boolean; promoted: boolean; username: string }> {
  await new SecurityRepository(db).seedRoles(SEEDED_ROLES);
  const username = opts.username ?? 'admin';
  return db.transaction().execute(async (trx) => {
    const role = await trx.selectFrom('ab_role').select('id').where('name', '=', 'Admin').executeTakeFirstOrThrow();
    const existing = await trx.selectFrom('ab_user').select('id').where('username', '=', username).executeTakeFirst();
    if (existing) {
      if (!opts.promoteExisting) return { created: false, promoted: false, username };
      const has = await trx.selectFrom('ab_user_role').select('id').where('user_id', '=', existing.id).where('role_id', '=', role.id).executeTakeFirst();
      if (!has) await trx.insertInto('ab_user_role').values({ user_id: existing.id, role_id: role.id }).execute();
      return { created: false, promoted: !has, username };
    }
    const { id } = await trx
      .insertInto('ab_user')
      .values({ first_name: 'Admin', last_name: 'User', username, email: opts.email ?? `${username}@meridian.local`, password: await hashPassword(opts.password) })
      .returning('id')
      .executeTakeFirstOrThrow();
    await trx.insertInto('ab_user_role').values({ user_id: id, role_id: role.id }).execute();
    return { created: true, promoted: false, username };
  });
}

/** Sets a user's password (the CLI's reset-password). */
export async function resetPassword(db: MetadataDb, username: string, password: string): Promise<boolean> {
  const result = await db.updateTable('ab_user').set({ password: await hashPassword(password), fail_login_count: 0 }).where('username', '=', username).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
