import { type Kysely, sql } from 'kysely';

/**
 * Reports: Superset's `custom_width` and `email_subject` columns, a unique name per type, and
 * `report_schedule_run`, where a web process claims a due run (one row per schedule and scheduled time,
 * inserted once) so that with several processes each run executes exactly once.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('report_schedule').addColumn('custom_width', 'integer').execute();
  await db.schema.alterTable('report_schedule').addColumn('email_subject', 'varchar(255)').execute();
  await db.schema.createIndex('report_schedule_name_type_unique').on('report_schedule').columns(['name', 'type']).unique().execute();
  await db.schema
    .createTable('report_schedule_run')
    .ifNotExists()
    .addColumn('report_schedule_id', 'integer', (c) => c.notNull().references('report_schedule.id').onDelete('cascade'))
    .addColumn('scheduled_dttm', 'timestamptz', (c) => c.notNull())
    .addColumn('claimed_by', 'varchar(255)', (c) => c.notNull())
    .addColumn('claimed_on', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('report_schedule_run_pk', ['report_schedule_id', 'scheduled_dttm'])
    .execute();
  await db.schema.createIndex('report_execution_log_schedule').on('report_execution_log').columns(['report_schedule_id', 'end_dttm']).execute();
}
