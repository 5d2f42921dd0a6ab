import type { MetadataDb } from '../db/database';
import { hashPassword } from './password';
import { SEEDED_ROLES } from './permission-matrix';
import { SecurityRepository } from './security.repository';

/** Seeds the roles and makes sure an Admin user exists; an existing admin's password is left alone. */
export async function ensureAdmin(db: MetadataDb, opts: { username?: string; password: string; email?: string }): Promise<{ created: boolean; username: string }> {
  await new SecurityRepository(db).seedRoles(SEEDED_ROLES);
  const username = opts.username ?? 'admin';
  const existing = await db.selectFrom('ab_user').select('id').where('username', '=', username).executeTakeFirst();
  if (existing) return { created: false, username };
  await db.transaction().execute(async (trx) => {
    const { id } = await trx
      .insertInto('ab_user')
      .values({ first_name: 'Admin', last_name: 'User', username, email: opts.email ?? `${username}@meridian.local`, password: await hashPassword(opts.password) })
      .returning('id')
      .executeTakeFirstOrThrow();
    const role = await trx.selectFrom('ab_role').select('id').where('name', '=', 'Admin').executeTakeFirstOrThrow();
    await trx.insertInto('ab_user_role').values({ user_id: id, role_id: role.id }).execute();
  });
  return { created: true, username };
}

/** Sets a user's password (the CLI's reset-password). */
export async function resetPassword(db: MetadataDb, username: string, password: string): Promise<boolean> {
  const result = await db.updateTable('ab_user').set({ password: await hashPassword(password), fail_login_count: 0 }).where('username', '=', username).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
