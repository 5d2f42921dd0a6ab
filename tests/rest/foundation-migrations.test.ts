import type { Kysely, Migration } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { migrations } from '../../migrations/index';
import { migrateToLatest, openMetadataDb, type MetadataDb } from '../../server/src/db/database';
import { createPgDatabase } from '../helpers/pg';

// A migration that creates a table and then fails, appended after the real ones.
const broken: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.createTable('half_done').addColumn('id', 'integer').execute();
    throw new Error('broken migration');
  },
};

describe.each(['pglite', 'postgres'] as const)('migrations on %s', (kind) => {
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
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
});
