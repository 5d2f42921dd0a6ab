import type { Client as PgClient, ClientConfig, FieldDef } from 'pg';
import type { ConnectionTarget, ResultColumn, SupersetError, TableMetadata, TableName } from '../types.ts';
import {
  dedupNames, genericTypeOf, quoteDouble, resultColumn, selectStarSql,
  type EngineConnection, type EngineSpec, type RowSink, type StreamSummary, type TimeGrain,
} from './engine-spec.ts';
import { errorMessage, mapByRules, supersetError, type ErrorRule } from './errors.ts';
import { parseUri } from './uri.ts';
import { numberToken, rowJson, rowKeyPrefixes } from '../results/serialize.ts';
import { driverModules } from './driver-modules.ts';
import { CopyTextTranscoder, type CopyColumnKind } from './copy-text.ts';

const ENGINE_NAME = 'PostgreSQL';

/** Type names per database (`uri|catalog`), for result column types. */
const TYPE_NAMES = new Map<string, Map<number, string>>();

/** Every value stays the server's text; the serializer decides the JSON token from the type oid. */
const TEXT_TYPES = { getTypeParser: () => (value: string) => value };

const NUMERIC_OIDS = new Set([20, 21, 23, 26, 700, 701, 1700]);
const TIMESTAMP_OIDS = new Set([1114, 1184]);
const BOOL_OID = 16;

/** How COPY text of a type oid becomes JSON (the COPY fast path). */
function copyKind(oid: number): CopyColumnKind {
  if (NUMERIC_OIDS.has(oid)) return 'number';
  if (oid === BOOL_OID) return 'boolean';
  if (TIMESTAMP_OIDS.has(oid)) return 'timestamp';
  return 'text';
}

/** JSON token of one Postgres text value given its type oid. */
function textToJson(oid: number): (text: string) => string {
  if (NUMERIC_OIDS.has(oid)) return numberToken;
  if (oid === BOOL_OID) return (text) => (text === 't' ? 'true' : text === 'f' ? 'false' : 'null');
  if (TIMESTAMP_OIDS.has(oid)) return (text) => JSON.stringify(text.replace(' ', 'T'));
  return (text) => JSON.stringify(text);
}

function clientConfig(target: ConnectionTarget): ClientConfig {
  const uri = parseUri(target.uri);
  const database = target.catalog || uri.database || 'postgres';
  return {
    host: uri.host ?? uri.query.host ?? '127.0.0.1',
    port: uri.port ?? 5432,
    user: uri.username ?? undefined,
    password: uri.password ?? undefined,
    database,
    connectionTimeoutMillis: Number(uri.query.connect_timeout ?? 10) * 1000,
    application_name: 'meridian',
    types: TEXT_TYPES as ClientConfig['types'],
    ssl: uri.query.sslmode === 'require' ? { rejectUnauthorized: false } : undefined,
  };
}

async function openClient(target: ConnectionTarget): Promise<PgClient> {
  const pg = await driverModules.pg();
  const client = new pg.Client(clientConfig(target));
  // A dropped socket must not crash the worker thread.
  client.on('error', () => undefined);
  await client.connect();
  return client;
}

