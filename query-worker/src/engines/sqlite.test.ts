import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createResultsBackend, readRows, type ResultsBackend } from '../results/results-backend.ts';
import { tempDir, testPool } from '../testing/test-databases.ts';
import type { QueryPool } from '../pool.ts';
import type { QueryEvent, RunResult, TaskFailure } from '../types.ts';

let pool: QueryPool;
let backend: ResultsBackend;
let cleanup: () => Promise<void>;
let tmp: ReturnType<typeof tempDir>;
let uri: string;

beforeAll(() => {
  tmp = tempDir();
  const file = path.join(tmp.dir, 'app.db');
  const db = new Database(file);
  db.exec(`CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
           CREATE TABLE orders (id INTEGER PRIMARY KEY, customer_id INTEGER REFERENCES customers(id), amount REAL, created_at DATETIME);
           CREATE INDEX orders_customer ON orders (customer_id);
           INSERT INTO customers VALUES (1, 'Ada');
           INSERT INTO orders VALUES (1, 1, 2.5, '2024-01-02 03:04:05'), (2, 1, 3.5, NULL), (3, 1, 9007199254740993, NULL);`);
  db.close();
  uri = `sqlite:///${file}`;
  const made = testPool({}, 1);
  pool = made.pool;
  cleanup = made.cleanup;
  backend = createResultsBackend(made.results);
});

/** Statement running inside SQLite's VM for minutes without returning a row to JavaScript. */
const NATIVE_SLOW = 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 3000000000) SELECT count(*) AS n FROM c';

/** Resolves at the first progress event of a run (its statement has started). */
function startWatcher(): { onEvent: (event: QueryEvent) => void; started: Promise<void> } {
  let resolve!: () => void;
  const started = new Promise<void>((r) => {
    resolve = r;
  });
  return { onEvent: (event) => event.type === 'progress' && resolve(), started };
}

async function waitUntil(what: string, check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 600; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

afterAll(async () => {
  await cleanup?.();
  await backend?.close();
  tmp?.remove();
});

describe('SQLite', () => {
  it('runs with limits and exact integers', async () => {
    const result = await pool.run({ queryId: 's1', uri, sql: 'SELECT id, 9007199254740993 AS big FROM orders ORDER BY id', limit: 2 });
    if (!result.ok) throw new Error(result.message);
    expect(result).toMatchObject({ rowCount: 2, limitingFactor: 'DROPDOWN' });
    expect((await readRows(backend, result.resultsKey))!.json).toBe('[{"id":1,"big":9007199254740993},\n{"id":2,"big":9007199254740993}]');
  });

  it('maps errors', async () => {
    expect(((await pool.run({ queryId: 's2', uri, sql: 'SELEC 1' })) as TaskFailure).errorType).toBe('SYNTAX_ERROR');
    expect(((await pool.run({ queryId: 's3', uri, sql: 'SELECT nope FROM orders' })) as TaskFailure).errorType).toBe('COLUMN_DOES_NOT_EXIST_ERROR');
    expect(((await pool.run({ queryId: 's4', uri, sql: 'SELECT * FROM nope' })) as TaskFailure).errorType).toBe('TABLE_DOES_NOT_EXIST_ERROR');
    expect(((await pool.testConnection({ uri: `sqlite:///${tmp.dir}/missing.db` })) as TaskFailure).errorType).toBe('CONNECTION_UNKNOWN_DATABASE_ERROR');
  });

  it('refuses a writing PRAGMA when DML is off, and runs a reading one', async () => {
    const refused = (await pool.run({ queryId: 'pragma1', uri, sql: 'PRAGMA user_version = 5', allowDml: false })) as TaskFailure;
    expect(refused.errorType).toBe('DML_NOT_ALLOWED_ERROR');
    const read = await pool.run({ queryId: 'pragma2', uri, sql: 'PRAGMA user_version', allowDml: false });
    if (!read.ok) throw new Error(read.message);
    expect(read.rowsJson ?? (await readRows(backend, read.resultsKey))!.json).toBe('[{"user_version":0}]');
  });

  it('reads table metadata', async () => {
    const result = await pool.metadata({ uri, what: 'table', schema: 'main', table: 'orders' });
    if (!result.ok || result.what !== 'table') throw new Error(JSON.stringify(result));
    expect(result.table.columns.map((c) => [c.name, c.type, c.type_generic, c.is_dttm])).toEqual([['id', 'INTEGER', 0, false], ['customer_id', 'INTEGER', 0, false], ['amount', 'REAL', 0, false], ['created_at', 'DATETIME', 2, true]]);
    expect(result.table.primaryKey).toEqual({ name: null, constrained_columns: ['id'] });
    expect(result.table.foreignKeys).toEqual([{ name: null, constrained_columns: ['customer_id'], referred_schema: 'main', referred_table: 'customers', referred_columns: ['id'] }]);
    expect(result.table.indexes).toEqual([{ name: 'orders_customer', unique: false, column_names: ['customer_id'] }]);
  });

  it('stops a statement running inside SQLite, resolving stopped', async () => {
    const watcher = startWatcher();
    const running = pool.run({ queryId: 'stop1', uri, sql: NATIVE_SLOW }, { onEvent: watcher.onEvent });
    await watcher.started;
    expect(await pool.stop('stop1')).toBe(true);
    const result = (await running) as TaskFailure;
    expect(result).toMatchObject({ ok: false, status: 'stopped', errorType: 'GENERIC_DB_ENGINE_ERROR', message: 'The query was stopped.' });
    expect(result.errors[0].extra.engine_name).toBe('SQLite');
    expect(pool.isRunning('stop1')).toBe(false);
  });

  it('times out a statement running inside SQLite, resolving timed_out', async () => {
    const result = (await pool.run({ queryId: 'slow1', uri, sql: NATIVE_SLOW, timeoutMs: 500 })) as TaskFailure;
    expect(result).toMatchObject({
      ok: false,
      status: 'timed_out',
      errorType: 'SQLLAB_TIMEOUT_ERROR',
      message: 'The query was killed after 0.5 seconds. It might be too complex, or the database might be under heavy load.',
    });
  });

  it('deletes the pages a stopped query had written', async () => {
    const queryId = 'pages1';
    const running: Promise<RunResult> = pool.run({ queryId, uri, sql: 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT x FROM c', pageRows: 100 });
    await waitUntil('a page written', async () => (await backend.getPage(queryId, 1)) !== null);
    expect(await pool.stop(queryId)).toBe(true);
    expect(await running).toMatchObject({ ok: false, status: 'stopped' });
    expect(await backend.getPage(queryId, 0)).toBeNull();
    expect(await backend.getMeta(queryId)).toBeNull();
  });

  it('still runs queries after stopping some', async () => {
    const result = await pool.run({ queryId: 'after1', uri, sql: 'SELECT count(*) AS n FROM orders' });
    if (!result.ok) throw new Error(result.message);
    expect((await readRows(backend, result.resultsKey))!.json).toBe('[{"n":3}]');
  });
});
