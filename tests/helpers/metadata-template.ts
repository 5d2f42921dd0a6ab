import { existsSync, openAsBlob, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { inject } from 'vitest';
import { dumpMetadataDb, migrateToLatest, openMetadataDb } from '../../server/src/db/database';
import { ensureAdmin } from '../../server/src/security/admin';

/**
 * The embedded metadata store as every test app starts it (migrated, roles and admin/admin seeded), dumped once per
 * run and loaded by each app after. A fresh PGlite runs initdb, ~3.5 s of CPU (more under the suite's load), and
 * about a hundred test apps start in a run. Made by the first app that needs it; two forks that both find it missing
 * both make it, and the rename keeps one whole file. Without the run's directory (no global setup), undefined.
 */
export async function metadataTemplate(): Promise<Blob | undefined> {
  const dir = inject('runDir');
  if (!dir) return undefined;
  const path = join(dir, 'metadata.tar');
  if (!existsSync(path)) {
    const db = await openMetadataDb({ dataDir: ':memory:' });
    await migrateToLatest(db);
    await ensureAdmin(db, { password: 'admin' });
    const dump = await dumpMetadataDb(db);
    await db.destroy();
    const partial = `${path}.${process.pid}`;
    writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
    renameSync(partial, path);
  }
  return openAsBlob(path);
}
