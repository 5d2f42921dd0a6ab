import { type Kysely, sql } from 'kysely';

/**
 * Tags (Superset's TAGGING_SYSTEM): `tag` (type 1 custom, 2 type, 3 owner, 4 favorited_by), `tagged_object`
 * (object_type 'query' for saved queries, 'chart', 'dashboard', 'dataset') and `user_favorite_tag`.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('tag')
    .ifNotExists()
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('name', 'varchar(250)', (c) => c.notNull().unique())
    .addColumn('type', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('description', 'text')
    .addColumn('created_on', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('changed_on', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('created_by_fk', 'integer', (c) => c.references('ab_user.id').onDelete('set null'))
    .addColumn('changed_by_fk', 'integer', (c) => c.references('ab_user.id').onDelete('set null'))
    .execute();
  await db.schema
    .createTable('tagged_object')
    .ifNotExists()
    .addColumn('id', 'serial', (c) => c.primaryKey())
    .addColumn('tag_id', 'integer', (c) => c.notNull().references('tag.id').onDelete('cascade'))
    .addColumn('object_id', 'integer', (c) => c.notNull())
    .addColumn('object_type', 'varchar(16)', (c) => c.notNull())
    .addColumn('created_on', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('created_by_fk', 'integer', (c) => c.references('ab_user.id').onDelete('set null'))
    .addUniqueConstraint('tagged_object_unique', ['tag_id', 'object_id', 'object_type'])
    .execute();
  await db.schema.createIndex('tagged_object_object_idx').ifNotExists().on('tagged_object').columns(['object_type', 'object_id']).execute();
  await db.schema
    .createTable('user_favorite_tag')
    .ifNotExists()
    .addColumn('user_id', 'integer', (c) => c.notNull().references('ab_user.id').onDelete('cascade'))
    .addColumn('tag_id', 'integer', (c) => c.notNull().references('tag.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('user_favorite_tag_pk', ['user_id', 'tag_id'])
    .execute();
}