const GRAINS: Record<TimeGrain, string> = {
  PT1S: "DATE_TRUNC('second', {col})",
  PT5S: "DATE_TRUNC('minute', {col}) + INTERVAL '5 seconds' * FLOOR(EXTRACT(SECOND FROM {col}) / 5)",
  PT30S: "DATE_TRUNC('minute', {col}) + INTERVAL '30 seconds' * FLOOR(EXTRACT(SECOND FROM {col}) / 30)",
  PT1M: "DATE_TRUNC('minute', {col})",
  PT5M: "DATE_TRUNC('hour', {col}) + INTERVAL '5 minutes' * FLOOR(EXTRACT(MINUTE FROM {col}) / 5)",
  PT10M: "DATE_TRUNC('hour', {col}) + INTERVAL '10 minutes' * FLOOR(EXTRACT(MINUTE FROM {col}) / 10)",
  PT15M: "DATE_TRUNC('hour', {col}) + INTERVAL '15 minutes' * FLOOR(EXTRACT(MINUTE FROM {col}) / 15)",
  PT30M: "DATE_TRUNC('hour', {col}) + INTERVAL '30 minutes' * FLOOR(EXTRACT(MINUTE FROM {col}) / 30)",
  PT1H: "DATE_TRUNC('hour', {col})",
  PT6H: "DATE_TRUNC('day', {col}) + INTERVAL '6 hours' * FLOOR(EXTRACT(HOUR FROM {col}) / 6)",
  P1D: "DATE_TRUNC('day', {col})",
  P7D: "TIMESTAMP '1970-01-01' + INTERVAL '7 days' * FLOOR(EXTRACT(EPOCH FROM ({col}) - TIMESTAMP '1970-01-01') / 604800)",
  P1W: "DATE_TRUNC('week', {col})",
  P1M: "DATE_TRUNC('month', {col})",
  P3M: "DATE_TRUNC('quarter', {col})",
  P1Y: "DATE_TRUNC('year', {col})",
  '1969-12-28T00:00:00Z/P1W': "DATE_TRUNC('week', {col} + INTERVAL '1 day') - INTERVAL '1 day'",
  '1969-12-29T00:00:00Z/P1W': "DATE_TRUNC('week', {col})",
  'P1W/1970-01-03T00:00:00Z': "DATE_TRUNC('week', {col} + INTERVAL '1 day') + INTERVAL '5 days'",
  'P1W/1970-01-04T00:00:00Z': "DATE_TRUNC('week', {col}) + INTERVAL '6 days'",
};

const RULES: ErrorRule[] = [
  { regex: /role "(?<username>.*?)" does not exist/, message: 'The username "%(username)s" does not exist.', errorType: 'CONNECTION_INVALID_USERNAME_ERROR', extra: { invalid: ['username'] } },
  { regex: /password authentication failed for user "(?<username>.*?)"/, message: 'The password provided for username "%(username)s" is incorrect.', errorType: 'CONNECTION_INVALID_PASSWORD_ERROR', extra: { invalid: ['username', 'password'] } },
  { regex: /no password supplied|client password must be a string|SASL: SCRAM-SERVER-FIRST-MESSAGE: client password/, message: 'Please re-enter the password.', errorType: 'CONNECTION_ACCESS_DENIED_ERROR', extra: { invalid: ['password'] } },
  { regex: /database "(?<database>.*?)" does not exist/, message: 'Unable to connect to database "%(database)s".', errorType: 'CONNECTION_UNKNOWN_DATABASE_ERROR', extra: { invalid: ['database'] } },
  { regex: /syntax error at or near "(?<syntax_error>.*?)"/, message: 'Please check your query for syntax errors at or near "%(syntax_error)s". Then, try running your query again.', errorType: 'SYNTAX_ERROR' },
  { regex: /syntax error at end of input/, message: 'Please check your query for syntax errors at or near "end of input". Then, try running your query again.', errorType: 'SYNTAX_ERROR' },
  { regex: /column "(?<column_name>.+?)" does not exist(?:.*?LINE (?<location>\d+))?/s, message: 'We can\'t seem to resolve the column "%(column_name)s" at line %(location)s.', errorType: 'COLUMN_DOES_NOT_EXIST_ERROR' },
  { regex: /MERIDIAN_SCHEMA_MISSING "(?<schema>.+?)"/, message: 'The schema "%(schema)s" does not exist. A valid schema must be used to run this query.', errorType: 'SCHEMA_DOES_NOT_EXIST_ERROR' },
  { regex: /schema "(?<schema>.+?)" does not exist/, message: 'The schema "%(schema)s" does not exist. A valid schema must be used to run this query.', errorType: 'SCHEMA_DOES_NOT_EXIST_ERROR' },
  { regex: /relation "(?<table>.+?)" does not exist/, message: 'The table "%(table)s" does not exist. A valid table must be used to run this query.', errorType: 'TABLE_DOES_NOT_EXIST_ERROR' },
];

