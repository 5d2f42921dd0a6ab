import type { QueryDialect } from '@meridian/contracts/chart-data/sql-builder';
import { epochToDttmExpression, getEngineSpec, timeGrainExpression } from '@meridian/query-worker';

/** Longest identifier each engine keeps (Postgres truncates at 63 bytes, MySQL refuses beyond 256 for aliases). */
const MAX_ALIAS: Record<string, number | undefined> = { postgresql: 63, mysql: 256 };

/**
 * The SQL builder's view of an engine: quoting and time grains from the query worker's engine spec.
 *
 * @example dialectFor('duckdb:////data/examples.duckdb').timeGrain('P1M', '"ds"') // DATE_TRUNC('month', "ds")
 */
export function dialectFor(uri: string): QueryDialect {
  const spec = getEngineSpec(uri);
  return {
    backend: spec.backend,
    quote: (name) => spec.quoteIdentifier(name),
    timeGrain: (grain, expression) => timeGrainExpression(spec, grain, expression),
    epochToDttm: (format, expression) => epochToDttmExpression(spec, format, expression),
    maxAliasLength: MAX_ALIAS[spec.backend],
  };
}
