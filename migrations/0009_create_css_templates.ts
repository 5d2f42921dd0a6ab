import { type Kysely, sql } from 'kysely';

/** CSS templates offered by the dashboard CSS editor (Superset's `css_templates`). */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('css_templates')
    .ifNotExists()
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('uuid', 'uuid', (c) => c.notNull().unique().defaultTo(sql`gen_random_uuid()`))
    .addColumn('template_name', 'varchar(250)', (c) => c.notNull())
    .addColumn('css', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_on', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('changed_on', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('created_by_fk', 'integer', (c) => c.references('ab_user.id').onDelete('set null'))
    .addColumn('changed_by_fk', 'integer', (c) => c.references('ab_user.id').onDelete('set null'))
    .execute();
}
