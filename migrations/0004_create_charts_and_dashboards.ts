import { type Kysely, sql } from 'kysely';

/** Saved charts (slices), dashboards, their links and owners, and favourites. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('slices')
    .ifNotExists()
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('uuid', 'uuid', (c) => c.notNull().unique().defaultTo(sql`gen_random_uuid()`))
    .addColumn('slice_name', 'varchar(250)', (c) => c.notNull())
    .addColumn('datasource_id', 'integer')
    .addColumn('datasource_type', 'varchar(200)')
    .addColumn('viz_type', 'varchar(250)')
    .addColumn('params', 'text')
    .addColumn('query_context', 'text')
    .addColumn('description', 'text')
    .addColumn('cache_timeout', 'integer')
    .addColumn('certified_by', 'text')
    .addColumn('certification_details', 'text')
    .addColumn('is_managed_externally', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('external_url', 'text')
    .addColumn('last_saved_at', 'timestamptz')
    .addColumn('last_saved_by_fk', 'integer', (c) => c.references('ab_user.id').onDelete('set null'))
    .addColumn('created_on', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('changed_on', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('created_by_fk', 'integer', (c) => c.references('ab_user.id').onDelete('set null'))
    .addColumn('changed_by_fk', 'integer', (c) => c.references('ab_user.id').onDelete('set null'))
    .execute();

  await db.schema
    .createTable('dashboards')
    .ifNotExists()
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('uuid', 'uuid', (c) => c.notNull().unique().defaultTo(sql`gen_random_uuid()`))
    .addColumn('dashboard_title', 'varchar(500)')
    .addColumn('slug', 'varchar(255)', (c) => c.unique())
    .addColumn('position_json', 'text')
    .addColumn('json_metadata', 'text')
    .addColumn('css', 'text')
    .addColumn('description', 'text')
    .addColumn('published', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('certified_by', 'text')
    .addColumn('certification_details', 'text')
    .addColumn('is_managed_externally', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('external_url', 'text')
    .addColumn('created_on', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('changed_on', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('created_by_fk', 'integer', (c) => c.references('ab_user.id').onDelete('set null'))
    .addColumn('changed_by_fk', 'integer', (c) => c.references('ab_user.id').onDelete('set null'))
    .execute();

  const link = async (name: string, left: [string, string], right: [string, string]) => {
    await db.schema
      .createTable(name)
      .ifNotExists()
      .addColumn('id', 'serial', (c) => c.primaryKey())
      .addColumn(left[0], 'integer', (c) => c.notNull().references(left[1]).onDelete('cascade'))
      .addColumn(right[0], 'integer', (c) => c.notNull().references(right[1]).onDelete('cascade'))
      .addUniqueConstraint(`${name}_unique`, [left[0], right[0]])
      .execute();
  };
  await link('dashboard_slices', ['dashboard_id', 'dashboards.id'], ['slice_id', 'slices.id']);
  await link('dashboard_user', ['dashboard_id', 'dashboards.id'], ['user_id', 'ab_user.id']);
  await link('dashboard_roles', ['dashboard_id', 'dashboards.id'], ['role_id', 'ab_role.id']);
  await link('slice_user', ['slice_id', 'slices.id'], ['user_id', 'ab_user.id']);

  await db.schema
    .createTable('favstar')
    .ifNotExists()
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('ab_user.id').onDelete('cascade'))
    .addColumn('class_name', 'varchar(50)', (c) => c.notNull())
    .addColumn('obj_id', 'integer', (c) => c.notNull())
    .addColumn('dttm', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('favstar_unique', ['user_id', 'class_name', 'obj_id'])
    .execute();
}
