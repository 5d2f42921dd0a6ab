import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { buildExamplesFile, ensureExamplesDatabase, examplesPath, salesRowsFromEnv } from '../../server/src/database/examples';
import { runFile } from './run-dir';

type Services = Parameters<typeof ensureExamplesDatabase>[0];

/**
 * ensureExamplesDatabase for a test app, with the examples file copied from one the run built before at the same size:
 * about forty test files register the examples, and each build is a child process generating ~90,000 rows (4-5 s
 * with the default million sales rows). The copy is the test's own, to change as it likes.
 */
export async function ensureTestExamples(services: Services, opts: { path?: string; salesRows?: number } = {}): ReturnType<typeof ensureExamplesDatabase> {
  if (services.config.dataDir === ':memory:') return ensureExamplesDatabase(services, opts);
  const path = opts.path ?? examplesPath(services.config.dataDir);
  if (!existsSync(path)) {
    const rows = opts.salesRows ?? salesRowsFromEnv();
    const built = await runFile(`examples-${rows ?? 'default'}.duckdb`, (partial) => buildExamplesFile(partial, rows));
    if (built) {
      mkdirSync(dirname(path), { recursive: true });
      copyFileSync(built, path);
    }
  }
  return ensureExamplesDatabase(services, { ...opts, path });
}
