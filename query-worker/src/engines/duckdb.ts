import { resolve } from 'node:path';
import type { DuckDBConnection, DuckDBInstance, DuckDBValue } from '@duckdb/node-api';
import type { ConnectionTarget, SupersetError, TableMetadata, TableName } from '../types.ts';
import {
  dedupNames, genericTypeOf, quoteDouble, resultColumn, selectStarSql,
  type EngineConnection, type EngineSpec, type RowSink, type StreamSummary, type TimeGrain,
} from './engine-spec.ts';
import { errorMessage, mapByRules, type ErrorRule } from './errors.ts';
import { parseUri } from './uri.ts';
import { numberToken, rowJson, rowKeyPrefixes } from '../results/serialize.ts';
import { driverModules } from './driver-modules.ts';

const ENGINE_NAME = 'DuckDB';

/** How long `cancel` waits for an interrupted statement to end. */
const CANCEL_WAIT_MS = 5_000;

/** Extensions are never fetched: no extension host is reachable. */
const INSTANCE_OPTIONS = { autoinstall_known_extensions: 'false', autoload_known_extensions: 'false' };

/**
 * This thread's DuckDB instances, one per file, held for the thread's whole life.
 *
 * `DuckDBInstance.fromCache` keeps only a weak reference to an instance, while every connection
 * keeps the database itself open. If the JS instance were collected while a connection of it was
 * still running (a 100k-row stream), the next `fromCache` of that file would find the database
 * "shutting down" and busy-spin in DuckDB on a libuv pool thread until the last connection closed,
 * then race DuckDB's shutdown of the old database ("Unique file handle conflict: Cannot attach
 * ..."), a native error that can end the process. Holding the instance here means a file's
 * database is opened once per thread and never closed under a running connection.
 * Keys are absolute paths, so two spellings of one file share the instance.
 * The pool runs every DuckDB task on one dedicated thread (pool.ts), so this map is the process's
 * only instance of each file: separate read-write instances of one file would not see each
 * other's writes and could corrupt it.
 */
const instances = new Map<string, Promise<DuckDBInstance>>();

/** The thread's instance of `file` (`:memory:`: a new private database each time). */
async function instanceFor(file: string): Promise<DuckDBInstance> {
  const { DuckDBInstance: Instance } = await driverModules.duckdb();
  if (file === ':memory:') return Instance.create(':memory:', INSTANCE_OPTIONS);
  const key = resolve(file);
  let instance = instances.get(key);
  if (!instance) {
    instance = Instance.fromCache(key, INSTANCE_OPTIONS);
    instances.set(key, instance);
    // A failed open (missing directory, file locked by another process) is retried by the next task.
    instance.catch(() => {
      if (instances.get(key) === instance) instances.delete(key);
    });
  }
  return instance;
}

const GRAINS: Record<TimeGrain, string> = {
  PT1S: "DATE_TRUNC('second', {col})",
  PT5S: "TIME_BUCKET(INTERVAL '5 seconds', CAST({col} AS TIMESTAMP))",
  PT30S: "TIME_BUCKET(INTERVAL '30 seconds', CAST({col} AS TIMESTAMP))",
  PT1M: "DATE_TRUNC('minute', {col})",
  PT5M: "TIME_BUCKET(INTERVAL '5 minutes', CAST({col} AS TIMESTAMP))",
  PT10M: "TIME_BUCKET(INTERVAL '10 minutes', CAST({col} AS TIMESTAMP))",
  PT15M: "TIME_BUCKET(INTERVAL '15 minutes', CAST({col} AS TIMESTAMP))",
  PT30M: "TIME_BUCKET(INTERVAL '30 minutes', CAST({col} AS TIMESTAMP))",
  PT1H: "DATE_TRUNC('hour', {col})",
  PT6H: "TIME_BUCKET(INTERVAL '6 hours', CAST({col} AS TIMESTAMP))",
  P1D: "DATE_TRUNC('day', {col})",
  P7D: "TIME_BUCKET(INTERVAL '7 days', CAST({col} AS TIMESTAMP), TIMESTAMP '1970-01-01')",
  P1W: "DATE_TRUNC('week', {col})",
  P1M: "DATE_TRUNC('month', {col})",
  P3M: "DATE_TRUNC('quarter', {col})",
  P1Y: "DATE_TRUNC('year', {col})",
  '1969-12-28T00:00:00Z/P1W': "DATE_TRUNC('week', {col} + INTERVAL 1 DAY) - INTERVAL 1 DAY",
  '1969-12-29T00:00:00Z/P1W': "DATE_TRUNC('week', {col})",
  'P1W/1970-01-03T00:00:00Z': "DATE_TRUNC('week', {col} + INTERVAL 1 DAY) + INTERVAL 5 DAY",
  'P1W/1970-01-04T00:00:00Z': "DATE_TRUNC('week', {col}) + INTERVAL 6 DAY",
};

