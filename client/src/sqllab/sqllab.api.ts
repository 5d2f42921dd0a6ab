import rison from 'rison';
import { api, type ApiOptions } from '../api';

/**
 * REST calls of the SQL editor (spec 01 §7), with Superset's paths and shapes, through the app's one REST wrapper
 * (`api`: session cookie, CSRF header, error normalisation). Bodies are parsed with lossless-json: numbers beyond
 * a double's precision stay `LosslessNumber`s and keep every digit.
 */

const call = <T = unknown>(path: string, opts: Omit<ApiOptions, 'lossless'> = {}) => api<T>(path, { ...opts, lossless: true });
const post = <T = unknown>(path: string, body?: unknown) => call<T>(path, { method: 'POST', body });
const seg = encodeURIComponent;

// ---------------------------------------------------------------------------------------------------
// Shapes (Superset's)

export interface DatabaseListItem {
  id: number;
  database_name: string;
  backend?: string;
  allow_run_async?: boolean;
  allow_ctas?: boolean;
  allow_cvas?: boolean;
  allow_dml?: boolean;
  allows_cost_estimate?: boolean;
  allows_subquery?: boolean;
  allows_virtual_table_explore?: boolean;
  disable_data_preview?: boolean;
  expose_in_sqllab?: boolean;
  force_ctas_schema?: string | null;
  extra?: string;
  [key: string]: unknown;
}

export interface TableListItem {
  value: string;
  type?: string;
  extra?: Record<string, unknown> | null;
}

export interface TableMetadataColumn {
  name: string;
  type: string;
  longType?: string;
  keys?: { type: string; column_names?: string[]; name?: string }[];
  comment?: string | null;
}

export interface TableMetadata {
  name: string;
  columns: TableMetadataColumn[];
  selectStar?: string;
  primaryKey?: { column_names?: string[]; constrained_columns?: string[]; name?: string | null; type?: string } | null;
  foreignKeys?: { column_names?: string[]; constrained_columns?: string[]; name?: string | null; referred_table?: string; referred_columns?: string[] }[];
  indexes?: { column_names?: string[]; name?: string | null; unique?: boolean }[];
  comment?: string | null;
}

export interface SavedQueryPayload {
  db_id: number;
  label: string;
  description?: string;
  sql: string;
  catalog?: string | null;
  schema?: string | null;
  template_parameters?: string | null;
}

export interface SavedQuery extends SavedQueryPayload {
  id: number;
  database?: { id: number; database_name?: string };
}

// ---------------------------------------------------------------------------------------------------
// Calls

