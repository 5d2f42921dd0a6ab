import { type Kysely, sql } from 'kysely';

/** Report schedules with recipients and execution logs, key-value entries (shared queries, permalinks) and event logs. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('report_schedule')
    .ifNotExists()
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('type', 'varchar(50)', (c) => c.notNull())
    .addColumn('name', 'varchar(150)', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('context_markdown', 'text')
    .addColumn('active', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('crontab', 'varchar(1000)', (c) => c.notNull())
    .addColumn('timezone', 'varchar(100)', (c) => c.notNull().defaultTo('UTC'))
    .addColumn('creation_method', 'varchar(255)', (c) => c.defaultTo('alerts_reports'))
    .addColumn('report_format', 'varchar(50)', (c) => c.defaultTo('PNG'))
    .addColumn('sql', 'text')
    .addColumn('chart_id', 'integer', (c) => c.references('slices.id').onDelete('cascade'))
    .addColumn('dashboard_id', 'integer', (c) => c.references('dashboards.id').onDelete('cascade'))
    .addColumn('database_id', 'integer', (c) => c.references('dbs.id').onDelete('cascade'))
    .addColumn('last_eval_dttm', 'timestamptz')
    .addColumn('last_state', 'varchar(50)', (c) => c.defaultTo('Not triggered'))
    .addColumn('last_value', 'double precision')
    .addColumn('last_value_row_json', 'text')
    .addColumn('validator_type', 'varchar(100)')
    .addColumn('validator_config_json', 'text', (c) => c.defaultTo('{}'))
    .addColumn('log_retention', 'integer', (c) => c.defaultTo(90))
    .addColumn('grace_period', 'integer', (c) => c.defaultTo(60 * 60 * 4))
    .addColumn('working_timeout', 'integer', (c) => c.defaultTo(60 * 60 * 1))
    .addColumn('force_screenshot', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('extra_json', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('created_on', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('changed_on', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('created_by_fk', 'integer', (c) => c.references('ab_user.id').onDelete('set null'))
    .addColumn('changed_by_fk', 'integer', (c) => c.references('ab_user.id').onDelete('set null'))
    .execute();
  await db.schema
    .createTable('report_recipient')
    .ifNotExists()
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('type', 'varchar(50)', (c) => c.notNull())
    .addColumn('recipient_config_json', 'text', (c) => c.defaultTo('{}'))
    .addColumn('report_schedule_id', 'integer', (c) => c.notNull().references('report_schedule.id').onDelete('cascade'))
    .execute();
  await db.schema
    .createTable('report_execution_log')
    .ifNotExists()
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('uuid', 'uuid', (c) => c.notNull().defaultTo(sql`gen_random_uuid()`))
    .addColumn('scheduled_dttm', 'timestamptz', (c) => c.notNull())
    .addColumn('start_dttm', 'timestamptz')
    .addColumn('end_dttm', 'timestamptz')
    .addColumn('value', 'double precision')
    .addColumn('value_row_json', 'text')
    .addColumn('state', 'varchar(50)', (c) => c.notNull())
    .addColumn('error_message', 'text')
    .addColumn('report_schedule_id', 'integer', (c) => c.notNull().references('report_schedule.id').onDelete('cascade'))
    .execute();
  await db.schema
    .createTable('report_schedule_user')
    .ifNotExists()
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('ab_user.id').onDelete('cascade'))
    .addColumn('report_schedule_id', 'integer', (c) => c.notNull().references('report_schedule.id').onDelete('cascade'))
    .execute();

  await db.schema
    .createTable('key_value')
    .ifNotExists()
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('uuid', 'uuid', (c) => c.notNull().unique().defaultTo(sql`gen_random_uuid()`))
    .addColumn('resource', 'varchar(32)', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('created_on', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('created_by_fk', 'integer', (c) => c.references('ab_user.id').onDelete('set null'))
    .addColumn('changed_on', 'timestamptz')
    .addColumn('changed_by_fk', 'integer', (c) => c.references('ab_user.id').onDelete('set null'))
    .addColumn('expires_on', 'timestamptz')
    .execute();

  await db.schema
    .createTable('logs')
    .ifNotExists()
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('action', 'varchar(512)')
    .addColumn('user_id', 'integer', (c) => c.references('ab_user.id').onDelete('set null'))
    .addColumn('json', 'text')
    .addColumn('dttm', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('dashboard_id', 'integer')
    .addColumn('slice_id', 'integer')
    .addColumn('duration_ms', 'integer')
    .addColumn('referrer', 'varchar(1024)')
    .execute();
  await db.schema.createIndex('logs_dttm_idx').ifNotExists().on('logs').column('dttm').execute();
}
