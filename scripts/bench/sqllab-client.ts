import { okBody as body } from './util';

/** The SQL Lab REST calls the query bench makes, shared by its timed runs and its load generator. */
export interface SqlLabTarget {
  url: string;
  headers: Record<string, string>;
  databaseId: number;
  sql: string;
  /** queryLimit of each execute (the table's row count: the result is never limited). */
  rows: number;
  /** Rows per results call. */
  page: number;
}

const ROW_START = Buffer.from('{"id":');

/** Rows in a results body, counted without decoding or parsing it: every row of `wide` is an object that starts with its id. */
export function countRows(bytes: Buffer): number {
  let n = 0;
  for (let i = bytes.indexOf(ROW_START); i >= 0; i = bytes.indexOf(ROW_START, i + ROW_START.length)) n++;
  return n;
}

/** `GET /api/v1/sqllab/results/` for `page` rows from `offset`: the body's bytes. */
export async function fetchPage(target: SqlLabTarget, key: string, offset: number): Promise<Buffer> {
  return body(await fetch(`${target.url}/api/v1/sqllab/results/?q=(key:'${key}',offset:${offset},rows:${target.page})`, { headers: target.headers }));
}

/** Execute (sync), then every results page after the rows execute returned; resolves with the results key and the rows received. */
export async function executeAndFetchAll(target: SqlLabTarget, clientId: string): Promise<{ key: string; fetched: number }> {
  const res = JSON.parse(
    (await body(await fetch(`${target.url}/api/v1/sqllab/execute/`, { method: 'POST', headers: target.headers, body: JSON.stringify({ client_id: clientId, database_id: target.databaseId, sql: target.sql, queryLimit: target.rows, runAsync: false }) }))).toString(),
  );
  if (res.status !== 'success' || res.query.limitingFactor !== 'NOT_LIMITED') throw new Error(`execute: status ${res.status}, limitingFactor ${res.query.limitingFactor}`);
  const key: string = res.query.resultsKey;
  const total: number = res.query.rows;
  let fetched: number = res.data.length;
  while (fetched < total) {
    const n = countRows(await fetchPage(target, key, fetched));
    if (n === 0) throw new Error(`empty page at offset ${fetched}`);
    fetched += n;
  }
  return { key, fetched };
}
