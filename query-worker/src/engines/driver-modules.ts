/**
 * Each driver module, imported on first use and then held: drivers stay optional to load (a thread
 * that never touches MySQL never loads mysql2), while the per-query cost stays nil. A bare
 * `await import()` per connection is not free: under the tsx loader every call walks the resolve
 * hooks again, about 3 ms each, which showed in every chart data request.
 *
 * @example const { DuckDBInstance } = await driverModules.duckdb();
 */
function once<T>(load: () => Promise<T>): () => Promise<T> {
  let loaded: Promise<T> | null = null;
  return () => {
    loaded ??= load();
    // A failed load (an optional driver not installed) is tried again next time.
    loaded.catch(() => (loaded = null));
    return loaded;
  };
}

export const driverModules = {
  duckdb: once(() => import('@duckdb/node-api')),
  pg: once(async () => (await import('pg')).default),
  pgCopyStreams: once(() => import('pg-copy-streams')),
  pgCursor: once(async () => (await import('pg-cursor')).default),
  mysql: once(async () => (await import('mysql2')).default),
  betterSqlite: once(async () => (await import('better-sqlite3')).default),
};
