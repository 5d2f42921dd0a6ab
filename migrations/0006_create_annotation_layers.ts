import { type Kysely, sql } from 'kysely';

/** Annotation layers and their annotations (Superset's `annotation_layer` and `annotation`). */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('annotation_layer')
    .ifNotExists()
    .addColumn('id', 'serial', (c) => c.primaryKey())
    // Superset checks uniqueness in its command only; the constraint also closes the race between two creates.
    .addColumn('name', 'varchar(250)', (c) => c.notNull().unique())
    .addColumn('descr', 'text')
    .addColumn('created_on', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('changed_on', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('created_by_fk', 'integer', (c) => c.references('ab_user.id').onDelete('set null'))
    .addColumn('changed_by_fk', 'integer', (c) => c.references('ab_user.id').onDelete('set null'))
    .execute();

  await db.schema
    .createTable('annotation')
    .ifNotExists()
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('layer_id', 'integer', (c) => c.notNull().references('annotation_layer.id').onDelete('cascade'))
    .addColumn('short_descr', 'varchar(500)')
    .addColumn('long_descr', 'text')
    .addColumn('start_dttm', 'timestamptz')
    .addColumn('end_dttm', 'timestamptz')
    .addColumn('json_metadata', 'text')
    .addColumn('created_on', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('changed_on', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('created_by_fk', 'integer', (c) => c.references('ab_user.id').onDelete('set null'))
    .addColumn('changed_by_fk', 'integer', (c) => c.references('ab_user.id').onDelete('set null'))
    .execute();
  // Chart data reads a layer's annotations in time order.
  await db.schema.createIndex('annotation_layer_time_idx').ifNotExists().on('annotation').columns(['layer_id', 'start_dttm', 'end_dttm']).execute();
}
