/**
 * Public API of the query worker: the pool every query runs in, task/result types, engine specs,
 * the results backend, and the SQL helpers the server needs (limits, DML detection, splitting,
 * CTAS, time grains, quoting, URIs).
 */
export type * from './types.ts';
export { QueryPool, QueueFullError, type QueryPoolOptions, type RunOptions } from './pool.ts';

export { getEngineSpec, listEngineSpecs } from './engines/registry.ts';
export {
  TIME_GRAINS, TIME_GRAIN_NAMES, timeGrainExpression, epochToDttmExpression, genericTypeOf, dedupNames,
  type TimeGrain, type EngineSpec, type EngineConnection, type RowSink,
} from './engines/engine-spec.ts';
export { backendFromUri, parseUri, maskPassword, type ParsedUri } from './engines/uri.ts';
export { supersetError, taskFailure, ISSUE_CODES, ERROR_TYPE_ISSUE_CODES, timeoutMessage } from './engines/errors.ts';

export { createResultsBackend, openRows, pageRowTexts, readRows, type ResultsBackend, type RowsSlice, type RowsStream } from './results/results-backend.ts';
export { serializeValue } from './results/serialize.ts';
export { PageBufferPool, type PageBufferSource, type PageBuffers } from './results/page-buffers.ts';

export {
  splitStatements, stripStatement, isMutating, isSelect, applyLimit, getLimitFromSql, computeLimitingFactor, leadingKeyword,
  type ApplyLimitOptions,
} from './sql/statements.ts';
export { buildCtas, type CtasPlan } from './sql/ctas.ts';
export type { SqlDialect } from './sql/sql-tokens.ts';

import { getEngineSpec } from './engines/registry.ts';

/**
 * Quotes an identifier for the engine of a URI or backend name.
 *
 * @example quoteIdentifier('mysql', 'my`col') // '`my``col`'
 */
export function quoteIdentifier(uriOrBackend: string, name: string): string {
  return getEngineSpec(uriOrBackend).quoteIdentifier(name);
}
