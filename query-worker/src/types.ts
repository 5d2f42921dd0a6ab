/**
 * Task inputs and outputs of the query worker pool. Plain TypeScript types (no zod): the server's
 * SQL Lab, database and dataset services build these and read the results.
 *
 * Every task result is `{ ok: true, ... }` or a {@link TaskFailure}; the pool never throws a
 * database error across the thread boundary (only a full queue rejects, see `QueueFullError`).
 */

/** Engine backends Meridian knows, named as Superset's `backend` of a database. */
export type Backend = 'postgresql' | 'mysql' | 'duckdb' | 'sqlite';

/** Superset's `GenericDataType`: 0 numeric, 1 string, 2 temporal, 3 boolean. */
export type GenericDataType = 0 | 1 | 2 | 3;

/** Superset's `LimitingFactor` of a query (why the result has fewer rows than the table). */
export type LimitingFactor = 'QUERY' | 'DROPDOWN' | 'QUERY_AND_DROPDOWN' | 'NOT_LIMITED' | 'UNKNOWN';

/** Superset's `SupersetErrorType` values the worker produces. */
export type SupersetErrorType =
  | 'SYNTAX_ERROR'
  | 'COLUMN_DOES_NOT_EXIST_ERROR'
  | 'TABLE_DOES_NOT_EXIST_ERROR'
  | 'SCHEMA_DOES_NOT_EXIST_ERROR'
  | 'OBJECT_DOES_NOT_EXIST_ERROR'
  | 'CONNECTION_ACCESS_DENIED_ERROR'
  | 'CONNECTION_INVALID_HOSTNAME_ERROR'
  | 'CONNECTION_PORT_CLOSED_ERROR'
  | 'CONNECTION_HOST_DOWN_ERROR'
  | 'CONNECTION_UNKNOWN_DATABASE_ERROR'
  | 'CONNECTION_INVALID_USERNAME_ERROR'
  | 'CONNECTION_INVALID_PASSWORD_ERROR'
  | 'CONNECTION_DATABASE_PERMISSIONS_ERROR'
  | 'GENERIC_DB_ENGINE_ERROR'
  | 'DML_NOT_ALLOWED_ERROR'
  | 'INVALID_CTAS_QUERY_ERROR'
  | 'INVALID_CVAS_QUERY_ERROR'
  | 'SQLLAB_TIMEOUT_ERROR'
  | 'RESULTS_BACKEND_ERROR'
  | 'ASYNC_WORKERS_ERROR'
  | 'GENERIC_BACKEND_ERROR'
  | 'GENERIC_COMMAND_ERROR';

/** One issue code of a Superset error (`extra.issue_codes[]`). */
export interface IssueCode {
  code: number;
  message: string;
}

/** Superset's error object, as in `{"errors": [SupersetError]}`. */
export interface SupersetError {
  message: string;
  error_type: SupersetErrorType;
  level: 'error' | 'warning' | 'info';
  extra: { engine_name: string | null; issue_codes: IssueCode[]; [key: string]: unknown };
}

/** Where a task connects. `uri` is a SQLAlchemy-style URI with its real password. */
export interface ConnectionTarget {
  /** e.g. `postgresql://user:pass@host:5432/db`, `mysql://root@127.0.0.1:3306/test`, `duckdb:////abs/file.duckdb`, `sqlite:////abs/file.db`. */
  uri: string;
  /** Catalog to use (DuckDB: an attached database name); null/undefined = the connection's default. */
  catalog?: string | null;
  /** Schema to use as the session default (Postgres search_path, MySQL `USE`, DuckDB `USE`). */
  schema?: string | null;
}

/** Column of a query result, Superset's `columns[]` of `/api/v1/sqllab/results/`. */
export interface ResultColumn {
  /** Same as `name` (Superset sends both). */
  column_name: string;
  name: string;
  /** Database type string, e.g. `BIGINT`, `VARCHAR`, `TIMESTAMP WITHOUT TIME ZONE`. */
  type: string;
  type_generic: GenericDataType;
  is_dttm: boolean;
}

/** CTAS / CVAS request (Superset's `ctas`, `ctas_method`, `tmp_table_name`, `tmp_schema_name`). */
export interface CtasOptions {
  method: 'TABLE' | 'VIEW';
  tableName: string;
  /** Schema for the new table/view; null = the query's schema. */
  schema?: string | null;
}