interface PgError {
  code?: string;
  message?: string;
  position?: string;
  address?: string;
  port?: number;
  hostname?: string;
  meridianSql?: string;
  meridianSchemaMissing?: string;
}

function mapPostgresError(error: unknown, _phase: 'connect' | 'query', target?: ConnectionTarget): SupersetError {
  const e = (error instanceof AggregateError ? error.errors[0] : error) as PgError;
  let host = '127.0.0.1';
  let port: number | string = 5432;
  try {
    const uri = target ? parseUri(target.uri) : null;
    host = uri?.host ?? host;
    port = uri?.port ?? port;
  } catch {
    // Bad URI: fall through with defaults.
  }
  if (e?.code === 'ECONNREFUSED') {
    return supersetError('CONNECTION_PORT_CLOSED_ERROR', `Port ${port} on hostname "${host}" refused the connection.`, ENGINE_NAME, { invalid: ['host', 'port'] });
  }
  if (e?.code === 'ENOTFOUND' || e?.code === 'EAI_AGAIN') {
    return supersetError('CONNECTION_INVALID_HOSTNAME_ERROR', `The hostname "${host}" cannot be resolved.`, ENGINE_NAME, { invalid: ['host'] });
  }
  if (e?.code === 'ETIMEDOUT' || e?.code === 'EHOSTUNREACH' || /timeout expired|Connection terminated due to connection timeout/.test(e?.message ?? '')) {
    return supersetError('CONNECTION_HOST_DOWN_ERROR', `The host "${host}" might be down, and can't be reached on port ${port}.`, ENGINE_NAME, { invalid: ['host', 'port'] });
  }
  const own = errorMessage(error);
  let message = own;
  // PostgreSQL gives a character position in the statement: its line marks the editor.
  const line = e?.position && e.meridianSql !== undefined ? e.meridianSql.slice(0, Number(e.position) - 1).split('\n').length : null;
  if (e?.meridianSchemaMissing) message = `MERIDIAN_SCHEMA_MISSING "${e.meridianSchemaMissing}"`;
  else if (e?.code === '42703' && line) message = `${message}\nLINE ${line}`;
  return mapByRules(RULES, message, ENGINE_NAME, { databaseMessage: own, line });
}

/** Python's `str(float)`, as Superset's `query_cost_formatter` prints costs. */
function pythonFloat(value: number): string {
  return Number.isInteger(value) ? value.toFixed(1) : String(value);
}

class PostgresConnection implements EngineConnection {
  readonly cancelId: string;

  constructor(private readonly client: PgClient, private readonly target: ConnectionTarget) {
    this.cancelId = String((client as unknown as { processID: number }).processID);
  }

  /** Runs a query, tagging errors with the SQL (for line numbers) and a missing schema of a qualified relation. */
  private async query(text: string, values?: unknown[], prefixLength = 0) {
    try {
      return await this.client.query({ text, values, rowMode: 'array' });
    } catch (error) {
      await this.tagError(error, text, prefixLength);
      throw error;
    }
  }

  /** `prefixLength`: characters Meridian added before the user's SQL (positions are reported against the user's SQL). */
  private async tagError(error: unknown, sql: string, prefixLength = 0): Promise<void> {
    const e = error as PgError;
    if (!e || typeof e !== 'object') return;
    e.meridianSql = sql.slice(prefixLength);
    if (e.position && prefixLength > 0) e.position = String(Math.max(1, Number(e.position) - prefixLength));
    const relation = e.code === '42P01' ? /relation "(.+?)\.(.+?)" does not exist/.exec(e.message ?? '') : null;
    if (relation) {
      try {
        const found = await this.client.query({ text: 'SELECT 1 FROM pg_namespace WHERE nspname = $1', values: [relation[1]] });
        if (found.rowCount === 0) e.meridianSchemaMissing = relation[1];
      } catch {
        // In an aborted transaction: keep the table error.
      }
    }
  }

  async execute(sql: string): Promise<void> {
    await this.query(sql);
  }

