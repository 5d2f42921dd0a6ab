import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { Kysely, Migrator, PostgresDialect, sql, type Migration } from 'kysely';
import type pg from 'pg';
import { migrations } from '../../../migrations/index';
import type { DB } from './schema';

export type MetadataDb = Kysely<DB>;

// The metadata store holds no integer past 2^53, so its int8 values (count(*), ids) are read as numbers.
// Scoped to this pool: analytic connections elsewhere in the process keep every digit of their BIGINTs.
const metadataTypes = (types: typeof pg.types) => ({
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === 20 ? (v: string) => Number(v) : types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
});

/**
 * Opens the metadata store: PostgreSQL through `pg` when a URL is given, otherwise PGlite in-process
 * under `<dataDir>/metadata` (or in memory for `dataDir: ':memory:'`, used by tests). `from`: an in-memory store
 * starts from this dump of a data directory (PGlite's dumpDataDir) instead of running initdb, ~3.5 s of a start.
 */
export async function openMetadataDb(opts: { databaseUrl?: string; dataDir: string; from?: Blob }): Promise<MetadataDb> {
  if (opts.databaseUrl) {
    // Loaded only for a PostgreSQL store: the embedded default starts without it.
    const { default: pg } = await import('pg');
    const pool = new pg.Pool({ connectionString: opts.databaseUrl, max: 10, types: metadataTypes(pg.types) });
    // An idle connection the server ended (a restart, a terminated backend) is an 'error' event on the pool; pg
    // already drops that client and the next query connects again, but an event without a listener kills the process.
    pool.on('error', () => undefined);
    // A client checked out when the server goes (a restart) emits 'error' on itself, where the pool's listener does not
    // reach; unheard, it would end the process. Its query in flight still fails, and the pool drops the client.
    pool.on('connect', (client) => client.on('error', () => undefined));
    return new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
  }
  const { PGlite } = await import('@electric-sql/pglite');
  const { PGliteDialect } = await import('kysely-pglite-dialect');
  let dir: string | undefined;
  if (opts.dataDir !== ':memory:') {
    dir = join(opts.dataDir, 'metadata');
    mkdirSync(dir, { recursive: true });
  }
  if (dir && !existsSync(join(dir, 'PG_VERSION'))) await initPgliteDir(dir);
  // PostgreSQL's default 128 MB of shared buffers is resident in the WASM heap; the metadata tables are
  // small and PGlite's files sit in the OS page cache anyway, so 32 MB keeps the server ~130 MB lighter.
  const options = { startParams: [...PGlite.defaultStartParams, '-c', 'shared_buffers=32MB'], loadDataDir: dir ? undefined : opts.from };
  const client = dir ? new PGlite(dir, options) : new PGlite(options);
  await client.waitReady;
  // PGlite returns int8 as bigint by default in some paths; keep the metadata numbers plain.
  const db = new Kysely<DB>({ dialect: new PGliteDialect(client) });
  embedded.set(db, client);
  return db;
}

/** Each embedded store's PGlite, for dumpMetadataDb (Kysely keeps its dialect's client to itself). */
const embedded = new WeakMap<MetadataDb, { dumpDataDir: (compression?: 'none') => Promise<Blob> }>();

/** An embedded store's whole data directory as a tar, for starting other stores from (openMetadataDb's `from`). */
export async function dumpMetadataDb(db: MetadataDb): Promise<Blob> {
  const client = embedded.get(db);
  if (!client) throw new Error('Only an embedded (PGlite) metadata store can be dumped');
  return client.dumpDataDir('none');
}

/**
 * Creates a PGlite data directory in a short-lived worker thread. initdb grows the WASM heap by ~500 MB
 * and an instance never gives that back; when the worker ends, its heap goes with it, so a first start
 * serves at the same size as every later one.
 */
async function initPgliteDir(dir: string): Promise<void> {
  const pglite = import.meta.resolve('@electric-sql/pglite');
  const worker = new Worker(
    `const { workerData } = require('node:worker_threads');
     import(workerData.pglite).then(async ({ PGlite }) => { const db = new PGlite(workerData.dir); await db.waitReady; await db.close(); });`,
    { eval: true, workerData: { pglite, dir } },
  );
  await new Promise<void>((resolve, reject) => {
    worker.once('error', reject);
    worker.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`PGlite initdb worker exited with ${code}`))));
  });
}

/**
 * Runs every pending migration and returns their names; a second run changes nothing. kysely's
 * Migrator runs the whole batch in ONE transaction under its lock table (PostgreSQL and PGlite have
 * transactional DDL), so a failing migration leaves the store as it was before the run, earlier
 * migrations of the same run included. `list` is for tests.
 */
export async function migrateToLatest(db: MetadataDb, list: Record<string, Migration> = migrations): Promise<string[]> {
  // Nearly every start finds nothing to do: one read says so, where the Migrator's lock dance costs a
  // noticeable part of a start on the embedded store.
  if (await allApplied(db, Object.keys(list))) return [];
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => list },
    migrationTableName: 'meridian_migration',
    migrationLockTableName: 'meridian_migration_lock',
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/** Whether every named migration is recorded as applied (false when the migrations table does not exist yet). */
async function allApplied(db: MetadataDb, names: string[]): Promise<boolean> {
  try {
    const { rows } = await sql<{ name: string }>`SELECT name FROM meridian_migration`.execute(db);
    const applied = new Set(rows.map((r) => r.name));
    return names.every((name) => applied.has(name));
  } catch {
    return false;
  }
}

/** True for PostgreSQL's (and PGlite's) unique violation: a check-then-insert lost a race to another writer. */
export function isUniqueViolation(error: unknown): boolean {
  return (error as { code?: string } | null)?.code === '23505';
}
