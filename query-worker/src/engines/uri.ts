import type { Backend } from '../types.ts';

/** Parts of a SQLAlchemy-style URI. `database` is the path (a file path for DuckDB/SQLite). */
export interface ParsedUri {
  backend: Backend;
  /** Scheme as written, e.g. `mysql+pymysql`. */
  scheme: string;
  username: string | null;
  password: string | null;
  host: string | null;
  port: number | null;
  database: string | null;
  query: Record<string, string>;
}

const SCHEME_TO_BACKEND: Record<string, Backend> = {
  postgresql: 'postgresql',
  postgres: 'postgresql',
  mysql: 'mysql',
  mariadb: 'mysql',
  duckdb: 'duckdb',
  sqlite: 'sqlite',
};

/**
 * The backend of a URI (`postgresql+psycopg2://...` → `postgresql`) or of a backend name;
 * null when unknown.
 *
 * @example backendFromUri('mysql+pymysql://root@127.0.0.1/test') // 'mysql'
 */
export function backendFromUri(uriOrBackend: string): Backend | null {
  const scheme = uriOrBackend.includes(':') ? uriOrBackend.slice(0, uriOrBackend.indexOf(':')) : uriOrBackend;
  const base = scheme.split('+')[0].toLowerCase();
  return SCHEME_TO_BACKEND[base] ?? null;
}

/**
 * Parses a SQLAlchemy URI. File engines: `duckdb:////abs/path.duckdb` → database `/abs/path.duckdb`,
 * `duckdb:///:memory:` → `:memory:`, `sqlite:///relative.db` → `relative.db`.
 */
export function parseUri(uri: string): ParsedUri {
  const match = /^([A-Za-z0-9+._-]+):\/\/(.*)$/s.exec(uri.trim());
  if (!match) throw new Error(`Invalid SQLAlchemy URI: ${maskPassword(uri)}`);
  const scheme = match[1];
  const backend = backendFromUri(scheme);
  if (!backend) throw new Error(`No engine for the URI scheme "${scheme}"`);
  let rest = match[2];
  const query: Record<string, string> = {};
  const q = rest.indexOf('?');
  if (q >= 0) {
    for (const [k, v] of new URLSearchParams(rest.slice(q + 1))) query[k] = v;
    rest = rest.slice(0, q);
  }
  if (backend === 'duckdb' || backend === 'sqlite') {
    // `///path`: empty authority, then the path after the third slash.
    const slash = rest.indexOf('/');
    const path = slash >= 0 ? rest.slice(slash + 1) : '';
    return { backend, scheme, username: null, password: null, host: null, port: null, database: path === '' ? ':memory:' : decodeURIComponent(path), query };
  }
  const slash = rest.indexOf('/');
  const authority = slash >= 0 ? rest.slice(0, slash) : rest;
  const database = slash >= 0 ? decodeURIComponent(rest.slice(slash + 1)) || null : null;
  const at = authority.lastIndexOf('@');
  const userinfo = at >= 0 ? authority.slice(0, at) : null;
  const hostport = at >= 0 ? authority.slice(at + 1) : authority;
  let username: string | null = null;
  let password: string | null = null;
  if (userinfo !== null) {
    const colon = userinfo.indexOf(':');
    username = decodeURIComponent(colon >= 0 ? userinfo.slice(0, colon) : userinfo) || null;
    password = colon >= 0 ? decodeURIComponent(userinfo.slice(colon + 1)) : null;
  }
  let host: string | null = hostport;
  let port: number | null = null;
  const portMatch = /^(.*?)(?::(\d+))?$/.exec(hostport);
  if (portMatch) {
    host = portMatch[1] || null;
    port = portMatch[2] ? Number(portMatch[2]) : null;
  }
  if (host?.startsWith('[') && host.endsWith(']')) host = host.slice(1, -1);
  return { backend, scheme, username, password, host, port, database, query };
}

/**
 * The URI with its password replaced by `XXXXXXXXXX`, as Superset shows `sqlalchemy_uri`.
 *
 * @example maskPassword('postgresql://user:secret@host/db') // 'postgresql://user:XXXXXXXXXX@host/db'
 */
export function maskPassword(uri: string): string {
  return uri.replace(/^([A-Za-z0-9+._-]+:\/\/[^:/@?#]*):([^@/?#]*)@/, (_all, head: string) => `${head}:XXXXXXXXXX@`);
}