  /** Type names by oid for this database, loaded once per thread (a cursor holds the client, so no lookups mid-stream). */
  private async typeNames(): Promise<Map<number, string>> {
    const key = `${this.target.uri}|${this.target.catalog ?? ''}`;
    let names = TYPE_NAMES.get(key);
    if (!names) {
      const result = await this.client.query({ text: 'SELECT oid::int, upper(format_type(oid, NULL)) FROM pg_type', rowMode: 'array' });
      names = new Map((result.rows as string[][]).map(([oid, name]) => [Number(oid), name]));
      TYPE_NAMES.set(key, names);
    }
    return names;
  }

  private columnsOf(fields: FieldDef[], typeNames: Map<number, string>): ResultColumn[] {
    const names = dedupNames(fields.map((f) => f.name));
    return names.map((name, i) => resultColumn(name, typeNames.get(fields[i].dataTypeID) ?? 'UNKNOWN'));
  }

  /**
   * Streams a SELECT through `COPY (...) TO STDOUT` (text format), ~3x faster than decoding
   * rows with node-pg. Column types come from a `LIMIT 0` describe of the same statement.
   */
  async streamCopy(sql: string, sink: RowSink, maxRows: number | null): Promise<StreamSummary> {
    const typeNames = await this.typeNames();
    const describe = await this.query(`SELECT * FROM (\n${sql}\n) AS meridian_describe LIMIT 0`, undefined, 'SELECT * FROM (\n'.length);
    const columns = this.columnsOf(describe.fields, typeNames);
    sink.setColumns(columns);
    const transcoder = new CopyTextTranscoder(columns.map((c) => c.name), describe.fields.map((f) => copyKind(f.dataTypeID)));
    const { to } = await driverModules.pgCopyStreams();
    const copySql = `COPY (\n${sql}\n) TO STDOUT`;
    const stream = this.client.query(to(copySql));
    let rows = 0;
    let rest: Buffer | null = null;
    try {
      for await (const chunk of stream as AsyncIterable<Buffer>) {
        // Past maxRows the rest of the stream is drained unread.
        if (maxRows !== null && rows >= maxRows) continue;
        const buffer: Buffer = rest ? Buffer.concat([rest, chunk]) : chunk;
        let lineStart = 0;
        for (;;) {
          if (maxRows !== null && rows >= maxRows) break;
          const lineEnd = buffer.indexOf(10, lineStart);
          if (lineEnd < 0) break;
          const length = transcoder.transcode(buffer, lineStart, lineEnd);
          rows++;
          const pending = sink.pushBytes ? sink.pushBytes(transcoder.row, length) : sink.push(transcoder.row.toString('utf8', 0, length));
          if (pending) await pending;
          lineStart = lineEnd + 1;
        }
        rest = lineStart < buffer.length ? buffer.subarray(lineStart) : null;
      }
    } catch (error) {
      await this.tagError(error, copySql, 'COPY (\n'.length);
      throw error;
    }
    return { rows, hasResultSet: true };
  }

  /** `COPY <target> FROM STDIN [options]` (text format unless told): a stream taking the rows' lines; it finishes once the server took them all. */
  async copyFrom(target: string, options = ''): Promise<import('node:stream').Writable> {
    const { from } = await driverModules.pgCopyStreams();
    return this.client.query(from(`COPY ${target} FROM STDIN${options ? ` ${options}` : ''}`));
  }

