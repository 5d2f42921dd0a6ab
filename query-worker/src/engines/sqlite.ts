import type { Database } from 'better-sqlite3';
import type { ConnectionTarget, SupersetError, TableMetadata, TableName } from '../types.ts';
import {
  dedupNames, genericTypeOf, quoteDouble, resultColumn, selectStarSql,
  type EngineConnection, type EngineSpec, type RowSink, type StreamSummary, type TimeGrain,
} from './engine-spec.ts';
import { errorMessage, mapByRules, type ErrorRule } from './errors.ts';
import { parseUri } from './uri.ts';
import { rowJson, rowKeyPrefixes, serializeValue } from '../results/serialize.ts';
import { driverModules } from './driver-modules.ts';

const ENGINE_NAME = 'SQLite';

const GRAINS: Record<TimeGrain, string> = {
  PT1S: "DATETIME(STRFTIME('%Y-%m-%dT%H:%M:%S', {col}))",
  PT5S: "DATETIME(CAST(STRFTIME('%s', {col}) AS INTEGER) / 5 * 5, 'unixepoch')",
  PT30S: "DATETIME(CAST(STRFTIME('%s', {col}) AS INTEGER) / 30 * 30, 'unixepoch')",
  PT1M: "DATETIME(STRFTIME('%Y-%m-%dT%H:%M:00', {col}))",
  PT5M: "DATETIME(CAST(STRFTIME('%s', {col}) AS INTEGER) / 300 * 300, 'unixepoch')",
  PT10M: "DATETIME(CAST(STRFTIME('%s', {col}) AS INTEGER) / 600 * 600, 'unixepoch')",
  PT15M: "DATETIME(CAST(STRFTIME('%s', {col}) AS INTEGER) / 900 * 900, 'unixepoch')",
  PT30M: "DATETIME(CAST(STRFTIME('%s', {col}) AS INTEGER) / 1800 * 1800, 'unixepoch')",
  PT1H: "DATETIME(STRFTIME('%Y-%m-%dT%H:00:00', {col}))",
  PT6H: "DATETIME(CAST(STRFTIME('%s', {col}) AS INTEGER) / 21600 * 21600, 'unixepoch')",
  P1D: "DATETIME({col}, 'start of day')",
  P7D: "DATETIME(CAST(STRFTIME('%s', {col}) AS INTEGER) / 604800 * 604800, 'unixepoch')",
  P1W: "DATETIME({col}, 'start of day', -STRFTIME('%w', {col}) || ' days')",
  P1M: "DATETIME({col}, 'start of month')",
  P3M: "DATETIME({col}, 'start of month', PRINTF('-%d month', (STRFTIME('%m', {col}) - 1) % 3))",
  P1Y: "DATETIME({col}, 'start of year')",
  '1969-12-28T00:00:00Z/P1W': "DATETIME({col}, 'start of day', -STRFTIME('%w', {col}) || ' days')",
  '1969-12-29T00:00:00Z/P1W': "DATETIME({col}, 'start of day', -((STRFTIME('%w', {col}) + 6) % 7) || ' days')",
  'P1W/1970-01-03T00:00:00Z': "DATETIME({col}, 'start of day', 'weekday 6')",
  'P1W/1970-01-04T00:00:00Z': "DATETIME({col}, 'start of day', 'weekday 0')",
};

const RULES: ErrorRule[] = [
  { regex: /near "(?<syntax_error>.*?)": syntax error/, message: 'Please check your query for syntax errors at or near "%(syntax_error)s". Then, try running your query again.', errorType: 'SYNTAX_ERROR' },
  { regex: /incomplete input|syntax error/, message: 'Please check your query for syntax errors. Then, try running your query again.', errorType: 'SYNTAX_ERROR' },
  { regex: /no such column: (?<column_name>.+)/, message: 'We can\'t seem to resolve the column "%(column_name)s".', errorType: 'COLUMN_DOES_NOT_EXIST_ERROR' },
  { regex: /unknown database (?<schema>.+)/, message: 'The schema "%(schema)s" does not exist. A valid schema must be used to run this query.', errorType: 'SCHEMA_DOES_NOT_EXIST_ERROR' },
  { regex: /no such table: (?<table>.+)/, message: 'The table "%(table)s" does not exist. A valid table must be used to run this query.', errorType: 'TABLE_DOES_NOT_EXIST_ERROR' },
  { regex: /unable to open database file|cannot open/, message: 'Unable to connect to database "%(database)s".', errorType: 'CONNECTION_UNKNOWN_DATABASE_ERROR' },
];

