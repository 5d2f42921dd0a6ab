import type { Connection, FieldPacket } from 'mysql2';
import type { ConnectionTarget, ResultColumn, SupersetError, TableMetadata, TableName } from '../types.ts';
import {
  dedupNames, genericTypeOf, resultColumn, selectStarSql,
  type EngineConnection, type EngineSpec, type RowSink, type StreamSummary, type TimeGrain,
} from './engine-spec.ts';
import { errorMessage, mapByRules, supersetError, type ErrorRule } from './errors.ts';
import { parseUri } from './uri.ts';
import { numberToken, rowJson, rowKeyPrefixes, serializeValue } from '../results/serialize.ts';
import { driverModules } from './driver-modules.ts';

const ENGINE_NAME = 'MySQL';

/** mysql2 column type codes → SQL type names. */
const TYPE_NAMES: Record<number, string> = {
  0: 'DECIMAL', 1: 'TINYINT', 2: 'SMALLINT', 3: 'INTEGER', 4: 'FLOAT', 5: 'DOUBLE', 6: 'NULL', 7: 'TIMESTAMP', 8: 'BIGINT',
  9: 'MEDIUMINT', 10: 'DATE', 11: 'TIME', 12: 'DATETIME', 13: 'YEAR', 14: 'DATE', 15: 'VARCHAR', 16: 'BIT', 245: 'JSON',
  246: 'DECIMAL', 247: 'ENUM', 248: 'SET', 249: 'TINYBLOB', 250: 'MEDIUMBLOB', 251: 'LONGBLOB', 252: 'BLOB', 253: 'VARCHAR',
  254: 'CHAR', 255: 'GEOMETRY',
};
/** Types mysql2 returns as strings (bigNumberStrings / decimals) that must be JSON numbers. */
const NUMBER_STRING_TYPES = new Set([0, 8, 246]);
const DATETIME_TYPES = new Set([7, 12]);

function typeName(field: FieldPacket): string {
  const code = field.columnType ?? field.type ?? -1;
  const name = TYPE_NAMES[code] ?? 'UNKNOWN';
  // Blob types with a non-binary charset are TEXT columns.
  if (code >= 249 && code <= 252 && field.characterSet !== 63) return name.replace('BLOB', 'TEXT');
  return name;
}

function valueToJson(code: number): (value: unknown) => string {
  if (NUMBER_STRING_TYPES.has(code)) return (v) => (typeof v === 'string' ? numberToken(v) : serializeValue(v));
  if (DATETIME_TYPES.has(code)) return (v) => (typeof v === 'string' ? JSON.stringify(v.replace(' ', 'T')) : serializeValue(v));
  return serializeValue;
}

