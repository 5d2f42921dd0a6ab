import type { Backend } from '../types.ts';
import type { EngineSpec } from './engine-spec.ts';
import { backendFromUri } from './uri.ts';
import { postgresSpec } from './postgres.ts';
import { mysqlSpec } from './mysql.ts';
import { duckdbSpec } from './duckdb.ts';
import { sqliteSpec } from './sqlite.ts';

const SPECS: Record<Backend, EngineSpec> = {
  postgresql: postgresSpec,
  mysql: mysqlSpec,
  duckdb: duckdbSpec,
  sqlite: sqliteSpec,
};

/**
 * The engine spec of a SQLAlchemy URI or backend name. Specs load their drivers only on
 * `connect`, so the web process can use quoting, time grains and limits without them.
 *
 * @example getEngineSpec('mysql+pymysql://root@127.0.0.1/test').engineName // 'MySQL'
 */
export function getEngineSpec(uriOrBackend: string): EngineSpec {
  const backend = backendFromUri(uriOrBackend);
  if (!backend) throw new Error(`No engine spec for "${uriOrBackend.split(':')[0]}"`);
  return SPECS[backend];
}

/** All engine specs Meridian ships. */
export function listEngineSpecs(): EngineSpec[] {
  return Object.values(SPECS);
}
