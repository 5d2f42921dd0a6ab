import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Kysely, Migrator, PostgresDialect } from 'kysely';
import pg from 'pg';
import { migrations } from '../../../migrations/index';
import type { DB } from './schema';

export type MetadataDb = Kysely<DB>;

// The metadata store holds no integer past 2^53, so its int8 values (count(*), ids) are read as numbers.
// Scoped to this pool: analytic connections elsewhere in the process keep every digit of their BIGINTs.
const metadataTypes = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === 20 ? (v: string) => Number(v) : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
};

/**
 * Opens the metadata store: PostgreSQL through `pg` when a URL is given, otherwise PGlite in-process
 * under `<dataDir>/metadata` (or in memory for `dataDir: ':memory:'`, used by tests).
 */
export async function openMetadataDb(opts: { databaseUrl?: string; dataDir: string }): Promise<MetadataDb> {
  if (opts.databaseUrl) {
    return new Kysely<DB>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: opts.databaseUrl, max: 10, types: metadataTypes }) }) });
  }
  const { PGlite } = await import('@electric-sql/pglite');
  const { PGliteDialect } = await import('kysely-pglite-dialect');
  let dir: string | undefined;
  if (opts.dataDir !== ':memory:') {
    dir = join(opts.dataDir, 'metadata');
    mkdirSync(dir, { recursive: true });
  }
  const client = dir ? new PGlite(dir) : new PGlite();
  await client.waitReady;
  // PGlite returns int8 as bigint by default in some paths; keep the metadata numbers plain.
  return new Kysely<DB>({ dialect: new PGliteDialect(client) });
}

/** Runs every pending migration, each in its own transaction; a second run changes nothing. */
export async function migrateToLatest(db: MetadataDb): Promise<string[]> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    migrationTableName: 'meridian_migration',
    migrationLockTableName: 'meridian_migration_lock',
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
