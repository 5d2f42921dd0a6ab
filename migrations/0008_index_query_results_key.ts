import type { Kysely } from 'kysely';

/**
 * Index on `query.results_key` (Superset's Query model indexes it too): every results call looks
 * its query up by key, and the table keeps every query ever run, so without it each page of a
 * result scanned the whole history.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('query_results_key_idx').ifNotExists().on('query').column('results_key').execute();
}
