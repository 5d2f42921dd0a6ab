import { type Kysely, sql } from 'kysely';

/** Users, roles, permissions and the permission-view pairs of Superset's security model. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('ab_user')
    .ifNotExists()
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('first_name', 'varchar(64)', (c) => c.notNull())
    .addColumn('last_name', 'varchar(64)', (c) => c.notNull())
    .addColumn('username', 'varchar(100)', (c) => c.notNull().unique())
    .addColumn('password', 'varchar(256)')
    .addColumn('active', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('email', 'varchar(320)', (c) => c.notNull().unique())
    .addColumn('last_login', 'timestamptz')
    .addColumn('login_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('fail_login_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_on', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('changed_on', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('created_by_fk', 'integer')
    .addColumn('changed_by_fk', 'integer')
    .execute();
  await db.schema
    .createTable('ab_role')
    .ifNotExists()
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('name', 'varchar(64)', (c) => c.notNull().unique())
    .execute();
  await db.schema
    .createTable('ab_permission')
    .ifNotExists()
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('name', 'varchar(100)', (c) => c.notNull().unique())
    .execute();
  await db.schema
    .createTable('ab_view_menu')
    .ifNotExists()
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('name', 'varchar(250)', (c) => c.notNull().unique())
    .execute();
  await db.schema
    .createTable('ab_permission_view')
    .ifNotExists()
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('permission_id', 'integer', (c) => c.notNull().references('ab_permission.id').onDelete('cascade'))
    .addColumn('view_menu_id', 'integer', (c) => c.notNull().references('ab_view_menu.id').onDelete('cascade'))
    .addUniqueConstraint('ab_permission_view_unique', ['permission_id', 'view_menu_id'])
    .execute();
  await db.schema
    .createTable('ab_permission_view_role')
    .ifNotExists()
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('permission_view_id', 'integer', (c) => c.notNull().references('ab_permission_view.id').onDelete('cascade'))
    .addColumn('role_id', 'integer', (c) => c.notNull().references('ab_role.id').onDelete('cascade'))
    .addUniqueConstraint('ab_permission_view_role_unique', ['permission_view_id', 'role_id'])
    .execute();
  await db.schema
    .createTable('ab_user_role')
    .ifNotExists()
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('ab_user.id').onDelete('cascade'))
    .addColumn('role_id', 'integer', (c) => c.notNull().references('ab_role.id').onDelete('cascade'))
    .addUniqueConstraint('ab_user_role_unique', ['user_id', 'role_id'])
    .execute();
}
