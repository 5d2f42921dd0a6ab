/**
 * Superset's "dynamic form" of a database connection: an engine and its parameters (host, port, database,
 * username, password, ...) instead of a SQLAlchemy URI. The URI is built from them on the server; the
 * client draws the fields from the same descriptions.
 */

/** The engines the connect form offers as tiles, in their order. */
export const CONNECT_ENGINES = ['postgresql', 'mysql', 'duckdb', 'sqlite'] as const;
export type ConnectEngine = (typeof CONNECT_ENGINES)[number];

/** What the form sends as `parameters` (Superset's BasicParametersSchema; `database` is a file path for DuckDB and SQLite). */
export interface DatabaseParameters {
  host?: string | null;
  port?: number | string | null;
  database?: string | null;
  username?: string | null;
  password?: string | null;
  query?: Record<string, string> | null;
  encryption?: boolean | null;
}

export type ParameterName = 'host' | 'port' | 'database' | 'username' | 'password' | 'query' | 'encryption';

export interface EngineForm {
  /** Superset's engine name, as the tiles show it. */
  name: string;
  /** The URI scheme (`engine` in Superset's answers). */
  engine: ConnectEngine;
  driver: string;
  /** Fields in the order the form shows them. */
  fields: ParameterName[];
  required: ParameterName[];
  defaultPort?: number;
  sqlalchemyUriPlaceholder: string;
}

export const ENGINE_FORMS: Record<ConnectEngine, EngineForm> = {
  postgresql: {
    name: 'PostgreSQL',
    engine: 'postgresql',
    driver: 'psycopg2',
    fields: ['host', 'port', 'database', 'username', 'password', 'query', 'encryption'],
    required: ['host', 'port', 'database', 'username'],
    defaultPort: 5432,
    sqlalchemyUriPlaceholder: 'postgresql://user:password@host:port/dbname[?key=value&key=value...]',
  },
  mysql: {
    name: 'MySQL',
    engine: 'mysql',
    driver: 'mysqldb',
    fields: ['host', 'port', 'database', 'username', 'password', 'query'],
    required: ['host', 'port', 'database', 'username'],
    defaultPort: 3306,
    sqlalchemyUriPlaceholder: 'mysql://user:password@host:port/dbname[?key=value&key=value...]',
  },
  duckdb: {
    name: 'DuckDB',
    engine: 'duckdb',
    driver: 'duckdb_engine',
    fields: ['database', 'query'],
    required: ['database'],
    sqlalchemyUriPlaceholder: 'duckdb:////path/to/duck.db',
  },
  sqlite: {
    name: 'SQLite',
    engine: 'sqlite',
    driver: 'pysqlite',
    fields: ['database'],
    required: ['database'],
    sqlalchemyUriPlaceholder: 'sqlite:////path/to/file.db',
  },
};

/** Superset's descriptions of the parameters (its JSON schema's `description`s), used as field labels' help. */
export const PARAMETER_DESCRIPTIONS: Record<ParameterName, string> = {
  host: 'Hostname or IP address',
  port: 'Database port',
  database: 'Database name',
  username: 'Username',
  password: 'Password',
  query: 'Additional parameters',
  encryption: 'Use an encrypted connection to the database',
};

/** The engine of a connect-form engine name or URI scheme (`mariadb` and `postgres` included), or null. */
export function connectEngineOf(name: string | null | undefined): ConnectEngine | null {
  const base = (name ?? '').split(/[+:]/)[0].toLowerCase();
  if (base === 'postgres' || base === 'postgresql') return 'postgresql';
  if (base === 'mysql' || base === 'mariadb') return 'mysql';
  if (base === 'duckdb' || base === 'sqlite') return base;
  return null;
}

const isBlank = (value: unknown) => value === undefined || value === null || (typeof value === 'string' && value.trim() === '');

/** The required parameters left empty, in the form's order (Superset: "One or more parameters are missing: ..."). */
export function missingParameters(engine: ConnectEngine, params: DatabaseParameters): ParameterName[] {
  return ENGINE_FORMS[engine].required.filter((name) => isBlank(params[name]));
}

/** Superset's message for missing parameters. */
export const missingParametersMessage = (missing: readonly string[]) => `One or more parameters are missing: ${missing.join(', ')}`;

/** The port as a number when it is a whole number between 0 and 65535, else the problem in Superset's words. */
export function portProblem(port: DatabaseParameters['port']): string | null {
  if (isBlank(port)) return null;
  const n = typeof port === 'number' ? port : /^\d+$/.test(String(port).trim()) ? Number(String(port).trim()) : NaN;
  if (!Number.isInteger(n)) return 'Port must be a valid integer.';
  if (n < 0 || n > 65535) return 'The port must be an integer between 0 and 65535 (inclusive).';
  return null;
}

/**
 * The SQLAlchemy URI of an engine's parameters: user and password percent-encoded, `encryption` as PostgreSQL's
 * `sslmode=require`, `query` appended. File engines put the path after `///` (an absolute path gives four slashes).
 *
 * @example buildSqlalchemyUri('postgresql', { host: 'db', port: 5432, database: 'sales', username: 'me', password: 'p@ss' })
 *          // 'postgresql://me:p%40ss@db:5432/sales'
 */
export function buildSqlalchemyUri(engine: ConnectEngine, params: DatabaseParameters): string {
  const query = new URLSearchParams(Object.entries(params.query ?? {}).filter(([k]) => k.trim() !== ''));
  if (engine === 'postgresql' && params.encryption) query.set('sslmode', 'require');
  const tail = query.size ? `?${query.toString()}` : '';
  if (engine === 'duckdb' || engine === 'sqlite') {
    const path = String(params.database ?? '').trim();
    return `${engine}:///${encodeURI(path)}${tail}`;
  }
  const user = isBlank(params.username) ? '' : encodeURIComponent(String(params.username).trim());
  const password = isBlank(params.password) ? '' : `:${encodeURIComponent(String(params.password))}`;
  const userinfo = user || password ? `${user}${password}@` : '';
  const rawHost = String(params.host ?? '').trim();
  const host = rawHost.includes(':') && !rawHost.startsWith('[') ? `[${rawHost}]` : rawHost;
  const port = isBlank(params.port) ? '' : `:${String(params.port).trim()}`;
  const database = isBlank(params.database) ? '' : `/${encodeURIComponent(String(params.database).trim())}`;
  return `${engine}://${userinfo}${host}${port}${database}${tail}`;
}
