import type { SqlDialect } from '../sql/sql-tokens.ts';
import type { Backend, ConnectionTarget, GenericDataType, ResultColumn, SupersetError, TableMetadata, TableName } from '../types.ts';

/**
 * Superset's time grain ids (ISO 8601 durations, plus the week variants anchored on a day), and
 * spec 01 §9's '7 days' (P7D, Superset's granularity choice): 7-day buckets counted from 1970-01-01.
 */
export const TIME_GRAINS = [
  'PT1S', 'PT5S', 'PT30S', 'PT1M', 'PT5M', 'PT10M', 'PT15M', 'PT30M', 'PT1H', 'PT6H',
  'P1D', 'P7D', 'P1W', 'P1M', 'P3M', 'P1Y',
  '1969-12-28T00:00:00Z/P1W', '1969-12-29T00:00:00Z/P1W', 'P1W/1970-01-03T00:00:00Z', 'P1W/1970-01-04T00:00:00Z',
] as const;

export type TimeGrain = (typeof TIME_GRAINS)[number];

/** Superset's time grain names, as `/api/v1/database/{pk}/` lists them. */
export const TIME_GRAIN_NAMES: Record<TimeGrain, string> = {
  PT1S: 'Second', PT5S: '5 second', PT30S: '30 second', PT1M: 'Minute', PT5M: '5 minute', PT10M: '10 minute',
  PT15M: '15 minute', PT30M: '30 minute', PT1H: 'Hour', PT6H: '6 hour', P1D: 'Day', P7D: '7 days', P1W: 'Week', P1M: 'Month',
  P3M: 'Quarter', P1Y: 'Year',
  '1969-12-28T00:00:00Z/P1W': 'Week starting Sunday',
  '1969-12-29T00:00:00Z/P1W': 'Week starting Monday',
  'P1W/1970-01-03T00:00:00Z': 'Week ending Saturday',
  'P1W/1970-01-04T00:00:00Z': 'Week ending Sunday',
};

/** Sink the engines stream serialised rows into (the page writer). */
export interface RowSink {
  /** Called once, before any row, with the result's columns. */
  setColumns(columns: ResultColumn[]): void;
  /** One row as a JSON object text; await the promise when returned (a page is being written). */
  push(rowJson: string): void | Promise<void>;
  /** The same as `push` for a row already encoded as UTF-8 JSON bytes (`row[0, length)`, valid only during the call). */
  pushBytes?(row: Buffer, length: number): void | Promise<void>;
}

/** Outcome of streaming a statement's rows. */
export interface StreamSummary {
  /** Rows pushed to the sink. */
  rows: number;
  /** False when the statement produced no result set (DDL/DML). */
  hasResultSet: boolean;
}

/** An open connection/session of an engine, used by one worker task at a time. */
export interface EngineConnection {
  /** Id to cancel the running statement from elsewhere (Postgres backend pid, MySQL connection id); null when cancel is in-process only. */
  readonly cancelId: string | null;
  /** Runs a statement whose rows (if any) are discarded. */
  execute(sql: string): Promise<void>;
  /** Runs a statement and pushes at most `maxRows` rows (all when null) to the sink as JSON objects. */
  stream(sql: string, sink: RowSink, maxRows: number | null): Promise<StreamSummary>;
  /** Cancels the statement running on this connection, on the database. */
  cancel(): Promise<void>;
  listCatalogs(): Promise<string[]>;
  listSchemas(): Promise<string[]>;
  /** Function names SQL Lab completes (`/api/v1/database/{pk}/function_names/`), sorted. */
  listFunctions(): Promise<string[]>;
  listTables(schema: string | null): Promise<TableName[]>;
  tableMetadata(schema: string | null, table: string): Promise<TableMetadata>;
  /** Cost estimate of one statement, as a row object (Superset's `estimate_statement_cost` + `query_cost_formatter`). */
  estimate(statement: string): Promise<Record<string, unknown>>;
  close(): Promise<void>;
}