const RULES: ErrorRule[] = [
  { regex: /syntax error at or near "(?<syntax_error>.*?)"/, message: 'Please check your query for syntax errors at or near "%(syntax_error)s". Then, try running your query again.', errorType: 'SYNTAX_ERROR' },
  { regex: /Parser Error: (?<detail>.*)/, message: 'Please check your query for syntax errors: %(detail)s. Then, try running your query again.', errorType: 'SYNTAX_ERROR' },
  { regex: /Referenced column "(?<column_name>.+?)" not found/, message: 'We can\'t seem to resolve the column "%(column_name)s".', errorType: 'COLUMN_DOES_NOT_EXIST_ERROR' },
  { regex: /because schema "(?<schema>.+?)" does not exist|No catalog \+ schema named "(?<schema2>.+?)" found/, message: 'The schema "%(schema)s%(schema2)s" does not exist. A valid schema must be used to run this query.', errorType: 'SCHEMA_DOES_NOT_EXIST_ERROR' },
  { regex: /Schema with name "?(?<schema>[^"!]+?)"? does not exist/, message: 'The schema "%(schema)s" does not exist. A valid schema must be used to run this query.', errorType: 'SCHEMA_DOES_NOT_EXIST_ERROR' },
  { regex: /Table with name "?(?<table>[^"!]+?)"? does not exist/, message: 'The table "%(table)s" does not exist. A valid table must be used to run this query.', errorType: 'TABLE_DOES_NOT_EXIST_ERROR' },
  { regex: /Catalog with name "?(?<database>[^"!]+?)"? does not exist/, message: 'Unable to connect to database "%(database)s".', errorType: 'CONNECTION_UNKNOWN_DATABASE_ERROR' },
  { regex: /IO Error: (?:Cannot open|Could not set lock on) file "(?<database>.+?)"/, message: 'Unable to connect to database "%(database)s".', errorType: 'CONNECTION_UNKNOWN_DATABASE_ERROR' },
];

function mapDuckdbError(error: unknown): SupersetError {
  return mapByRules(RULES, errorMessage(error), ENGINE_NAME);
}

/** JSON token of a DuckDB value: bigint digits, decimals exact, timestamps ISO-like, nested values as text. */
function duckValueToJson(value: DuckDBValue): string {
  if (value === null || value === undefined) return 'null';
  switch (typeof value) {
    case 'number':
      return Number.isFinite(value) ? String(value) : 'null';
    case 'bigint':
      return value.toString();
    case 'boolean':
      return value ? 'true' : 'false';
    case 'string':
      return JSON.stringify(value);
    default: {
      const name = value.constructor?.name ?? '';
      const text = String(value);
      if (name === 'DuckDBDecimalValue') return numberToken(text);
      if (name.startsWith('DuckDBTimestamp')) return JSON.stringify(text.replace(' ', 'T'));
      return JSON.stringify(text);
    }
  }
}

class DuckdbConnection implements EngineConnection {
  readonly cancelId = null;
  /** The statement in flight (settled or not), so `close` never frees the connection under it. */
  private busy: Promise<unknown> = Promise.resolve();
  private closed = false;

  /** `instance` is kept so the database outlives this connection (see `instances`). */
  constructor(private readonly connection: DuckDBConnection, readonly instance: DuckDBInstance) {}

  /** Runs one call on the connection, tracked in `busy`. */
  private track<T>(work: () => Promise<T>): Promise<T> {
    if (this.closed) return Promise.reject(new Error('The DuckDB connection is closed'));
    const run = this.busy.then(work, work);
    this.busy = run.catch(() => undefined);
    return run;
  }

  async execute(sql: string): Promise<void> {
    await this.track(() => this.connection.run(sql));
  }

  stream(sql: string, sink: RowSink, maxRows: number | null): Promise<StreamSummary> {
    return this.track(() => this.streamRows(sql, sink, maxRows));
  }

