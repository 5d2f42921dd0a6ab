import { type Kysely, sql } from 'kysely';

/**
 * Row-level security (Superset's `row_level_security_filters`, `rls_filter_roles`, `rls_filter_tables`): a SQL
 * clause added to every chart query of its datasets, for the users of its roles (Regular) or for everyone but
 * them (Base); filters sharing a group key are ORed together.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('row_level_security_filters')
    .ifNotExists()
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('name', 'varchar(255)', (c) => c.notNull().unique())
    .addColumn('description', 'text')
    .addColumn('filter_type', 'varchar(255)', (c) => c.notNull())
    .addColumn('clause', 'text', (c) => c.notNull())
    .addColumn('group_key', 'varchar(255)')
    .addColumn('created_on', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('changed_on', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('created_by_fk', 'integer', (c) => c.references('ab_user.id').onDelete('set null'))
    .addColumn('changed_by_fk', 'integer', (c) => c.references('ab_user.id').onDelete('set null'))
    .execute();
  await db.schema
    .createTable('rls_filter_roles')
    .ifNotExists()
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('role_id', 'integer', (c) => c.notNull().references('ab_role.id').onDelete('cascade'))
    .addColumn('rls_filter_id', 'integer', (c) => c.notNull().references('row_level_security_filters.id').onDelete('cascade'))
    .addUniqueConstraint('rls_filter_roles_unique', ['rls_filter_id', 'role_id'])
    .execute();
  await db.schema
    .createTable('rls_filter_tables')
    .ifNotExists()
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('table_id', 'integer', (c) => c.notNull().references('tables.id').onDelete('cascade'))
    .addColumn('rls_filter_id', 'integer', (c) => c.notNull().references('row_level_security_filters.id').onDelete('cascade'))
    .addUniqueConstraint('rls_filter_tables_unique', ['rls_filter_id', 'table_id'])
    .execute();
  await db.schema.createIndex('rls_filter_tables_table').on('rls_filter_tables').column('table_id').execute();
}
