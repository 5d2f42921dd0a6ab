import { Readable } from 'node:stream';
import { randomUUID } from 'node:crypto';
import { stringify } from 'csv-stringify';
import { parse as parseLossless } from 'lossless-json';
import { pageRowTexts, type ResultMeta, type ResultsBackend } from '@meridian/query-worker';
import type { Config } from '../config';
import type { DatabaseService } from '../database/database.service';
import { StructuredError } from '../errors/domain-errors';
import type { QueryRepository } from '../query/query.repository';
import type { QueryRuntime } from '../results/query-runtime';
import type { Actor } from '../security/actor';
import type { SecurityService } from '../security/security.service';
import { newClientId, type SqlLabService } from './sqllab.service';

/** Superset's `Query.name`: `sqllab_{tab}_{timestamp}`. */
export function exportName(tabName: string | null, at = new Date()): string {
  const tab = tabName ? tabName.replaceAll(' ', '_').toLowerCase().replace(/\W+/g, '') : 'notab';
  const ts = at.toISOString().replace(/[-:]/g, '').split('.')[0];
  return `sqllab_${tab}_${ts}`;
}

function csvCell(value: unknown): unknown {
  if (value === null || value === undefined) return '';
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  if (typeof value === 'object') return JSON.stringify(value);
  return value;
}

/** Rows of a stored result, page by page (memory bounded by one page); numbers keep their stored digits. */
async function* storedRows(backend: ResultsBackend, key: string, meta: ResultMeta, onDone: () => Promise<void>): AsyncGenerator<unknown[]> {
  try {
    const names = meta.columns.map((c) => c.name);
    yield names;
    for (let page = 0; page < meta.pageCount; page++) {
      const bytes = await backend.getPage(key, page);
      if (!bytes) throw new Error('The stored result expired during the export');
      for (const text of pageRowTexts(bytes)) {
        const row = parseLossless(text, null, (digits: string) => digits) as Record<string, unknown>;
        yield names.map((name) => csvCell(row[name]));
      }
    }
  } finally {
    await onDone();
  }
}

/** `GET /api/v1/sqllab/export/{client_id}/`: CSV streamed from the results backend, re-running the query when the results are gone. */
export class SqlLabExportService {
  constructor(
    private readonly deps: { config: Config; security: SecurityService; databases: DatabaseService; queries: QueryRepository; runtime: QueryRuntime; sqllab: SqlLabService },
  ) {}

  async exportCsv(actor: Actor | null, clientId: string): Promise<{ filename: string; stream: Readable }> {
    this.deps.security.require(actor, 'can_export_csv', 'SQLLab');
    const query = await this.deps.queries.getByClientId(clientId);
    if (!query) throw new StructuredError(404, [{ message: 'The query associated with the results was deleted.', error_type: 'RESULTS_BACKEND_ERROR', level: 'error', extra: { issue_codes: [] } }]);
    this.deps.sqllab.requireQueryAccess(actor, query);
    const backend = this.deps.runtime.results;
    let key = query.results_key;
    let meta = key ? await backend.getMeta(key) : null;
    let cleanup = async () => {};
    if (!meta) {
      const db = await this.deps.databases.getAccessible(actor, query.database_id);
      const sql = query.select_sql ?? query.executed_sql ?? query.sql;
      if (!sql) throw new StructuredError(404, [{ message: 'The query has no SQL to run again.', error_type: 'RESULTS_BACKEND_ERROR', level: 'error', extra: { issue_codes: [] } }]);
      const rerunKey = `export-${randomUUID()}`;
      const result = await this.deps.runtime.pool.run({
        ...this.deps.databases.target(db, query.catalog, query.schema),
        queryId: newClientId(),
        sql,
        limit: query.select_sql ? null : query.limit,
        resultsKey: rerunKey,
        timeoutMs: this.deps.config.sqllabAsyncTimeLimitSeconds * 1000,
        allowDml: db.allow_dml,
      });
      if (!result.ok) throw new StructuredError(result.status === 'timed_out' ? 408 : 500, result.errors.map((e) => ({ ...e })));
      key = rerunKey;
      meta = await backend.getMeta(rerunKey);
      cleanup = () => backend.delete(rerunKey).catch(() => undefined);
      if (!meta) {
        await cleanup();
        return { filename: `${exportName(query.tab_name)}.csv`, stream: Readable.from([]) };
      }
    }
    const rows = Readable.from(storedRows(backend, key!, meta, cleanup));
    const csv = rows.pipe(stringify({ cast: { boolean: (v) => (v ? 'True' : 'False') } }));
    rows.on('error', (error) => csv.destroy(error));
    return { filename: `${exportName(query.tab_name)}.csv`, stream: csv };
  }
}
