import type { ConnectEngine, DatabaseParameters, ParameterName } from '@meridian/contracts/rules/database-parameters';
import type { DatabaseView } from '@meridian/contracts/schemas/database';
import type { DatabaseFlag } from './database-flags';

/** Everything the connect modal edits: the name, the connection (URI or parameters) and the advanced settings. */
export type Fields = {
  database_name: string;
  sqlalchemy_uri: string;
  host: string;
  port: string;
  database: string;
  username: string;
  password: string;
  /** Additional parameters as `key=value&key2=value2`. */
  query: string;
  encryption: boolean;
  impersonate_user: boolean;
  cache_timeout: number | '';
  force_ctas_schema: string;
  extra: string;
} & Record<DatabaseFlag, boolean>;

export const emptyFields: Fields = {
  database_name: '',
  sqlalchemy_uri: '',
  host: '',
  port: '',
  database: '',
  username: '',
  password: '',
  query: '',
  encryption: false,
  impersonate_user: false,
  cache_timeout: '',
  force_ctas_schema: '',
  extra: '{}',
  expose_in_sqllab: true,
  allow_run_async: false,
  allow_dml: false,
  allow_ctas: false,
  allow_cvas: false,
  allow_file_upload: false,
};

function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text || '{}'), null, 2);
  } catch {
    return text;
  }
}

/** The modal's fields of a stored database (password masked, as the server gives it). */
export function fieldsOf(db: DatabaseView): Fields {
  const p = db.parameters ?? {};
  return {
    database_name: db.database_name,
    sqlalchemy_uri: db.sqlalchemy_uri,
    host: p.host ?? '',
    port: p.port === null || p.port === undefined ? '' : String(p.port),
    database: p.database ?? '',
    username: p.username ?? '',
    password: p.password ?? '',
    query: new URLSearchParams(p.query ?? {}).toString(),
    encryption: Boolean(p.encryption),
    impersonate_user: db.impersonate_user,
    cache_timeout: db.cache_timeout ?? '',
    force_ctas_schema: db.force_ctas_schema ?? '',
    extra: prettyJson(db.extra),
    expose_in_sqllab: db.expose_in_sqllab,
    allow_run_async: db.allow_run_async,
    allow_dml: db.allow_dml,
    allow_ctas: db.allow_ctas,
    allow_cvas: db.allow_cvas,
    allow_file_upload: db.allow_file_upload,
  };
}

/** The `parameters` the server builds the URI from, for the fields an engine takes. */
export function parametersOf(engine: ConnectEngine, fields: Fields, names: readonly ParameterName[]): DatabaseParameters {
  const out: DatabaseParameters = {};
  for (const name of names) {
    if (name === 'query') out.query = Object.fromEntries(new URLSearchParams(fields.query.trim()));
    else if (name === 'encryption') out.encryption = fields.encryption;
    else if (name === 'port') out.port = fields.port.trim() === '' ? null : /^\d+$/.test(fields.port.trim()) ? Number(fields.port.trim()) : fields.port.trim();
    else if (name === 'password') out.password = fields.password;
    else out[name] = fields[name].trim();
  }
  if (engine === 'duckdb' || engine === 'sqlite') delete out.encryption;
  return out;
}

/** The extra JSON as an object, or null when it is not a JSON object. */
export function parseExtra(text: string): Record<string, unknown> | null {
  if (!text.trim()) return {};
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** Whether a URI carries a password (only then is the "shown masked" hint true: a DuckDB file path has none). */
export const uriHasPassword = (uri: string) => /^[A-Za-z0-9+._-]+:\/\/[^/@?#]*:[^@/?#]*@/.test(uri.trim());
