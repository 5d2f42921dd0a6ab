import { existsSync, linkSync, openAsBlob, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { inject } from 'vitest';
import { dumpMetadataDb, migrateToLatest, openMetadataDb } from '../../server/src/db/database';
import { ensureAdmin } from '../../server/src/security/admin';

/**
 * The embedded metadata store as every test app starts it (migrated, roles and admin/admin seeded), dumped once per
 * run and loaded by each app after. A fresh PGlite runs initdb, ~3.5 s of CPU (more under the suite's load), and
 * about a hundred test apps start in a run. Made by the first app that needs it; two forks that both find it missing
 * both make it, and the first to settle it keeps its place. Without the run's directory (no global setup), undefined.
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
    settle(partial, path);
  }
  return openAsBlob(path);
}

/**
 * Puts a finished file at `path` unless another fork put one there first: a hard link never replaces, so a file once
 * in place never changes under a reader (a Blob from openAsBlob refuses to read a file changed since it was opened).
 */
export function settle(partial: string, path: string): void {
  try {
    linkSync(partial, path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    rmSync(partial, { force: true });
  }
}