const GRAINS: Record<TimeGrain, string> = {
  PT1S: 'DATE_ADD(DATE({col}), INTERVAL (HOUR({col})*60*60 + MINUTE({col})*60 + SECOND({col})) SECOND)',
  PT5S: 'DATE_ADD(DATE({col}), INTERVAL FLOOR((HOUR({col})*60*60 + MINUTE({col})*60 + SECOND({col})) / 5) * 5 SECOND)',
  PT30S: 'DATE_ADD(DATE({col}), INTERVAL FLOOR((HOUR({col})*60*60 + MINUTE({col})*60 + SECOND({col})) / 30) * 30 SECOND)',
  PT1M: 'DATE_ADD(DATE({col}), INTERVAL (HOUR({col})*60 + MINUTE({col})) MINUTE)',
  PT5M: 'DATE_ADD(DATE({col}), INTERVAL FLOOR((HOUR({col})*60 + MINUTE({col})) / 5) * 5 MINUTE)',
  PT10M: 'DATE_ADD(DATE({col}), INTERVAL FLOOR((HOUR({col})*60 + MINUTE({col})) / 10) * 10 MINUTE)',
  PT15M: 'DATE_ADD(DATE({col}), INTERVAL FLOOR((HOUR({col})*60 + MINUTE({col})) / 15) * 15 MINUTE)',
  PT30M: 'DATE_ADD(DATE({col}), INTERVAL FLOOR((HOUR({col})*60 + MINUTE({col})) / 30) * 30 MINUTE)',
  PT1H: 'DATE_ADD(DATE({col}), INTERVAL HOUR({col}) HOUR)',
  PT6H: 'DATE_ADD(DATE({col}), INTERVAL FLOOR(HOUR({col}) / 6) * 6 HOUR)',
  P1D: 'DATE({col})',
  P7D: "DATE_ADD('1970-01-01', INTERVAL FLOOR(DATEDIFF({col}, '1970-01-01') / 7) * 7 DAY)",
  P1W: 'DATE(DATE_SUB({col}, INTERVAL DAYOFWEEK({col}) - 1 DAY))',
  P1M: 'DATE(DATE_SUB({col}, INTERVAL DAYOFMONTH({col}) - 1 DAY))',
  P3M: 'MAKEDATE(YEAR({col}), 1) + INTERVAL QUARTER({col}) QUARTER - INTERVAL 1 QUARTER',
  P1Y: 'DATE(DATE_SUB({col}, INTERVAL DAYOFYEAR({col}) - 1 DAY))',
  '1969-12-28T00:00:00Z/P1W': 'DATE(DATE_SUB({col}, INTERVAL DAYOFWEEK({col}) - 1 DAY))',
  '1969-12-29T00:00:00Z/P1W': 'DATE(DATE_SUB({col}, INTERVAL DAYOFWEEK(DATE_SUB({col}, INTERVAL 1 DAY)) - 1 DAY))',
  'P1W/1970-01-03T00:00:00Z': 'DATE(DATE_ADD({col}, INTERVAL 7 - DAYOFWEEK({col}) DAY))',
  'P1W/1970-01-04T00:00:00Z': 'DATE(DATE_ADD(DATE_SUB({col}, INTERVAL DAYOFWEEK(DATE_SUB({col}, INTERVAL 1 DAY)) - 1 DAY), INTERVAL 6 DAY))',
};

