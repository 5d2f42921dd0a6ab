import { existsSync, linkSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { inject } from 'vitest';

/**
 * A file of the run's own directory (global-setup.ts), made by `make` the first time a test asks for it, for what
 * every test app would otherwise make again. Two forks that both find it missing both make it; the first to finish
 * puts it in place with a hard link, which never replaces, so a file once there never changes under a reader (a Blob
 * from openAsBlob refuses to read a file changed since it was opened). Undefined without the run's directory.
 */
export async function runFile(name: string, make: (path: string) => Promise<void>): Promise<string | undefined> {
  const dir = inject('runDir');
  if (!dir) return undefined;
  const path = join(dir, name);
  if (existsSync(path)) return path;
  const partial = `${path}.${process.pid}`;
  try {
    await make(partial);
    linkSync(partial, path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    rmSync(partial, { force: true });
  }
  return path;
}