  private async streamRows(sql: string, sink: RowSink, maxRows: number | null): Promise<StreamSummary> {
    const result = await this.connection.stream(sql);
    if (result.returnType !== 3) return { rows: 0, hasResultSet: false };
    const names = dedupNames(result.columnNames());
    const types = result.columnTypes().map((t) => t.toString().toUpperCase());
    const columns = names.map((name, i) => resultColumn(name, types[i]));
    sink.setColumns(columns);
    const prefixes = rowKeyPrefixes(names);
    const values = new Array<string>(names.length);
    let rows = 0;
    for (;;) {
      if (maxRows !== null && rows >= maxRows) break;
      const chunk = await result.fetchChunk();
      if (!chunk || chunk.rowCount === 0) break;
      for (const row of chunk.getRows()) {
        if (maxRows !== null && rows >= maxRows) break;
        for (let i = 0; i < row.length; i++) values[i] = duckValueToJson(row[i]);
        rows++;
        const pending = sink.push(rowJson(prefixes, values));
        if (pending) await pending;
      }
    }
    return { rows, hasResultSet: true };
  }

  /**
   * Interrupts the statement and resolves once it has ended (or after CANCEL_WAIT_MS), so the stop
   * is acknowledged only then: a worker thread terminated while DuckDB still unwinds an interrupted
   * statement aborts the whole process ("terminate called after throwing an instance of
   * 'Napi::Error'"), and `pool.close()` terminates the threads once its stops are acknowledged.
   */
  async cancel(): Promise<void> {
    if (this.closed) return;
    this.connection.interrupt();
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.busy, new Promise((done) => (timer = setTimeout(done, CANCEL_WAIT_MS)))]);
    clearTimeout(timer);
  }

  private async rows(sql: string, values: (string | null)[] = []): Promise<DuckDBValue[][]> {
    const reader = await this.track(() => this.connection.runAndReadAll(sql, values));
    return reader.getRows();
  }

  async listCatalogs(): Promise<string[]> {
    const rows = await this.rows('SELECT database_name FROM duckdb_databases() WHERE NOT internal ORDER BY database_name');
    return rows.map((r) => String(r[0]));
  }

  async listSchemas(): Promise<string[]> {
    const rows = await this.rows('SELECT DISTINCT schema_name FROM duckdb_schemas() WHERE database_name = current_database() AND (NOT internal OR schema_name = \'main\') ORDER BY schema_name');
    return rows.map((r) => String(r[0]));
  }

  async listFunctions(): Promise<string[]> {
    const rows = await this.rows('SELECT DISTINCT function_name FROM duckdb_functions() ORDER BY function_name');
    return rows.map((r) => String(r[0]));
  }

  async listTables(schema: string | null): Promise<TableName[]> {
    const rows = await this.rows(
      `SELECT table_name, 'table' FROM duckdb_tables() WHERE database_name = current_database() AND schema_name = COALESCE($1, current_schema())
       UNION ALL SELECT view_name, 'view' FROM duckdb_views() WHERE NOT internal AND database_name = current_database() AND schema_name = COALESCE($1, current_schema())
       ORDER BY 1`,
      [schema],
    );
    return rows.map((r) => ({ name: String(r[0]), type: r[1] === 'view' ? 'view' : 'table' }));
  }

  async tableMetadata(schema: string | null, table: string): Promise<TableMetadata> {
    const kind = await this.rows(
      `SELECT 'table', schema_name, comment FROM duckdb_tables() WHERE database_name = current_database() AND schema_name = COALESCE($1, current_schema()) AND table_name = $2
       UNION ALL SELECT 'view', schema_name, comment FROM duckdb_views() WHERE database_name = current_database() AND schema_name = COALESCE($1, current_schema()) AND view_name = $2`,
      [schema, table],
    );
    if (kind.length === 0) throw new Error(`Catalog Error: Table with name ${table} does not exist!`);
    const tableSchema = String(kind[0][1]);
    const cols = await this.rows(
      `SELECT column_name, data_type, is_nullable, column_default, comment FROM duckdb_columns()
       WHERE database_name = current_database() AND schema_name = $1 AND table_name = $2 ORDER BY column_index`,
      [tableSchema, table],
    );
    const constraints = await this.rows(
      `SELECT constraint_type, constraint_name, constraint_column_names::VARCHAR[], referenced_table, referenced_column_names::VARCHAR[]
       FROM duckdb_constraints() WHERE database_name = current_database() AND schema_name = $1 AND table_name = $2 AND constraint_type IN ('PRIMARY KEY', 'FOREIGN KEY')`,
      [tableSchema, table],
    );
    const indexes = await this.rows(
      `SELECT index_name, is_unique, expressions FROM duckdb_indexes() WHERE database_name = current_database() AND schema_name = $1 AND table_name = $2`,
      [tableSchema, table],
    );
    const list = (value: DuckDBValue): string[] => {
      const items = (value as { items?: readonly DuckDBValue[] } | null)?.items;
      return items ? items.map(String) : [];
    };
    const pk = constraints.find((c) => c[0] === 'PRIMARY KEY');
    const pkColumns = pk ? list(pk[2]) : [];
    const columns = cols.map((r) => {
      const type = String(r[1]);
      const typeGeneric = genericTypeOf(type);
      return {
        name: String(r[0]), type, type_generic: typeGeneric, is_dttm: typeGeneric === 2, nullable: r[2] === true,
        default: r[3] == null ? null : String(r[3]), comment: r[4] == null ? null : String(r[4]), primaryKey: pkColumns.includes(String(r[0])),
      };
    });
    return {
      name: table,
      schema: tableSchema,
      catalog: null,
      type: kind[0][0] === 'view' ? 'view' : 'table',
      columns,
      primaryKey: pk ? { name: pk[1] == null ? null : String(pk[1]), constrained_columns: pkColumns } : null,
      foreignKeys: constraints.filter((c) => c[0] === 'FOREIGN KEY').map((c) => ({
        name: c[1] == null ? null : String(c[1]), constrained_columns: list(c[2]), referred_schema: tableSchema, referred_table: String(c[3]), referred_columns: list(c[4]),
      })),
      indexes: indexes.map((r) => ({ name: String(r[0]), unique: r[1] === true, column_names: String(r[2] ?? '').replace(/^\[|\]$/g, '').split(',').map((s) => s.trim().replace(/^"|"$/g, '')).filter(Boolean) })),
      comment: kind[0][2] == null ? null : String(kind[0][2]),
      selectStar: selectStarSql(duckdbSpec, schema, table, columns.map((c) => c.name)),
    };
  }

  async estimate(statement: string): Promise<Record<string, unknown>> {
    const rows = await this.rows(`EXPLAIN ${statement}`);
    const plan = rows.map((r) => String(r[r.length - 1])).join('\n');
    const estimates = [...plan.matchAll(/~\s*([\d,]+)\s+rows?|EC:\s*(\d+)/g)].map((m) => Number((m[1] ?? m[2]).replaceAll(',', '')));
    return { 'Estimated rows': estimates.length > 0 ? String(Math.max(...estimates)) : null };
  }

  /**
   * Closes the connection once its statement has ended: a task that gave up on a cancelled
   * statement (tasks.ts, `abandoned`) must not free the connection while DuckDB still runs it.
   */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    void this.busy.then(() => this.connection.closeSync());
  }
}

