import { openAsBlob, writeFileSync } from 'node:fs';
import { dumpMetadataDb, migrateToLatest, openMetadataDb } from '../../server/src/db/database';
import { ensureAdmin } from '../../server/src/security/admin';
import { runFile } from './run-dir';

/**
 * The embedded metadata store as every test app starts it (migrated, roles and admin/admin seeded), dumped once per
 * run and loaded by each app after: a fresh PGlite runs initdb, ~3.5 s of CPU (more under the suite's load), and
 * about a hundred test apps start in a run.
 */
export async function metadataTemplate(): Promise<Blob | undefined> {
  const path = await runFile('metadata.tar', async (partial) => {
    const db = await openMetadataDb({ dataDir: ':memory:' });
    await migrateToLatest(db);
    await ensureAdmin(db, { password: 'admin' });
    const dump = await dumpMetadataDb(db);
    await db.destroy();
    writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
  });
  return path ? openAsBlob(path) : undefined;
}