/** Execute SQL Lab SQL: the statements run in order in one session; the last one's rows are stored. */
export interface RunTask extends ConnectionTarget {
  kind: 'run';
  /** Client query id (11 chars); `pool.stop(queryId)` cancels it. */
  queryId: string;
  /** Rendered SQL (templates already applied); may hold several statements separated by `;`. */
  sql: string;
  /** Row limit from the dropdown (`queryLimit`); null = no limit. One more row is fetched to detect truncation. */
  limit?: number | null;
  /** Key under which result pages + meta go to the results backend; defaults to `queryId`. */
  resultsKey?: string | null;
  /** Per-query timeout (SQLLAB_TIMEOUT); on expiry the worker cancels on the database (SQLite: kills the run's process) and returns status `timed_out`. */
  timeoutMs?: number | null;
  /** `Date.now()` when the pool accepted the run: the timeout counts from here, queue wait included (set by `pool.run`). */
  submittedAt?: number;
  /** When false, a mutating statement (INSERT/UPDATE/DROP...) fails with DML_NOT_ALLOWED_ERROR before anything runs. Default true. */
  allowDml?: boolean;
  /** Create table/view as select; the last statement must be a SELECT. */
  ctas?: CtasOptions | null;
  /** Rows per stored page (default 10,000); a page is also cut at ~`pageBytes` (default 1 MB). */
  pageRows?: number;
  pageBytes?: number;
  /**
   * When set, a result whose row JSON totals at most this many characters comes back in the task
   * result (`rowsJson`) and nothing is written to the results backend (chart data: small results,
   * read once). A larger result is paged to the results backend as usual.
   */
  inlineMaxBytes?: number | null;
}

/**
 * Success of a {@link RunTask}. Rows are NOT here (read them with `readRows(backend, resultsKey,
 * offset, limit)`), unless the task asked for small results inline and got one (`rowsJson`).
 */
export interface RunSuccess {
  ok: true;
  status: 'success';
  queryId: string;
  /**
   * Results backend key (pages + meta written). Always set; a statement without rows (DDL/DML)
   * stores an empty result. Nothing is stored under it when `rowsJson` is set.
   */
  resultsKey: string;
  /** JSON array text of the rows when they came back inline (`inlineMaxBytes`); then nothing was stored. */
  rowsJson?: string;
  /** Rows stored (never more than the effective limit). */
  rowCount: number;
  columns: ResultColumn[];
  /** The SQL really sent (with limit applied to the last statement, CTAS wrapped). */
  executedSql: string;
  statementCount: number;
  /** Effective limit: min(dropdown limit, the SQL's own LIMIT); null = none. Superset's `query.limit`. */
  limit: number | null;
  /** The LIMIT written in the last statement's SQL, if any. */
  sqlLimit: number | null;
  /** True when more rows existed than `limit` (the +1 row came back). */
  hasMoreRows: boolean;
  /** Superset's limiting factor computed from the above. */
  limitingFactor: LimitingFactor;
  pageCount: number;
  /** JSON bytes stored for the rows. */
  bytes: number;
  /** CTAS target, `schema.table` when `ctas` was requested. */
  tempTable: string | null;
  tempSchema: string | null;
  /** Epoch ms. */
  startedAt: number;
  endedAt: number;
}

/** Failure of any task; also used for stop (`status: 'stopped'`) and timeout (`status: 'timed_out'`). */
export interface TaskFailure {
  ok: false;
  status: 'failed' | 'stopped' | 'timed_out';
  errorType: SupersetErrorType;
  message: string;
  /** Superset error objects ready for `{"errors": [...]}`. */
  errors: SupersetError[];
  extra?: Record<string, unknown>;
}

export type RunResult = RunSuccess | TaskFailure;

/** A table or view name in a schema listing. */
export interface TableName {
  name: string;
  type: 'table' | 'view';
}

/** Column of a table's metadata. */
export interface TableColumn {
  name: string;
  /** Database type string as the engine reports it (`character varying(20)`, `BIGINT`...). */
  type: string;
  type_generic: GenericDataType;
  is_dttm: boolean;
  nullable: boolean;
  default: string | null;
  comment: string | null;
  /** Part of the primary key. */
  primaryKey: boolean;
}

export interface ForeignKey {
  name: string | null;
  constrained_columns: string[];
  referred_schema: string | null;
  referred_table: string;
  referred_columns: string[];
}

export interface TableIndex {
  name: string;
  column_names: string[];
  unique: boolean;
}

/** Table metadata, enough for Superset's `/api/v1/database/{pk}/table_metadata/` and dataset sync. */
export interface TableMetadata {
  name: string;
  schema: string | null;
  catalog: string | null;
  type: 'table' | 'view';
  columns: TableColumn[];
  primaryKey: { name: string | null; constrained_columns: string[] } | null;
  foreignKeys: ForeignKey[];
  indexes: TableIndex[];
  comment: string | null;
  /** `SELECT col1, col2 ... FROM schema.table LIMIT 100` with quoted identifiers, as Superset's selectStar. */
  selectStar: string;
}

export type MetadataRequest =
  | { what: 'catalogs' }
  | { what: 'schemas' }
  | { what: 'functions' }
  | { what: 'tables'; schema: string | null }
  | { what: 'table'; schema: string | null; table: string };

/** Input of `pool.metadata`: catalogs, schemas, tables/views of a schema, or one table's metadata. */
export type MetadataInput = ConnectionTarget & { timeoutMs?: number | null } & MetadataRequest;

