import { type Kysely, sql } from 'kysely';

/** A dashboard's embedding (Superset's `embedded_dashboards`): its public uuid and the domains allowed to frame it. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('embedded_dashboards')
    .ifNotExists()
    .addColumn('uuid', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('dashboard_id', 'integer', (c) => c.notNull().unique().references('dashboards.id').onDelete('cascade'))
    // JSON list of origins; empty: any domain may frame it, as Superset.
    .addColumn('allowed_domains', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('created_on', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('changed_on', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('created_by_fk', 'integer', (c) => c.references('ab_user.id').onDelete('set null'))
    .addColumn('changed_by_fk', 'integer', (c) => c.references('ab_user.id').onDelete('set null'))
    .execute();
}