  /** Streams any statement with pg-cursor (the fallback for non-SELECTs and several statements). */
  async stream(sql: string, sink: RowSink, maxRows: number | null, fast = false): Promise<StreamSummary> {
    if (fast) return this.streamCopy(sql, sink, maxRows);
    const Cursor = await driverModules.pgCursor();
    const typeNames = await this.typeNames();
    const cursor = this.client.query(new Cursor(sql, undefined, { rowMode: 'array', types: TEXT_TYPES }));
    let rows = 0;
    let columns: ResultColumn[] | null = null;
    let converters: ((text: string) => string)[] = [];
    let prefixes: string[] = [];
    try {
      for (;;) {
        const want = maxRows === null ? 2000 : Math.min(2000, maxRows - rows);
        if (want <= 0) break;
        const batch = await cursor.read(want);
        const fields = cursor._result.fields ?? [];
        if (!columns && fields.length > 0) {
          columns = this.columnsOf(fields, typeNames);
          sink.setColumns(columns);
          converters = fields.map((f) => textToJson(f.dataTypeID));
          prefixes = rowKeyPrefixes(columns.map((c) => c.name));
        }
        for (const row of batch) {
          const values = row.map((v, i) => (v === null ? 'null' : converters[i](v as string)));
          const pending = sink.push(rowJson(prefixes, values));
          if (pending) await pending;
          rows++;
        }
        if (batch.length < want) break;
      }
    } catch (error) {
      await cursor.close().catch(() => undefined);
      await this.tagError(error, sql);
      throw error;
    }
    await cursor.close().catch(() => undefined);
    return { rows, hasResultSet: columns !== null };
  }

  async cancel(): Promise<void> {
    await postgresSpec.cancelById(this.target, this.cancelId);
  }

  async listCatalogs(): Promise<string[]> {
    const result = await this.query('SELECT datname FROM pg_database WHERE NOT datistemplate ORDER BY datname');
    return result.rows.map((r) => r[0] as string);
  }

  async listSchemas(): Promise<string[]> {
    const result = await this.query("SELECT nspname FROM pg_namespace WHERE nspname NOT LIKE 'pg\\_%' ORDER BY nspname");
    return result.rows.map((r) => r[0] as string);
  }

  async listFunctions(): Promise<string[]> {
    const result = await this.query('SELECT DISTINCT proname FROM pg_catalog.pg_proc ORDER BY proname');
    return result.rows.map((r) => r[0] as string);
  }

  async listTables(schema: string | null): Promise<TableName[]> {
    const result = await this.query(
      `SELECT c.relname, c.relkind FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
       WHERE n.nspname = COALESCE($1, current_schema()) AND c.relkind IN ('r', 'p', 'f', 'v', 'm') ORDER BY c.relname`,
      [schema],
    );
    return result.rows.map((r) => ({ name: r[0] as string, type: r[1] === 'v' || r[1] === 'm' ? 'view' : 'table' }));
  }

