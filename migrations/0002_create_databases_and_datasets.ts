import { type Kysely, sql } from 'kysely';

const audit = (t: any) =>
  t
    .addColumn('created_on', 'timestamptz', (c: any) => c.notNull().defaultTo(sql`now()`))
    .addColumn('changed_on', 'timestamptz', (c: any) => c.notNull().defaultTo(sql`now()`))
    .addColumn('created_by_fk', 'integer', (c: any) => c.references('ab_user.id').onDelete('set null'))
    .addColumn('changed_by_fk', 'integer', (c: any) => c.references('ab_user.id').onDelete('set null'));

/** Analytic database connections and the datasets (tables and SQL) built on them. */
export async function up(db: Kysely<any>): Promise<void> {
  await audit(
    db.schema
      .createTable('dbs')
      .ifNotExists()
      .addColumn('id', 'serial', (c) => c.primaryKey())
      .addColumn('uuid', 'uuid', (c) => c.notNull().unique().defaultTo(sql`gen_random_uuid()`))
      .addColumn('database_name', 'varchar(250)', (c) => c.notNull().unique())
      .addColumn('sqlalchemy_uri', 'text', (c) => c.notNull())
      .addColumn('password_encrypted', 'text')
      .addColumn('extra', 'text', (c) => c.notNull().defaultTo('{}'))
      .addColumn('expose_in_sqllab', 'boolean', (c) => c.notNull().defaultTo(true))
      .addColumn('allow_run_async', 'boolean', (c) => c.notNull().defaultTo(false))
      .addColumn('allow_dml', 'boolean', (c) => c.notNull().defaultTo(false))
      .addColumn('allow_ctas', 'boolean', (c) => c.notNull().defaultTo(false))
      .addColumn('allow_cvas', 'boolean', (c) => c.notNull().defaultTo(false))
      .addColumn('allow_file_upload', 'boolean', (c) => c.notNull().defaultTo(false))
      .addColumn('cache_timeout', 'integer')
      .addColumn('force_ctas_schema', 'varchar(250)')
      .addColumn('impersonate_user', 'boolean', (c) => c.notNull().defaultTo(false))
      .addColumn('is_managed_externally', 'boolean', (c) => c.notNull().defaultTo(false))
      .addColumn('external_url', 'text'),
  ).execute();

  await audit(
    db.schema
      .createTable('tables')
      .ifNotExists()
      .addColumn('id', 'serial', (c) => c.primaryKey())
      .addColumn('uuid', 'uuid', (c) => c.notNull().unique().defaultTo(sql`gen_random_uuid()`))
      .addColumn('database_id', 'integer', (c) => c.notNull().references('dbs.id').onDelete('cascade'))
      .addColumn('catalog', 'varchar(256)')
      .addColumn('schema', 'varchar(255)')
      .addColumn('table_name', 'varchar(250)', (c) => c.notNull())
      .addColumn('sql', 'text')
      .addColumn('description', 'text')
      .addColumn('main_dttm_col', 'varchar(250)')
      .addColumn('default_endpoint', 'text')
      .addColumn('offset', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('cache_timeout', 'integer')
      .addColumn('filter_select_enabled', 'boolean', (c) => c.notNull().defaultTo(true))
      .addColumn('fetch_values_predicate', 'text')
      .addColumn('template_params', 'text')
      .addColumn('extra', 'text')
      .addColumn('normalize_columns', 'boolean', (c) => c.notNull().defaultTo(false))
      .addColumn('always_filter_main_dttm', 'boolean', (c) => c.notNull().defaultTo(false))
      .addColumn('is_sqllab_view', 'boolean', (c) => c.notNull().defaultTo(false))
      .addColumn('is_managed_externally', 'boolean', (c) => c.notNull().defaultTo(false))
      .addColumn('external_url', 'text'),
  ).execute();
  await sql`CREATE UNIQUE INDEX IF NOT EXISTS tables_unique_name ON tables (database_id, coalesce(catalog, ''), coalesce(schema, ''), table_name)`.execute(db);

  await audit(
    db.schema
      .createTable('table_columns')
      .ifNotExists()
      .addColumn('id', 'serial', (c) => c.primaryKey())
      .addColumn('uuid', 'uuid', (c) => c.notNull().unique().defaultTo(sql`gen_random_uuid()`))
      .addColumn('table_id', 'integer', (c) => c.notNull().references('tables.id').onDelete('cascade'))
      .addColumn('column_name', 'varchar(255)', (c) => c.notNull())
      .addColumn('verbose_name', 'varchar(1024)')
      .addColumn('type', 'text')
      .addColumn('advanced_data_type', 'varchar(255)')
      .addColumn('is_dttm', 'boolean', (c) => c.notNull().defaultTo(false))
      .addColumn('is_active', 'boolean', (c) => c.notNull().defaultTo(true))
      .addColumn('groupby', 'boolean', (c) => c.notNull().defaultTo(true))
      .addColumn('filterable', 'boolean', (c) => c.notNull().defaultTo(true))
      .addColumn('expression', 'text')
      .addColumn('description', 'text')
      .addColumn('python_date_format', 'varchar(255)')
      .addColumn('extra', 'text')
      .addUniqueConstraint('table_columns_unique', ['table_id', 'column_name']),
  ).execute();

  await audit(
    db.schema
      .createTable('sql_metrics')
      .ifNotExists()
      .addColumn('id', 'serial', (c) => c.primaryKey())
      .addColumn('uuid', 'uuid', (c) => c.notNull().unique().defaultTo(sql`gen_random_uuid()`))
      .addColumn('table_id', 'integer', (c) => c.notNull().references('tables.id').onDelete('cascade'))
      .addColumn('metric_name', 'varchar(255)', (c) => c.notNull())
      .addColumn('verbose_name', 'varchar(1024)')
      .addColumn('metric_type', 'varchar(32)')
      .addColumn('expression', 'text', (c) => c.notNull())
      .addColumn('description', 'text')
      .addColumn('d3format', 'varchar(128)')
      .addColumn('currency', 'varchar(128)')
      .addColumn('warning_text', 'text')
      .addColumn('extra', 'text')
      .addUniqueConstraint('sql_metrics_unique', ['table_id', 'metric_name']),
  ).execute();

  for (const table of ['dbs', 'tables']) {
    await db.schema
      .createTable(`${table === 'dbs' ? 'database' : 'sqlatable'}_user`)
      .ifNotExists()
      .addColumn('id', 'serial', (c) => c.primaryKey())
      .addColumn('user_id', 'integer', (c) => c.notNull().references('ab_user.id').onDelete('cascade'))
      .addColumn(table === 'dbs' ? 'database_id' : 'table_id', 'integer', (c) => c.notNull().references(`${table}.id`).onDelete('cascade'))
      .execute();
  }
}
