import { sql, type Kysely, type Migration } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { migrations } from '../../migrations/index';
import { migrateToLatest, openMetadataDb, type MetadataDb } from '../../server/src/db/database';
import { createPgDatabase, PG_ADMIN_URL } from '../helpers/pg';

// A migration that creates a table and then fails, appended after the real ones.
const broken: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.createTable('half_done').addColumn('id', 'integer').execute();
    throw new Error('broken migration');
  },
};

describe.each(['pglite', 'postgres'] as const)('migrations on %s', (kind) => {
  // Each test's database goes when the test ends: an in-memory PGlite holds ~0.5 GB of WASM heap after initdb.
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function freshDb(): Promise<MetadataDb> {
    if (kind === 'pglite') {
      const db = await openMetadataDb({ dataDir: ':memory:' });
      cleanups.push(() => db.destroy());
      return db;
    }
    const pgDb = await createPgDatabase();
    const db = await openMetadataDb({ databaseUrl: pgDb.url, dataDir: ':memory:' });
    cleanups.push(() => pgDb.drop(), () => db.destroy());
    return db;
  }

  it('runs a batch in one transaction: a failing migration leaves no table of the run behind', async () => {
    const db = await freshDb();
    await expect(migrateToLatest(db, { ...migrations, '9999_broken': broken })).rejects.toThrow('broken migration');
    const tables = (await db.introspection.getTables()).map((t) => t.name);
    expect(tables).not.toContain('ab_user');
    expect(tables).not.toContain('half_done');
    // The good migrations then apply, all of them, and a second run changes nothing.
    expect(await migrateToLatest(db)).toEqual(Object.keys(migrations));
    expect(await migrateToLatest(db)).toEqual([]);
  });

  it('indexes what SQL Lab looks queries up by: results key, user, last change', async () => {
    const db = await freshDb();
    await migrateToLatest(db);
    const { rows } = await sql<{ indexname: string; indexdef: string }>`SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'query'`.execute(db);
    const defs = Object.fromEntries(rows.map((r) => [r.indexname, r.indexdef]));
    expect(defs.query_results_key_idx).toMatch(/\(results_key\)/);
    expect(defs.query_user_idx).toMatch(/\(user_id, changed_on\)/);
    expect(defs.query_changed_on_idx).toMatch(/\(changed_on\)/);
  });
});

describe('the metadata store on PostgreSQL', () => {
  it('survives the server ending an idle connection: the next query connects again', async () => {
    const pgDb = await createPgDatabase();
    const db = await openMetadataDb({ databaseUrl: pgDb.url, dataDir: ':memory:' });
    try {
      const pid = (await sql<{ pid: number }>`SELECT pg_backend_pid() AS pid`.execute(db)).rows[0]!.pid;
      const admin = await openMetadataDb({ databaseUrl: PG_ADMIN_URL, dataDir: ':memory:' });
      await sql`SELECT pg_terminate_backend(${pid})`.execute(admin);
      await admin.destroy();
      // The pool sees its idle client end; without a listener that 'error' event would take the process down.
      await new Promise((resolve) => setTimeout(resolve, 200));
      const again = (await sql<{ pid: number }>`SELECT pg_backend_pid() AS pid`.execute(db)).rows[0]!.pid;
      expect(again).not.toBe(pid);
    } finally {
      await db.destroy();
      await pgDb.drop();
    }
  });
});