/** DuckDB engine spec (@duckdb/node-api; one instance per file, on the pool's one DuckDB thread, held for its life; no extension autoload). */
export const duckdbSpec: EngineSpec = {
  backend: 'duckdb',
  engineName: ENGINE_NAME,
  dialect: 'duckdb',
  supportsCatalog: true,
  cancelsInThread: true,
  timeGrainExpressions: GRAINS,
  epochToDttm: 'epoch_ms(CAST(CAST({col} AS DOUBLE) * 1000 AS BIGINT))',
  quoteIdentifier: quoteDouble,
  async connect(target: ConnectionTarget) {
    const file = parseUri(target.uri).database ?? ':memory:';
    const instance = await instanceFor(file);
    const connection = await instance.connect();
    try {
      if (target.catalog && target.schema) await connection.run(`USE ${quoteDouble(target.catalog)}.${quoteDouble(target.schema)}`);
      else if (target.catalog) await connection.run(`USE ${quoteDouble(target.catalog)}`);
      // A new connection already uses "main" of the file's database: that USE would be a wasted statement per query.
      else if (target.schema && target.schema !== 'main') await connection.run(`USE ${quoteDouble(target.schema)}`);
    } catch (error) {
      connection.closeSync();
      throw error;
    }
    return new DuckdbConnection(connection, instance);
  },
  async cancelById() {
    // DuckDB cancels only in-process (`connection.interrupt()`), through `pool.stop`.
    return false;
  },
  mapError: mapDuckdbError,
};
