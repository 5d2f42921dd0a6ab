import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createResultsBackend, readRows, type ResultsBackend } from '../results/results-backend.ts';
import { tempDir, testPool, failed, ok } from '../testing/test-databases.ts';
import type { QueryPool } from '../pool.ts';
import type { RunResult, RunSuccess, TaskFailure } from '../types.ts';

let pool: QueryPool;
let backend: ResultsBackend;
let cleanup: () => Promise<void>;
let tmp: ReturnType<typeof tempDir>;
let uri: string;
let n = 0;
const qid = () => `duck${++n}`;


beforeAll(async () => {
  tmp = tempDir();
  uri = `duckdb:///${path.join(tmp.dir, 'analytics.duckdb')}`;
  const made = testPool({}, 2);
  pool = made.pool;
  cleanup = made.cleanup;
  backend = createResultsBackend(made.results);
  ok(await pool.run({
    queryId: 'setup', uri,
    sql: `CREATE TABLE customers (id INTEGER PRIMARY KEY, name VARCHAR NOT NULL);
          CREATE TABLE orders (id BIGINT PRIMARY KEY, customer_id INTEGER REFERENCES customers (id), amount DECIMAL(10,2), ts TIMESTAMP);
          INSERT INTO customers VALUES (1, 'Ada'), (2, 'Grace');
          INSERT INTO orders SELECT i, 1 + i % 2, i * 1.5, TIMESTAMP '2024-01-01' + i * INTERVAL 1 HOUR FROM range(1, 301) t(i);
          CREATE VIEW big_orders AS SELECT * FROM orders WHERE amount > 100;
          SELECT 1`,
  }));
});

afterAll(async () => {
  await cleanup?.();
  await backend?.close();
  tmp?.remove();
});

describe('DuckDB run', () => {
  it('returns rows with exact BIGINT / HUGEINT and decimals', async () => {
    const result = ok(await pool.run({ queryId: qid(), uri, limit: 10, sql: "SELECT 9007199254740993::BIGINT AS big, 170141183460469231731687303715884105727::HUGEINT AS huge, 2.50::DECIMAL(10,2) AS d, NULL AS n, TIMESTAMP '2024-01-02 03:04:05' AS t" }));
    expect((await readRows(backend, result.resultsKey))!.json).toBe('[{"big":9007199254740993,"huge":170141183460469231731687303715884105727,"d":2.50,"n":null,"t":"2024-01-02T03:04:05"}]');
    expect(result.columns.map((c) => [c.type, c.type_generic, c.is_dttm])).toEqual([['BIGINT', 0, false], ['HUGEINT', 0, false], ['DECIMAL(10,2)', 0, false], ['INTEGER', 0, false], ['TIMESTAMP', 2, true]]);
  });

  it('limits, runs statements in order, and shares the file between threads', async () => {
    expect(ok(await pool.run({ queryId: qid(), uri, sql: 'SELECT * FROM orders', limit: 25 }))).toMatchObject({ rowCount: 25, limitingFactor: 'DROPDOWN' });
    const seq = ok(await pool.run({ queryId: qid(), uri, limit: 10, sql: 'CREATE TEMP TABLE s (n INT); INSERT INTO s VALUES (1), (2); SELECT sum(n) AS total FROM s' }));
    expect(JSON.parse((await readRows(backend, seq.resultsKey))!.json)).toEqual([{ total: 3 }]);
    const both = await Promise.all([1, 2, 3].map(() => pool.run({ queryId: qid(), uri, sql: 'SELECT count(*) AS c FROM orders' })));
    for (const r of both) expect(JSON.parse((await readRows(backend, ok(r).resultsKey))!.json)).toEqual([{ c: 300 }]);
  });

  it('creates a table as select', async () => {
    ok(await pool.run({ queryId: qid(), uri, sql: 'SELECT id FROM orders WHERE id < 6', ctas: { method: 'TABLE', tableName: 'tmp_ids', schema: 'main' } }));
    const count = ok(await pool.run({ queryId: qid(), uri, sql: 'SELECT count(*) AS c FROM main.tmp_ids' }));
    expect(JSON.parse((await readRows(backend, count.resultsKey))!.json)).toEqual([{ c: 5 }]);
  });

  it('stops a long cross join with interrupt()', async () => {
    const queryId = qid();
    const started = Date.now();
    const running = pool.run({ queryId, uri, sql: 'SELECT count(*) FROM range(100000000) a, range(100000) b WHERE a.range + b.range = -1' });
    await new Promise((r) => setTimeout(r, 700));
    expect(await pool.stop(queryId)).toBe(true);
    expect(failed(await running).status).toBe('stopped');
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('times out', async () => {
    const result = failed(await pool.run({ queryId: qid(), uri, sql: 'SELECT count(*) FROM range(100000000) a, range(100000) b WHERE a.range + b.range = -1', timeoutMs: 500 }));
    expect(result).toMatchObject({ status: 'timed_out', errorType: 'SQLLAB_TIMEOUT_ERROR' });
  });

  it('maps errors', async () => {
    const run = async (sql: string) => failed(await pool.run({ queryId: qid(), uri, sql }));
    expect((await run('SELEC 1')).errorType).toBe('SYNTAX_ERROR');
    expect(await run('SELECT nope FROM orders')).toMatchObject({ errorType: 'COLUMN_DOES_NOT_EXIST_ERROR', message: 'We can\'t seem to resolve the column "nope".' });
    expect(await run('SELECT * FROM nope')).toMatchObject({ errorType: 'TABLE_DOES_NOT_EXIST_ERROR', message: 'The table "nope" does not exist. A valid table must be used to run this query.' });
    expect(await run('SELECT * FROM noschema.orders')).toMatchObject({ errorType: 'SCHEMA_DOES_NOT_EXIST_ERROR', message: 'The schema "noschema" does not exist. A valid schema must be used to run this query.' });
    expect((await pool.run({ queryId: qid(), uri, schema: 'noschema', sql: 'SELECT 1' }) as TaskFailure).errorType).toBe('SCHEMA_DOES_NOT_EXIST_ERROR');
  });

  it('reads metadata', async () => {
    const tables = await pool.metadata({ uri, what: 'tables', schema: 'main' });
    expect(tables.ok && tables.what === 'tables' && tables.tables).toEqual(expect.arrayContaining([{ name: 'orders', type: 'table' }, { name: 'big_orders', type: 'view' }]));
    const catalogs = await pool.metadata({ uri, what: 'catalogs' });
    expect(catalogs.ok && catalogs.what === 'catalogs' && catalogs.catalogs).toEqual(['analytics']);
    const result = await pool.metadata({ uri, what: 'table', schema: 'main', table: 'orders' });
    if (!result.ok || result.what !== 'table') throw new Error(JSON.stringify(result));
    expect(result.table.columns.map((c) => [c.name, c.type, c.type_generic, c.is_dttm, c.primaryKey])).toEqual([
      ['id', 'BIGINT', 0, false, true], ['customer_id', 'INTEGER', 0, false, false], ['amount', 'DECIMAL(10,2)', 0, false, false], ['ts', 'TIMESTAMP', 2, true, false],
    ]);
    expect(result.table.foreignKeys[0]).toMatchObject({ constrained_columns: ['customer_id'], referred_table: 'customers', referred_columns: ['id'] });
    const estimate = await pool.estimate({ uri, sql: 'SELECT * FROM orders' });
    expect(estimate.ok && estimate.cost[0]).toHaveProperty('Estimated rows');
  });
});
