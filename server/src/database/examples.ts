import { spawn } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ROOT_DIR } from '../config';
import type { MetadataDb } from '../db/database';
import { DatabaseRepository } from './database.repository';

/** Name of the examples database in Meridian, as in Superset. */
export const EXAMPLES_DATABASE_NAME = 'examples';

/** Path of the examples DuckDB file under the data directory. */
export function examplesPath(dataDir: string): string {
  return resolve(dataDir, 'examples.duckdb');
}

/**
 * Rows of the generated `cleaned_sales_data` when the caller does not say: EXAMPLES_SALES_ROWS,
 * else the generator's default (1,000,000). Tests and quick demos start faster with a few thousand.
 */
export function salesRowsFromEnv(): number | undefined {
  const value = process.env.EXAMPLES_SALES_ROWS;
  if (value === undefined || value === '') return undefined;
  const rows = Number(value);
  if (!Number.isSafeInteger(rows) || rows < 1) throw new Error(`EXAMPLES_SALES_ROWS must be a whole number above 0, got "${value}"`);
  return rows;
}

/** Builds the examples DuckDB file in a child process (the build holds the file only while it runs). */
export function buildExamplesFile(path: string, salesRows?: number): Promise<void> {
  // Beside this module: the TypeScript source under tsx, or the built server's bundle.
  const built = import.meta.url.endsWith('.js');
  const script = join(dirname(fileURLToPath(import.meta.url)), built ? 'build-examples.js' : 'build-examples.ts');
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [...(built ? [] : ['--import', 'tsx']), script, path, ...(salesRows ? [String(salesRows)] : [])], { cwd: ROOT_DIR, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', fail);
    child.on('exit', (code) => (code === 0 ? done() : fail(new Error(`Building the examples database failed (exit ${code}): ${stderr.slice(-2000)}`))));
  });
}

/**
 * Makes sure the `examples` database exists: builds `<dataDir>/examples.duckdb` from the
 * deterministic generators when the file is missing (`cleaned_sales_data` gets `opts.salesRows`,
 * else EXAMPLES_SALES_ROWS, else 1,000,000 rows), and registers database "examples"
 * (`duckdb:///<abs path>`, exposed in SQL Lab, async allowed, no DML). Idempotent.
 *
 * @example await ensureExamplesDatabase(services) // { id: 1, built: true, created: true }
 */
export async function ensureExamplesDatabase(
  services: { db: MetadataDb; config: { dataDir: string } },
  opts: { rebuild?: boolean; salesRows?: number; path?: string } = {},
): Promise<{ id: number; path: string; built: boolean; created: boolean }> {
  const dataDir = services.config.dataDir === ':memory:' ? join(ROOT_DIR, '.data') : services.config.dataDir;
  const path = opts.path ?? examplesPath(dataDir);
  let built = false;
  if (opts.rebuild || !existsSync(path)) {
    mkdirSync(dirname(path), { recursive: true });
    await buildExamplesFile(path, opts.salesRows ?? salesRowsFromEnv());
    built = true;
  }
  const repo = new DatabaseRepository(services.db);
  const uri = `duckdb:///${path}`;
  const existing = await repo.findByName(EXAMPLES_DATABASE_NAME);
  if (existing) {
    if (existing.sqlalchemy_uri !== uri) await repo.update(existing.id, existing.database_name, { sqlalchemy_uri: uri, password_encrypted: null });
    return { id: existing.id, path, built, created: false };
  }
  const id = await repo.create({
    database_name: EXAMPLES_DATABASE_NAME,
    sqlalchemy_uri: uri,
    expose_in_sqllab: true,
    allow_run_async: true,
    allow_dml: false,
    allow_ctas: false,
    allow_cvas: false,
    extra: JSON.stringify({ metadata_params: {}, engine_params: {}, schemas_allowed_for_file_upload: [] }),
  });
  return { id, path, built, created: true };
}