/** Metadata task as the worker receives it. */
export type MetadataTask = MetadataInput & { kind: 'metadata' };

export type MetadataSuccess =
  | { ok: true; what: 'catalogs'; catalogs: string[] }
  | { ok: true; what: 'schemas'; schemas: string[] }
  | { ok: true; what: 'functions'; functions: string[] }
  | { ok: true; what: 'tables'; tables: TableName[] }
  | { ok: true; what: 'table'; table: TableMetadata };

export type MetadataResult = MetadataSuccess | TaskFailure;

/** Cost estimate (Superset `/api/v1/sqllab/estimate/`), one row object per statement. */
export interface EstimateTask extends ConnectionTarget {
  kind: 'estimate';
  sql: string;
  timeoutMs?: number | null;
  /** When false, a mutating statement fails with DML_NOT_ALLOWED_ERROR before anything runs (`EXPLAIN ANALYZE ...` would run it). Default true. */
  allowDml?: boolean;
}

export type EstimateResult = { ok: true; cost: Record<string, unknown>[] } | TaskFailure;

/** Open a connection and run a trivial query (Superset's "Test connection"). */
export interface TestConnectionTask extends ConnectionTarget {
  kind: 'testConnection';
  timeoutMs?: number | null;
}

export type TestConnectionResult = { ok: true } | TaskFailure;

/**
 * Cancel a query by the engine's cancel id (from a `cancelId` progress event), e.g. after a
 * restart or from another process. Within one pool prefer `pool.stop(queryId)`.
 */
export interface CancelTask extends ConnectionTarget {
  kind: 'cancel';
  cancelId: string;
}

export type CancelResult = { ok: true; cancelled: boolean } | TaskFailure;

/** How a file is read into a table (Superset's UploadPostSchema, in camelCase). */
export interface UploadOptions {
  type: 'csv' | 'excel' | 'columnar';
  tableName: string;
  schema: string | null;
  alreadyExists: 'fail' | 'replace' | 'append';
  delimiter?: string;
  /** Lines before the header (0: the first line is the header); null: no header. */
  headerRow: number | null;
  skipRows?: number;
  rowsToRead?: number | null;
  nullValues?: string[];
  columnDates?: string[];
  columnDataTypes?: Record<string, string>;
  decimalCharacter?: string;
  dayFirst?: boolean;
  columnsRead?: string[];
  sheetName?: string | null;
}

/** Loads an uploaded file (already on disk) into a table of the target database. */
export interface UploadTask extends ConnectionTarget {
  kind: 'upload';
  file: string;
  options: UploadOptions;
  timeoutMs?: number | null;
}
export type UploadResult = { ok: true; rows: number; columns: string[] } | TaskFailure;

/** Reads a file's column names (`upload_metadata/`); runs on the DuckDB thread, which reads the files. */
export interface UploadMetadataTask {
  kind: 'uploadMetadata';
  uri: 'duckdb:///:memory:';
  file: string;
  options: Pick<UploadOptions, 'type' | 'delimiter' | 'headerRow'>;
}
export type UploadMetadataResult = { ok: true; items: Array<{ column_names: string[]; sheet_name?: string }> } | TaskFailure;

export type Task = RunTask | MetadataTask | EstimateTask | TestConnectionTask | CancelTask | UploadTask | UploadMetadataTask;

/** Events a running query reports while it runs (through `pool.run(task, { onEvent })`). */
export type QueryEvent =
  /** The engine connection id to cancel with (Postgres backend pid, MySQL connection id); store it in query.extra like Superset's `cancel_query`. */
  | { type: 'cancelId'; queryId: string; cancelId: string }
  /** Statement `statement` (0-based) of `statementCount` started; `rows` stored so far. */
  | { type: 'progress'; queryId: string; statement: number; statementCount: number; rows: number };

/** Options of the results backend (also handed to every worker thread). */
export interface ResultsBackendOptions {
  /** When set, results go to Redis (`redis://127.0.0.1:6379/0`). */
  redisUrl?: string | null;
  /** Key prefix for Redis (default `meridian:results:`). */
  keyPrefix?: string;
  /** Directory of the on-disk store (used when no `redisUrl`). */
  dir: string;
  /** Byte cap of the on-disk store; least recently used results are evicted past it. */
  maxBytes: number;
  /** Results expire after this many seconds (disk and Redis). */
  ttlSeconds: number;
}

/** What the results backend stores beside the pages of one result. */
export interface ResultMeta {
  /** 2: rows separated by `,\n` in a page; 1 (written before): by `\n`. */
  version: 1 | 2;
  queryId: string;
  columns: ResultColumn[];
  rowCount: number;
  pageCount: number;
  /** Rows in each page, in order. */
  pageRowCounts: number[];
  bytes: number;
  limit: number | null;
  limitingFactor: LimitingFactor;
  executedSql: string;
  createdAt: number;
}