function mapSqliteError(error: unknown, _phase: 'connect' | 'query', target?: ConnectionTarget): SupersetError {
  const message = errorMessage(error);
  if (/better-sqlite3/.test(message)) return mapByRules([], message, ENGINE_NAME);
  let database = '';
  try {
    database = target ? parseUri(target.uri).database ?? '' : '';
  } catch {
    // keep empty
  }
  return mapByRules(RULES.map((r) => ({ ...r, message: r.message.replace('%(database)s', database) })), message, ENGINE_NAME);
}

class SqliteConnection implements EngineConnection {
  readonly cancelId = null;

  constructor(private readonly db: Database) {}

  /**
   * SQLite names a missing schema as a missing table (`no such table: nosuch.t`): when the prefix is
   * no attached database, the error says so (`unknown database nosuch`, SCHEMA_DOES_NOT_EXIST_ERROR).
   */
  private schemaAware(error: unknown): unknown {
    const match = /no such table: ([^.\s]+)\.\S+/.exec(errorMessage(error));
    if (!match) return error;
    const schemas = (this.db.prepare('PRAGMA database_list').all() as { name: string }[]).map((r) => r.name.toLowerCase());
    return schemas.includes(match[1].toLowerCase()) ? error : new Error(`unknown database ${match[1]}`);
  }

  private prepare(sql: string) {
    try {
      return this.db.prepare(sql);
    } catch (error) {
      throw this.schemaAware(error);
    }
  }

  async execute(sql: string): Promise<void> {
    try {
      this.db.exec(sql);
    } catch (error) {
      throw this.schemaAware(error);
    }
  }

  async stream(sql: string, sink: RowSink, maxRows: number | null): Promise<StreamSummary> {
    const statement = this.prepare(sql);
    if (!statement.reader) {
      statement.run();
      return { rows: 0, hasResultSet: false };
    }
    statement.safeIntegers(true).raw(true);
    const described = statement.columns();
    const names = dedupNames(described.map((c) => c.name));
    const columns = names.map((name, i) => resultColumn(name, (described[i].type ?? '').toUpperCase()));
    sink.setColumns(columns);
    const prefixes = rowKeyPrefixes(names);
    const values = new Array<string>(names.length);
    let rows = 0;
    for (const row of statement.iterate() as Iterable<unknown[]>) {
      if (maxRows !== null && rows >= maxRows) break;
      for (let i = 0; i < row.length; i++) values[i] = serializeValue(row[i]);
      rows++;
      const pending = sink.push(rowJson(prefixes, values));
      if (pending) await pending;
    }
    return { rows, hasResultSet: true };
  }

  async cancel(): Promise<void> {
    // better-sqlite3 runs synchronously and has no interrupt: SQL Lab runs go to a child process
    // that the worker thread kills on stop or timeout (cancelsInThread: false, see isolated.ts).
  }

  async listCatalogs(): Promise<string[]> {
    return [];
  }

  async listSchemas(): Promise<string[]> {
    return (this.db.prepare('PRAGMA database_list').all() as { name: string }[]).map((r) => r.name);
  }

  async listFunctions(): Promise<string[]> {
    return (this.db.prepare('SELECT DISTINCT name FROM pragma_function_list ORDER BY name').all() as { name: string }[]).map((r) => r.name);
  }

  async listTables(schema: string | null): Promise<TableName[]> {
    let rows: { name: string; type: string }[];
    try {
      rows = this.db
        .prepare(`SELECT name, type FROM ${quoteDouble(schema ?? 'main')}.sqlite_master WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name`)
        .all() as { name: string; type: string }[];
    } catch (error) {
      throw this.schemaAware(error);
    }
    return rows.map((r) => ({ name: r.name, type: r.type === 'view' ? 'view' : 'table' }));
  }

