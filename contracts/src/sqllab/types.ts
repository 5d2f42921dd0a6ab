import type { SupersetError } from '../messages';

/** Query states of spec 01 §4. */
export const QueryState = {
  STARTED: 'started',
  STOPPED: 'stopped',
  FAILED: 'failed',
  PENDING: 'pending',
  RUNNING: 'running',
  SCHEDULED: 'scheduled',
  SUCCESS: 'success',
  FETCHING: 'fetching',
  TIMED_OUT: 'timed_out',
} as const;
export type QueryState = (typeof QueryState)[keyof typeof QueryState];

/** A result column as the engine describes it (type_generic: 0 numeric, 1 string, 2 temporal, 3 boolean). */
export interface QueryColumn {
  column_name: string;
  name?: string;
  type: string | null;
  is_dttm: boolean;
  type_generic?: number;
}

/** Results of one query as returned by execute or the results endpoint. */
export interface QueryResults {
  status?: QueryState | string;
  data?: Record<string, unknown>[];
  columns?: QueryColumn[];
  expanded_columns?: QueryColumn[];
  selected_columns?: QueryColumn[];
  query?: {
    limit?: number;
    rows?: number;
    executedSql?: string;
    limitingFactor?: string;
    tempSchema?: string | null;
    tempTable?: string | null;
    resultsKey?: string | null;
    [key: string]: unknown;
  } | null;
  query_id?: number;
  displayLimitReached?: boolean;
  [key: string]: unknown;
}

/** A query run from the editor (spec 01 §3 Query). */
export interface Query {
  id: string;
  dbId?: number;
  sql: string;
  sqlEditorId?: string | null;
  tab?: string | null;
  catalog?: string | null;
  schema?: string | null;
  tempTable?: string | null;
  tempSchema?: string | null;
  ctas?: boolean;
  ctas_method?: 'TABLE' | 'VIEW';
  runAsync?: boolean;
  templateParams?: string;
  queryLimit?: number;
  limitingFactor?: string;
  progress?: number;
  startDttm: number;
  endDttm?: number;
  duration?: string;
  executedSql?: string;
  state: QueryState | string;
  cached?: boolean;
  resultsKey?: string | null;
  isDataPreview?: boolean;
  has_err?: boolean;
  errorMessage?: string | null;
  errors?: SupersetError[];
  link?: string;
  trackingUrl?: string | null;
  rows?: number;
  changed_on?: string | number;
  extra?: Record<string, unknown>;
  columns?: QueryColumn[];
  results?: QueryResults | Record<string, never> | unknown[] | null;
  inLocalStorage?: boolean;
}

export interface CursorPosition {
  row: number;
  column: number;
}

/** An editor tab (spec 01 §3 Query editor). */
export interface QueryEditor {
  id: string;
  /** Server tab id when it differs from `id` (tabs created locally then migrated). */
  tabViewId?: string;
  version?: number;
  name: string;
  sql: string;
  selectedText?: string | null;
  dbId?: number | null;
  catalog?: string | null;
  schema?: string | null;
  queryLimit?: number;
  templateParams?: string;
  autorun: boolean;
  remoteId?: number | null;
  latestQueryId?: string | null;
  hideLeftBar?: boolean;
  loaded?: boolean;
  inLocalStorage?: boolean;
  cursorPosition?: CursorPosition;
  functionNames?: string[];
  updatedAt?: number;
  northPercent?: number;
  southPercent?: number;
  maxRow?: number;
}

/** Pending edits of the active tab; only `id` is always present once anything was edited. */
export type UnsavedQueryEditor = Partial<QueryEditor>;

/** A table browsed in an editor tab (spec 01 §3 Table schema). */
export interface TableSchema {
  id: string;
  dbId: number;
  queryEditorId: string;
  catalog?: string | null;
  schema: string;
  name: string;
  expanded: boolean;
  dataPreviewQueryId?: string | null;
  columns?: unknown[];
  selectStar?: string;
  primaryKey?: unknown;
  foreignKeys?: unknown[];
  indexes?: unknown[];
  isMetadataLoading?: boolean;
  isExtraMetadataLoading?: boolean;
  initialized?: boolean;
  inLocalStorage?: boolean;
  persistData?: Record<string, unknown>;
}

/** Cost estimate per query. */
export interface QueryCostEstimate {
  completed: boolean;
  cost: unknown;
  error: unknown;
}

/** A database as the editor keeps it, `extra` parsed into `extra_json`. */
export interface SqlLabDatabase {
  id: number;
  database_name?: string;
  extra?: string;
  extra_json?: Record<string, unknown>;
  [key: string]: unknown;
}

/** The SQL editor overall state of spec 01 §3. */
export interface SqlLabState {
  queryEditors: QueryEditor[];
  tabHistory: string[];
  tables: TableSchema[];
  queries: Record<string, Query>;
  queryCostEstimates: Record<string, QueryCostEstimate>;
  databases: Record<string, SqlLabDatabase>;
  destroyedQueryEditors: Record<string, number>;
  unsavedQueryEditor: UnsavedQueryEditor;
  activeSouthPaneTab: string;
  offline: boolean;
  editorTabLastUpdatedAt: number;
  lastUpdatedActiveTab: string;
  queriesLastUpdate: number;
}

/** An empty editor state; `now` seeds the timestamps. */
export function initialSqlLabState(now = 0): SqlLabState {
  return {
    queryEditors: [],
    tabHistory: [],
    tables: [],
    queries: {},
    queryCostEstimates: {},
    databases: {},
    destroyedQueryEditors: {},
    unsavedQueryEditor: {},
    activeSouthPaneTab: 'Results',
    offline: false,
    editorTabLastUpdatedAt: now,
    lastUpdatedActiveTab: '',
    queriesLastUpdate: now,
  };
}