export const sqllabApi = {
  databases: () =>
    call<{ result: DatabaseListItem[]; count: number }>('/api/v1/database/', {
      query: {
        q: {
          filters: [{ col: 'expose_in_sqllab', opr: 'eq', value: true }],
          order_column: 'database_name',
          order_direction: 'asc',
          page: 0,
          page_size: 100,
        },
      },
    }),
  catalogs: (dbId: number, force = false) => call<{ result: string[] }>(`/api/v1/database/${dbId}/catalogs/`, { query: { q: { force } } }),
  schemas: (dbId: number, catalog: string | null | undefined, force = false) =>
    call<{ result: string[] }>(`/api/v1/database/${dbId}/schemas/`, { query: { q: { force, ...(catalog ? { catalog } : {}) } } }),
  tables: (dbId: number, schema: string, catalog: string | null | undefined, force = false) =>
    call<{ result: TableListItem[]; count: number }>(`/api/v1/database/${dbId}/tables/`, {
      query: { q: { force, schema_name: schema, ...(catalog ? { catalog_name: catalog } : {}) } },
    }),
  tableMetadata: (dbId: number, name: string, schema: string, catalog?: string | null) =>
    call<TableMetadata>(`/api/v1/database/${dbId}/table_metadata/`, { query: { name, schema, catalog: catalog || undefined } }),
  tableMetadataExtra: (dbId: number, name: string, schema: string, catalog?: string | null) =>
    call<Record<string, unknown>>(`/api/v1/database/${dbId}/table_metadata/extra/`, { query: { name, schema, catalog: catalog || undefined } }),
  execute: (payload: Record<string, unknown>, signal?: AbortSignal) =>
    call<Record<string, unknown>>(`/api/v1/sqllab/execute/${window.location.search}`, { method: 'POST', body: payload, signal }),
  results: (key: string, rows: number, offset: number, signal?: AbortSignal, timeoutMs?: number) =>
    call<Record<string, unknown>>('/api/v1/sqllab/results/', { query: { q: { key, rows, offset } }, signal, timeoutMs }),
  stop: (clientId: string) => post('/api/v1/query/stop', { client_id: clientId }),
  updatedSince: (lastUpdatedMs: number) => call<{ result: Record<string, unknown>[] }>('/api/v1/query/updated_since', { query: { q: { last_updated_ms: lastUpdatedMs } } }),
  formatSql: (sql: string, databaseId?: number | null, engine?: string | null) =>
    post<{ result: string }>('/api/v1/sqllab/format_sql/', { sql, ...(databaseId ? { database_id: databaseId } : {}), ...(engine ? { engine } : {}) }),
  estimate: (payload: { database_id: number; catalog?: string | null; schema?: string | null; sql: string; template_params?: Record<string, unknown> }) =>
    post<{ result: unknown }>('/api/v1/sqllab/estimate/', payload),
  exportCsvUrl: (clientId: string) => `/api/v1/sqllab/export/${seg(clientId)}/`,
  getSavedQuery: (id: number) => call<{ result: SavedQuery }>(`/api/v1/saved_query/${id}`),
  createSavedQuery: (payload: SavedQueryPayload) => post<{ id: number; result: SavedQuery }>('/api/v1/saved_query/', payload),
  updateSavedQuery: (id: number, payload: SavedQueryPayload) => call<{ id: number; result: SavedQuery }>(`/api/v1/saved_query/${id}`, { method: 'PUT', body: payload }),
  getQuery: (id: number | string) => call<{ result: Record<string, unknown> }>(`/api/v1/query/${id}`),
  permalinkCreate: (state: { dbId: number; name: string; sql: string; schema?: string | null; catalog?: string | null; autorun?: boolean; templateParams?: string | null }) => post<{ key: string; url: string }>('/api/v1/sqllab/permalink', state),
  permalinkGet: (key: string) => call<Record<string, unknown>>(`/api/v1/sqllab/permalink/${seg(key)}`),
  kvGet: (id: string) => call<Record<string, unknown>>(`/kv/${seg(id)}`),
  getDataset: (id: string) =>
    call<{ result: { name: string; schema?: string | null; catalog?: string | null; database: { id: number }; select_star?: string } }>(`/api/v1/dataset/${seg(id)}`, {
      query: { q: { keys: ['none'], columns: ['name', 'schema', 'database.id', 'select_star'] } },
    }),
  createDataset: (payload: Record<string, unknown>) => post<{ id: number; data?: { id: number } }>('/api/v1/dataset/', payload),
  // Tab state persistence (SQLLAB_BACKEND_PERSISTENCE).
  bootstrap: () => call<{ result: Record<string, unknown> }>('/api/v1/sqllab/'),
  createTabState: (queryEditor: Record<string, unknown>) => post<{ id: number | string }>('/tabstateview/', { queryEditor }),
  getTabState: (id: string) => call<Record<string, unknown>>(`/tabstateview/${seg(id)}`),
  updateTabState: (id: string, fields: Record<string, unknown>) => call(`/tabstateview/${seg(id)}`, { method: 'PUT', body: fields }),
  activateTabState: (id: string) => post(`/tabstateview/${seg(id)}/activate`),
  // keepalive: a tab closed just before leaving the page stays closed.
  deleteTabState: (id: string) => call(`/tabstateview/${seg(id)}`, { method: 'DELETE', keepalive: true }),
  migrateQuery: (tabId: string, queryId: string) => post(`/tabstateview/${seg(tabId)}/migrate_query`, { queryId }),
  removeTabQuery: (tabId: string, queryId: string) => call(`/tabstateview/${seg(tabId)}/query/${seg(queryId)}`, { method: 'DELETE' }),
  addTableSchema: (table: Record<string, unknown>) => post<{ id: number | string }>('/tableschemaview/', { table }),
  expandTableSchema: (id: string, expanded: boolean) => post(`/tableschemaview/${seg(id)}/expanded`, { expanded }),
  deleteTableSchema: (id: string) => call(`/tableschemaview/${seg(id)}`, { method: 'DELETE' }),
};

/** The results key in an async event's result url (`/api/v1/sqllab/results/?q=(key:'…')`), or null. */
export function resultsKeyOf(resultUrl: string | null | undefined): string | null {
  if (!resultUrl) return null;
  try {
    const q = new URL(resultUrl, 'http://localhost').searchParams.get('q');
    const decoded = q ? (rison.decode(q) as { key?: unknown }) : null;
    return typeof decoded?.key === 'string' ? decoded.key : null;
  } catch {
    return null;
  }
}