  async tableMetadata(schema: string | null, table: string): Promise<TableMetadata> {
    const qs = quoteDouble(schema ?? 'main');
    const master = this.db.prepare(`SELECT type FROM ${qs}.sqlite_master WHERE name = ? AND type IN ('table', 'view')`).get(table) as { type: string } | undefined;
    if (!master) throw new Error(`no such table: ${schema ? `${schema}.` : ''}${table}`);
    const info = this.db.prepare(`PRAGMA ${qs}.table_info(${quoteDouble(table)})`).all() as { name: string; type: string; notnull: number; dflt_value: string | null; pk: number }[];
    const fkRows = this.db.prepare(`PRAGMA ${qs}.foreign_key_list(${quoteDouble(table)})`).all() as { id: number; table: string; from: string; to: string | null }[];
    const indexList = this.db.prepare(`PRAGMA ${qs}.index_list(${quoteDouble(table)})`).all() as { name: string; unique: number; origin: string }[];
    const pkColumns = info.filter((c) => c.pk > 0).sort((a, b) => a.pk - b.pk).map((c) => c.name);
    const fks = new Map<number, TableMetadata['foreignKeys'][number]>();
    for (const fk of fkRows) {
      const entry = fks.get(fk.id) ?? { name: null, constrained_columns: [], referred_schema: schema, referred_table: fk.table, referred_columns: [] };
      entry.constrained_columns.push(fk.from);
      if (fk.to) entry.referred_columns.push(fk.to);
      fks.set(fk.id, entry);
    }
    const columns = info.map((c) => {
      const type = (c.type || '').toUpperCase();
      const typeGeneric = genericTypeOf(type);
      return { name: c.name, type, type_generic: typeGeneric, is_dttm: typeGeneric === 2, nullable: c.notnull === 0 && c.pk === 0, default: c.dflt_value, comment: null, primaryKey: c.pk > 0 };
    });
    return {
      name: table,
      schema: schema ?? 'main',
      catalog: null,
      type: master.type === 'view' ? 'view' : 'table',
      columns,
      primaryKey: pkColumns.length > 0 ? { name: null, constrained_columns: pkColumns } : null,
      foreignKeys: [...fks.values()],
      indexes: indexList.filter((i) => i.origin !== 'pk').map((i) => ({
        name: i.name,
        unique: i.unique === 1,
        column_names: (this.db.prepare(`PRAGMA ${qs}.index_info(${quoteDouble(i.name)})`).all() as { name: string }[]).map((r) => r.name),
      })),
      comment: null,
      selectStar: selectStarSql(sqliteSpec, schema, table, columns.map((c) => c.name)),
    };
  }

  async estimate(statement: string): Promise<Record<string, unknown>> {
    const plan = this.db.prepare(`EXPLAIN QUERY PLAN ${statement}`).all() as { detail: string }[];
    return { Plan: plan.map((p) => p.detail).join('\n') };
  }

  async close(): Promise<void> {
    this.db.close();
  }
}

/** SQLite engine spec; better-sqlite3 is an optional dependency loaded on first connect. */
export const sqliteSpec: EngineSpec = {
  backend: 'sqlite',
  engineName: ENGINE_NAME,
  dialect: 'sqlite',
  supportsCatalog: false,
  cancelsInThread: false,
  timeGrainExpressions: GRAINS,
  epochToDttm: "datetime({col}, 'unixepoch')",
  quoteIdentifier: quoteDouble,
  async connect(target) {
    let Driver: typeof import('better-sqlite3');
    try {
      Driver = await driverModules.betterSqlite();
    } catch {
      throw new Error('SQLite support needs the optional dependency better-sqlite3, which is not installed (pnpm add better-sqlite3 in query-worker).');
    }
    const file = parseUri(target.uri).database ?? ':memory:';
    const db = new Driver(file, { fileMustExist: file !== ':memory:' });
    return new SqliteConnection(db);
  },
  async cancelById() {
    return false;
  },
  mapError: mapSqliteError,
};