  async tableMetadata(schema: string | null, table: string): Promise<TableMetadata> {
    const rel = await this.query(
      `SELECT c.oid::text, c.relkind, n.nspname, obj_description(c.oid, 'pg_class') FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
       WHERE n.nspname = COALESCE($1, current_schema()) AND c.relname = $2`,
      [schema, table],
    );
    if (rel.rows.length === 0) {
      const qualified = schema ? `${schema}.${table}` : table;
      throw Object.assign(new Error(`relation "${qualified}" does not exist`), { code: '42P01' });
    }
    const [oid, relkind, nspname, comment] = rel.rows[0] as string[];
    const cols = await this.query(
      `SELECT a.attname, upper(format_type(a.atttypid, a.atttypmod)), NOT a.attnotnull, pg_get_expr(d.adbin, d.adrelid), col_description(a.attrelid, a.attnum)
       FROM pg_attribute a LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
       WHERE a.attrelid = $1::oid AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum`,
      [oid],
    );
    const constraints = await this.query(
      `SELECT con.conname, con.contype,
              ARRAY(SELECT att.attname::text FROM unnest(con.conkey) WITH ORDINALITY k(n, i) JOIN pg_attribute att ON att.attrelid = con.conrelid AND att.attnum = k.n ORDER BY k.i),
              fn.nspname, fc.relname,
              ARRAY(SELECT att.attname::text FROM unnest(con.confkey) WITH ORDINALITY k(n, i) JOIN pg_attribute att ON att.attrelid = con.confrelid AND att.attnum = k.n ORDER BY k.i)
       FROM pg_constraint con LEFT JOIN pg_class fc ON fc.oid = con.confrelid LEFT JOIN pg_namespace fn ON fn.oid = fc.relnamespace
       WHERE con.conrelid = $1::oid AND con.contype IN ('p', 'f') ORDER BY con.conname`,
      [oid],
    );
    const indexes = await this.query(
      `SELECT ic.relname, i.indisunique,
              ARRAY(SELECT att.attname::text FROM unnest(i.indkey) WITH ORDINALITY k(n, o) JOIN pg_attribute att ON att.attrelid = i.indrelid AND att.attnum = k.n ORDER BY k.o)
       FROM pg_index i JOIN pg_class ic ON ic.oid = i.indexrelid WHERE i.indrelid = $1::oid AND NOT i.indisprimary ORDER BY ic.relname`,
      [oid],
    );
    const pgArray = (value: unknown): string[] => {
      const text = String(value ?? '{}');
      if (text === '{}') return [];
      return text.slice(1, -1).split(',').map((s) => s.replace(/^"(.*)"$/, '$1').replace(/\\(.)/g, '$1'));
    };
    const pk = constraints.rows.find((r) => r[1] === 'p');
    const pkColumns = pk ? pgArray(pk[2]) : [];
    const columns = cols.rows.map((r) => {
      const type = r[1] as string;
      const typeGeneric = genericTypeOf(type);
      return {
        name: r[0] as string, type, type_generic: typeGeneric, is_dttm: typeGeneric === 2, nullable: r[2] === 't',
        default: (r[3] as string | null) ?? null, comment: (r[4] as string | null) ?? null, primaryKey: pkColumns.includes(r[0] as string),
      };
    });
    return {
      name: table,
      schema: nspname,
      catalog: null,
      type: relkind === 'v' || relkind === 'm' ? 'view' : 'table',
      columns,
      primaryKey: pk ? { name: pk[0] as string, constrained_columns: pkColumns } : null,
      foreignKeys: constraints.rows.filter((r) => r[1] === 'f').map((r) => ({
        name: r[0] as string, constrained_columns: pgArray(r[2]), referred_schema: r[3] as string, referred_table: r[4] as string, referred_columns: pgArray(r[5]),
      })),
      indexes: indexes.rows.map((r) => ({ name: r[0] as string, unique: r[1] === 't', column_names: pgArray(r[2]) })),
      comment: comment ?? null,
      selectStar: selectStarSql(postgresSpec, schema, table, columns.map((c) => c.name)),
    };
  }

  async estimate(statement: string): Promise<Record<string, unknown>> {
    const result = await this.query(`EXPLAIN ${statement}`);
    const first = String(result.rows[0]?.[0] ?? '');
    const match = /cost=([\d.]+)\.\.([\d.]+)/.exec(first);
    if (!match) return {};
    return { 'Start-up cost': pythonFloat(Number(match[1])), 'Total cost': pythonFloat(Number(match[2])) };
  }

  async close(): Promise<void> {
    await this.client.end().catch(() => undefined);
  }
}

/** PostgreSQL engine spec (node-pg; COPY fast path for SELECTs). */
export const postgresSpec: EngineSpec & { connectRaw?: never } = {
  backend: 'postgresql',
  engineName: ENGINE_NAME,
  dialect: 'postgresql',
  supportsCatalog: true,
  cancelsInThread: true,
  timeGrainExpressions: GRAINS,
  epochToDttm: "(timestamp 'epoch' + {col} * interval '1 second')",
  quoteIdentifier: quoteDouble,
  async connect(target) {
    const client = await openClient(target);
    const connection = new PostgresConnection(client, target);
    if (target.schema) await client.query(`SET search_path TO ${quoteDouble(target.schema)}`);
    return connection;
  },
  async cancelById(target, cancelId) {
    const client = await openClient(target);
    try {
      const result = await client.query({ text: 'SELECT pg_cancel_backend($1::int)', values: [cancelId], rowMode: 'array' });
      return result.rows[0]?.[0] === 't';
    } finally {
      await client.end().catch(() => undefined);
    }
  },
  mapError: mapPostgresError,
};

/** Whether a connection supports the COPY fast path (Postgres only). */
export function isPostgresConnection(connection: EngineConnection): connection is PostgresConnection {
  return connection instanceof PostgresConnection;
}
