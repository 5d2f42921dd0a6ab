import type { Query } from './types';

/** What a failed query's first error adds to its catalogue message: the database's own text and the line it names. */
export interface QueryErrorDetails {
  databaseMessage: string | null;
  /** 1-based line of the query's SQL the database points at. */
  line: number | null;
}

/** Reads `extra.database_message` and `extra.line` of a failed query's first error. */
export function queryErrorDetails(query: Pick<Query, 'errors' | 'errorMessage'>): QueryErrorDetails {
  const extra = (query.errors?.[0]?.extra ?? {}) as Record<string, unknown>;
  const own = typeof extra.database_message === 'string' && extra.database_message.trim() ? extra.database_message : null;
  const line = Number(extra.line);
  return {
    // Shown under the catalogue's message, unless it says the same.
    databaseMessage: own && own !== query.errorMessage ? own : null,
    line: Number.isInteger(line) && line > 0 ? line : null,
  };
}

/**
 * The editor row (0-based) of a line of a query's SQL: the query ran the editor's whole text, a selection or the
 * statement under the cursor, so its text is looked up in the editor. Null when the editor no longer holds it.
 *
 * @example errorRowInEditor('SELECT 1;\nSELECT x\nFROM t', 'SELECT x\nFROM t', 2) // 2
 */
export function errorRowInEditor(editorSql: string, querySql: string, line: number): number | null {
  if (!querySql || line < 1) return null;
  const at = editorSql.indexOf(querySql);
  if (at < 0) return null;
  const queryLines = querySql.split('\n').length;
  if (line > queryLines) return null;
  return editorSql.slice(0, at).split('\n').length - 1 + (line - 1);
}