const RULES: ErrorRule[] = [
  { regex: /Access denied for user '(?<username>.*?)'@'(?<hostname>.*?)'/, message: 'Either the username "%(username)s" or the password is incorrect.', errorType: 'CONNECTION_ACCESS_DENIED_ERROR', extra: { invalid: ['username', 'password'] } },
  { regex: /Unknown MySQL server host '(?<hostname>.*?)'/, message: 'Unknown MySQL server host "%(hostname)s".', errorType: 'CONNECTION_INVALID_HOSTNAME_ERROR', extra: { invalid: ['host'] } },
  { regex: /MERIDIAN_SCHEMA_MISSING '(?<schema>.*?)'/, message: 'The schema "%(schema)s" does not exist. A valid schema must be used to run this query.', errorType: 'SCHEMA_DOES_NOT_EXIST_ERROR' },
  { regex: /Unknown database '(?<database>.*?)'/, message: 'Unable to connect to database "%(database)s".', errorType: 'CONNECTION_UNKNOWN_DATABASE_ERROR', extra: { invalid: ['database'] } },
  { regex: /check the manual that (?:corresponds to your (?:MySQL|MariaDB) server version|fits your MariaDB server version) for the right syntax to use near '(?<server_error>.*)/s, message: 'Please check your query for syntax errors near "%(server_error)s". Then, try running your query again.', errorType: 'SYNTAX_ERROR' },
  { regex: /Unknown column '(?<column_name>.+?)' in/, message: 'We can\'t seem to resolve the column "%(column_name)s".', errorType: 'COLUMN_DOES_NOT_EXIST_ERROR' },
  { regex: /Table '(?<table>.+?)' doesn't exist/, message: 'The table "%(table)s" does not exist. A valid table must be used to run this query.', errorType: 'TABLE_DOES_NOT_EXIST_ERROR' },
];

interface MysqlError {
  code?: string;
  errno?: number;
  message?: string;
  meridianSchemaMissing?: string;
}

function hostPort(target?: ConnectionTarget): { host: string; port: number } {
  try {
    const uri = target ? parseUri(target.uri) : null;
    return { host: uri?.host ?? '127.0.0.1', port: uri?.port ?? 3306 };
  } catch {
    return { host: '127.0.0.1', port: 3306 };
  }
}

function mapMysqlError(error: unknown, phase: 'connect' | 'query', target?: ConnectionTarget): SupersetError {
  const e = (error instanceof AggregateError ? error.errors[0] : error) as MysqlError;
  const { host } = hostPort(target);
  // Superset's MySQL spec has no closed-port error: the client's "Can't connect to MySQL server on
  // 'host'" (refused, timed out or unreachable alike) is CONNECTION_HOST_DOWN_ERROR.
  if (e?.code === 'ECONNREFUSED' || e?.code === 'ETIMEDOUT' || e?.code === 'EHOSTUNREACH') {
    return supersetError('CONNECTION_HOST_DOWN_ERROR', `The host "${host}" might be down and can't be reached.`, ENGINE_NAME, { invalid: ['host', 'port'] });
  }
  if (e?.code === 'ENOTFOUND' || e?.code === 'EAI_AGAIN') return supersetError('CONNECTION_INVALID_HOSTNAME_ERROR', `Unknown MySQL server host "${host}".`, ENGINE_NAME, { invalid: ['host'] });
  if (e?.meridianSchemaMissing) return mapByRules(RULES, `MERIDIAN_SCHEMA_MISSING '${e.meridianSchemaMissing}'`, ENGINE_NAME);
  // Once connected, an unknown database is a missing schema (`USE x`, `x.table`).
  if (phase === 'query' && e?.code === 'ER_BAD_DB_ERROR') {
    const schema = /Unknown database '(.*?)'/.exec(e.message ?? '')?.[1] ?? '';
    return mapByRules(RULES, `MERIDIAN_SCHEMA_MISSING '${schema}'`, ENGINE_NAME);
  }
  return mapByRules(RULES, errorMessage(error), ENGINE_NAME);
}

async function openConnection(target: ConnectionTarget): Promise<Connection> {
  const mysql = await driverModules.mysql();
  const uri = parseUri(target.uri);
  const connection = mysql.createConnection({
    host: uri.host ?? '127.0.0.1',
    port: uri.port ?? 3306,
    user: uri.username ?? undefined,
    password: uri.password ?? undefined,
    database: uri.database ?? undefined,
    supportBigNumbers: true,
    bigNumberStrings: true,
    dateStrings: true,
    connectTimeout: 10_000,
    charset: uri.query.charset ?? 'utf8mb4',
    // JSON stays text, as Superset stringifies nested values.
    typeCast: (field, next) => (field.type === 'JSON' ? field.string() : next()),
  });
  connection.on('error', () => undefined);
  await new Promise<void>((resolve, reject) => connection.connect((err) => (err ? reject(err) : resolve())));
  return connection;
}

function queryRows(connection: Connection, sql: string, values?: unknown[]): Promise<unknown[][]> {
  return new Promise((resolve, reject) => {
    connection.query({ sql, values, rowsAsArray: true }, (err, rows) => (err ? reject(err) : resolve(Array.isArray(rows) ? (rows as unknown[][]) : [])));
  });
}

class MysqlConnection implements EngineConnection {
  readonly cancelId: string;
  private busy = false;

  constructor(private readonly connection: Connection, private readonly target: ConnectionTarget) {
    this.cancelId = String(connection.threadId);
  }

  private async tagError(error: unknown): Promise<void> {
    const e = error as MysqlError;
    const table = e?.code === 'ER_NO_SUCH_TABLE' ? /Table '(.+?)\.(.+?)' doesn't exist/.exec(e.message ?? '') : null;
    if (!table) return;
    try {
      const rows = await queryRows(this.connection, 'SELECT 1 FROM information_schema.schemata WHERE schema_name = ?', [table[1]]);
      if (rows.length === 0) e.meridianSchemaMissing = table[1];
    } catch {
      // Keep the table error.
    }
  }

  private async rows(sql: string, values?: unknown[]): Promise<unknown[][]> {
    try {
      return await queryRows(this.connection, sql, values);
    } catch (error) {
      await this.tagError(error);
      throw error;
    }
  }

  async execute(sql: string): Promise<void> {
    await this.rows(sql);
  }

  async stream(sql: string, sink: RowSink, maxRows: number | null): Promise<StreamSummary> {
    let columns: ResultColumn[] | null = null;
    let converters: ((value: unknown) => string)[] = [];
    let prefixes: string[] = [];
    let rows = 0;
    const query = this.connection.query({ sql, rowsAsArray: true });
    query.on('fields', (fields: FieldPacket[]) => {
      if (columns || !fields) return;
      columns = dedupNames(fields.map((f) => f.name)).map((name, i) => resultColumn(name, typeName(fields[i])));
      converters = fields.map((f) => valueToJson(f.columnType ?? f.type ?? -1));
      prefixes = rowKeyPrefixes(columns.map((c) => c.name));
      sink.setColumns(columns);
    });
    const stream = query.stream({ highWaterMark: 1000 });
    this.busy = true;
    try {
      for await (const row of stream as AsyncIterable<unknown>) {
        if (!columns || !Array.isArray(row)) continue;
        if (maxRows !== null && rows >= maxRows) {
          // Leave early: the connection is closed after the task, which ends the server-side read.
          break;
        }
        const values = row.map((v, i) => (v === null ? 'null' : converters[i](v)));
        rows++;
        const pending = sink.push(rowJson(prefixes, values));
        if (pending) await pending;
      }
    } catch (error) {
      this.busy = false;
      await this.tagError(error);
      throw error;
    }
    this.busy = false;
    return { rows, hasResultSet: columns !== null };
  }

  async cancel(): Promise<void> {
    await mysqlSpec.cancelById(this.target, this.cancelId);
  }

  async listCatalogs(): Promise<string[]> {
    return [];
  }

  async listSchemas(): Promise<string[]> {
    const rows = await this.rows('SELECT schema_name FROM information_schema.schemata ORDER BY schema_name');
    return rows.map((r) => String(r[0]));
  }

  /** MySQL keeps no catalog of its built-in functions: the stored functions of the server are what it can list. */
  async listFunctions(): Promise<string[]> {
    const rows = await this.rows("SELECT DISTINCT routine_name FROM information_schema.routines WHERE routine_type = 'FUNCTION' ORDER BY routine_name");
    return rows.map((r) => String(r[0]));
  }

  async listTables(schema: string | null): Promise<TableName[]> {
    const rows = await this.rows(
      'SELECT table_name, table_type FROM information_schema.tables WHERE table_schema = COALESCE(?, DATABASE()) ORDER BY table_name',
      [schema],
    );
    return rows.map((r) => ({ name: String(r[0]), type: /VIEW/.test(String(r[1])) ? 'view' : 'table' }));
  }

  async tableMetadata(schema: string | null, table: string): Promise<TableMetadata> {
    const info = await this.rows(
      'SELECT table_schema, table_type, table_comment FROM information_schema.tables WHERE table_schema = COALESCE(?, DATABASE()) AND table_name = ?',
      [schema, table],
    );
    if (info.length === 0) throw Object.assign(new Error(`Table '${schema ?? ''}${schema ? '.' : ''}${table}' doesn't exist`), { code: 'ER_NO_SUCH_TABLE' });
    const tableSchema = String(info[0][0]);
    const cols = await this.rows(
      `SELECT column_name, UPPER(column_type), is_nullable, column_default, column_comment, column_key
       FROM information_schema.columns WHERE table_schema = ? AND table_name = ? ORDER BY ordinal_position`,
      [tableSchema, table],
    );
    const keys = await this.rows(
      `SELECT k.constraint_name, k.column_name, k.referenced_table_schema, k.referenced_table_name, k.referenced_column_name
       FROM information_schema.key_column_usage k WHERE k.table_schema = ? AND k.table_name = ? ORDER BY k.constraint_name, k.ordinal_position`,
      [tableSchema, table],
    );
    const stats = await this.rows(
      `SELECT index_name, non_unique, column_name FROM information_schema.statistics
       WHERE table_schema = ? AND table_name = ? AND index_name <> 'PRIMARY' ORDER BY index_name, seq_in_index`,
      [tableSchema, table],
    );
    const pkColumns = keys.filter((k) => k[0] === 'PRIMARY').map((k) => String(k[1]));
    const fks = new Map<string, TableMetadata['foreignKeys'][number]>();
    for (const k of keys) {
      if (k[0] === 'PRIMARY' || k[3] == null) continue;
      const name = String(k[0]);
      const fk = fks.get(name) ?? { name, constrained_columns: [], referred_schema: String(k[2]), referred_table: String(k[3]), referred_columns: [] };
      fk.constrained_columns.push(String(k[1]));
      fk.referred_columns.push(String(k[4]));
      fks.set(name, fk);
    }
    const indexes = new Map<string, TableMetadata['indexes'][number]>();
    for (const s of stats) {
      const name = String(s[0]);
      const index = indexes.get(name) ?? { name, unique: Number(s[1]) === 0, column_names: [] };
      index.column_names.push(String(s[2]));
      indexes.set(name, index);
    }
    const columns = cols.map((r) => {
      const type = String(r[1]);
      const typeGeneric = genericTypeOf(type);
      return {
        name: String(r[0]), type, type_generic: typeGeneric, is_dttm: typeGeneric === 2, nullable: r[2] === 'YES',
        default: r[3] == null ? null : String(r[3]), comment: r[4] ? String(r[4]) : null, primaryKey: pkColumns.includes(String(r[0])),
      };
    });
    return {
      name: table,
      schema: tableSchema,
      catalog: null,
      type: /VIEW/.test(String(info[0][1])) ? 'view' : 'table',
      columns,
      primaryKey: pkColumns.length > 0 ? { name: 'PRIMARY', constrained_columns: pkColumns } : null,
      foreignKeys: [...fks.values()],
      indexes: [...indexes.values()],
      comment: info[0][2] ? String(info[0][2]) : null,
      selectStar: selectStarSql(mysqlSpec, schema, table, columns.map((c) => c.name)),
    };
  }

  async estimate(statement: string): Promise<Record<string, unknown>> {
    const rows = await new Promise<Record<string, unknown>[]>((resolve, reject) => {
      this.connection.query(`EXPLAIN ${statement}`, (err, result) => (err ? reject(err) : resolve(result as Record<string, unknown>[])));
    });
    const estimated = rows.reduce((product, row) => product * Math.max(1, Number(row.rows ?? 1)), 1);
    return { 'Estimated rows': String(estimated), Tables: rows.map((r) => r.table).filter(Boolean).join(', ') };
  }

  async close(): Promise<void> {
    if (this.busy) {
      this.connection.destroy();
      return;
    }
    await new Promise<void>((resolve) => this.connection.end(() => resolve()));
  }
}

/** MySQL / MariaDB engine spec (mysql2; BIGINT and DECIMAL kept exact as number tokens). */
export const mysqlSpec: EngineSpec = {
  backend: 'mysql',
  engineName: ENGINE_NAME,
  dialect: 'mysql',
  supportsCatalog: false,
  cancelsInThread: true,
  timeGrainExpressions: GRAINS,
  epochToDttm: 'from_unixtime({col})',
  quoteIdentifier: (name) => `\`${name.replaceAll('`', '``')}\``,
  async connect(target) {
    const connection = await openConnection(target);
    const wrapped = new MysqlConnection(connection, target);
    if (target.schema) {
      try {
        await queryRows(connection, `USE ${mysqlSpec.quoteIdentifier(target.schema)}`);
      } catch (error) {
        connection.destroy();
        throw Object.assign(error as object, { meridianSchemaMissing: target.schema });
      }
    }
    return wrapped;
  },
  async cancelById(target, cancelId) {
    const connection = await openConnection({ uri: target.uri });
    try {
      await queryRows(connection, `KILL QUERY ${Number(cancelId)}`);
      return true;
    } catch {
      return false;
    } finally {
      connection.destroy();
    }
  },
  mapError: mapMysqlError,
};
