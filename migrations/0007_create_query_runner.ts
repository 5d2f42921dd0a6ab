import { type Kysely, sql } from 'kysely';

/**
 * `query_runner`: one row per live server process (run) that executes SQL Lab queries, with a
 * heartbeat. A query records its run in `extra_json.runner`; on start and at every heartbeat a
 * process fails only the unfinished queries whose run stopped beating (several web processes may
 * share one PostgreSQL metadata store).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('query_runner')
    .ifNotExists()
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    // Stable across restarts of one process (host, port, data dir or INSTANCE_NAME): a restart fails its previous run's queries at once.
    .addColumn('instance_name', 'varchar(512)', (c) => c.notNull())
    .addColumn('started_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('heartbeat_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}