/** One engine: connecting, SQL dialect details, types, time grains and error mapping. */
export interface EngineSpec {
  backend: Backend;
  /** Superset's `engine_name` (`PostgreSQL`, `MySQL`, `DuckDB`, `SQLite`). */
  engineName: string;
  dialect: SqlDialect;
  /** Whether the engine has catalogs (Superset `supports_catalog`). */
  supportsCatalog: boolean;
  /**
   * Whether `EngineConnection.cancel()` ends a running statement from its worker thread. False when
   * the driver runs statements synchronously without an interrupt (better-sqlite3): the pool then
   * enforces stop and timeout from the main thread by ending the worker thread.
   */
  cancelsInThread: boolean;
  /** `{col}`-templated SQL per grain, Superset's `_time_grain_expressions`. */
  timeGrainExpressions: Record<TimeGrain, string>;
  /** `{col}`-templated SQL turning epoch seconds into a timestamp (Superset's `epoch_to_dttm`); milliseconds divide first. */
  epochToDttm: string;
  quoteIdentifier(name: string): string;
  connect(target: ConnectionTarget): Promise<EngineConnection>;
  /** Cancels by a `cancelId` from another connection. Returns false when nothing was cancelled. */
  cancelById(target: ConnectionTarget, cancelId: string): Promise<boolean>;
  /** Maps a driver error to Superset's error; `phase` tells connection failures from query failures. */
  mapError(error: unknown, phase: 'connect' | 'query', target?: ConnectionTarget): SupersetError;
}

/** Superset's generic type of a database type string: 0 numeric, 1 string, 2 temporal, 3 boolean. */
export function genericTypeOf(type: string): GenericDataType {
  const t = type.toUpperCase();
  if (/\[\]|ARRAY|STRUCT|MAP\(|LIST|JSON|UNION\(/.test(t)) return 1;
  if (/BOOL/.test(t)) return 3;
  if (/INTERVAL/.test(t)) return 1;
  if (/DATE|TIME/.test(t)) return 2;
  if (/INT|NUMERIC|DECIMAL|FLOAT|DOUBLE|REAL|SERIAL|MONEY|NUMBER|^BIT$|^OID$/.test(t) && !/POINT/.test(t)) return 0;
  return 1;
}

/** Result column for a name and type string. */
export function resultColumn(name: string, type: string): ResultColumn {
  const typeGeneric = genericTypeOf(type);
  return { column_name: name, name, type, type_generic: typeGeneric, is_dttm: typeGeneric === 2 };
}

/** Makes duplicate column names unique the way Superset's `dedup` does: `a`, `a__1`, `a__2`. */
export function dedupNames(names: string[]): string[] {
  const seen = new Map<string, number>();
  const used = new Set(names);
  return names.map((name) => {
    const count = seen.get(name);
    if (count === undefined) {
      seen.set(name, 0);
      return name;
    }
    let next = count + 1;
    while (used.has(`${name}__${next}`)) next++;
    seen.set(name, next);
    used.add(`${name}__${next}`);
    return `${name}__${next}`;
  });
}

/**
 * A column stored as epoch seconds or milliseconds (python_date_format `epoch_s` / `epoch_ms`) as a
 * timestamp, so time grains apply to it (Superset's `epoch_to_dttm` / `epoch_ms_to_dttm`).
 *
 * @example epochToDttmExpression(postgresSpec, 'epoch_ms', '"ts"') // (timestamp 'epoch' + ("ts"/1000) * interval '1 second')
 */
export function epochToDttmExpression(spec: EngineSpec, format: 'epoch_s' | 'epoch_ms', column: string): string {
  return spec.epochToDttm.replaceAll('{col}', format === 'epoch_ms' ? `(${column}/1000)` : column);
}

/** Fills `{col}` of a time grain expression; `null` grain returns the column itself. */
export function timeGrainExpression(spec: EngineSpec, grain: TimeGrain | string | null, column: string): string {
  if (!grain) return column;
  const template = spec.timeGrainExpressions[grain as TimeGrain];
  if (!template) throw new Error(`No grain spec for ${grain} for database ${spec.engineName}`);
  return template.replaceAll('{col}', column);
}

/** Double-quote quoting (Postgres, DuckDB, SQLite): `a"b` → `"a""b"`. */
export function quoteDouble(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** Superset's selectStar text: quoted column list, qualified table, LIMIT. */
export function selectStarSql(spec: Pick<EngineSpec, 'quoteIdentifier'>, schema: string | null, table: string, columns: string[], limit = 100): string {
  const qualified = schema ? `${spec.quoteIdentifier(schema)}.${spec.quoteIdentifier(table)}` : spec.quoteIdentifier(table);
  const list = columns.length > 0 ? columns.map((c) => spec.quoteIdentifier(c)).join(',\n       ') : '*';
  return `SELECT ${list}\nFROM ${qualified}\nLIMIT ${limit}`;
}
