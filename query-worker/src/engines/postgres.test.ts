import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { createResultsBackend, readRows, type ResultsBackend } from '../results/results-backend.ts';
import { cancelIdWatcher, createPostgresDatabase, testPool, failed, ok } from '../testing/test-databases.ts';
import type { QueryPool } from '../pool.ts';
import type { RunResult, RunSuccess, TaskFailure } from '../types.ts';

let db: Awaited<ReturnType<typeof createPostgresDatabase>>;
let pool: QueryPool;
let backend: ResultsBackend;
let cleanup: () => Promise<void>;
let n = 0;
const qid = () => `pg${++n}_${Date.now().toString(36)}`;

async function rows(result: RunSuccess): Promise<unknown[]> {
  return JSON.parse((await readRows(backend, result.resultsKey))!.json);
}

beforeAll(async () => {
  db = await createPostgresDatabase();
  const made = testPool();
  pool = made.pool;
  cleanup = made.cleanup;
  backend = createResultsBackend(made.results);
  await db.admin.end();
  db.admin = new pg.Client({ connectionString: db.uri });
  await db.admin.connect();
  await db.admin.query(`
    CREATE TABLE customers (id int PRIMARY KEY, name varchar(40) NOT NULL, created_at timestamp);
    CREATE TABLE orders (id bigint PRIMARY KEY, customer_id int REFERENCES customers(id), amount numeric(10,2), paid boolean);
    CREATE INDEX orders_customer ON orders (customer_id);
    CREATE VIEW big_orders AS SELECT * FROM orders WHERE amount > 100;
    INSERT INTO customers VALUES (1, 'Ada', '2024-01-02 03:04:05'), (2, 'Grace', NULL);
    INSERT INTO orders SELECT g, 1 + g % 2, g * 1.5, g % 2 = 0 FROM generate_series(1, 500) g;
  `);
  // The drop at the end needs the admin connection on the maintenance database.
  const adminEnd = db.drop;
  db.drop = async () => {
    await db.admin.end();
    const admin = new pg.Client({ connectionString: db.uri.replace(/\/[^/]*$/, '/test') });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${db.name} WITH (FORCE)`);
    await admin.end();
    void adminEnd;
  };
});

afterAll(async () => {
  await cleanup?.();
  await backend?.close();
  await db?.drop();
});

describe('PostgreSQL run', () => {
  it('returns rows as objects with types, NULLs, escapes and exact big integers', async () => {
    const result = ok(await pool.run({
      queryId: qid(), uri: db.uri, limit: 100,
      sql: "SELECT 9007199254740993::bigint AS big, E'tab\\there\\nline \\\\ back' AS s, 2.50::numeric AS n, true AS b, NULL::text AS x, TIMESTAMP '2024-01-02 03:04:05' AS t",
    }));
    expect(result.columns.map((c) => [c.name, c.type, c.type_generic, c.is_dttm])).toEqual([
      ['big', 'BIGINT', 0, false], ['s', 'TEXT', 1, false], ['n', 'NUMERIC', 0, false], ['b', 'BOOLEAN', 3, false], ['x', 'TEXT', 1, false], ['t', 'TIMESTAMP WITHOUT TIME ZONE', 2, true],
    ]);
    const slice = await readRows(backend, result.resultsKey);
    expect(slice!.json).toContain('"big":9007199254740993');
    expect(JSON.parse(slice!.json)).toEqual([{ big: 9007199254740993, s: 'tab\there\nline \\ back', n: 2.5, b: true, x: null, t: '2024-01-02T03:04:05' }]);
  });

  it('keeps quotes, control characters, UTF-8, NaN and Infinity, time zones and odd column names through COPY', async () => {
    const result = ok(await pool.run({
      queryId: qid(), uri: db.uri, limit: 100,
      sql: `SELECT 'say "hi"' AS q, chr(1) || E'\\\\' || chr(9) AS ctl, 'Zürich 東京 🚀' AS utf8, ''::text AS empty, 'NaN'::float8 AS nan, '-Infinity'::float8 AS inf,
              'NaN'::numeric AS nnan, TIMESTAMPTZ '2024-01-02 03:04:05.5+00' AT TIME ZONE 'UTC' AS ts, 1 AS "we""ird"`,
    }));
    expect(JSON.parse((await readRows(backend, result.resultsKey))!.json)).toEqual([
      { q: 'say "hi"', ctl: '\x01\\\t', utf8: 'Zürich 東京 🚀', empty: '', nan: null, inf: null, nnan: null, ts: '2024-01-02T03:04:05.5', 'we"ird': 1 },
    ]);
  });

  it('applies the dropdown limit and reports the limiting factor', async () => {
    const dropdown = ok(await pool.run({ queryId: qid(), uri: db.uri, sql: 'SELECT id FROM orders ORDER BY id', limit: 10 }));
    expect(dropdown).toMatchObject({ rowCount: 10, hasMoreRows: true, limit: 10, limitingFactor: 'DROPDOWN' });
    expect(dropdown.executedSql).toBe('SELECT id FROM orders ORDER BY id\nLIMIT 11');
    const query = ok(await pool.run({ queryId: qid(), uri: db.uri, sql: 'SELECT id FROM orders ORDER BY id LIMIT 5', limit: 10 }));
    expect(query).toMatchObject({ rowCount: 5, sqlLimit: 5, limit: 5, limitingFactor: 'QUERY' });
    const both = ok(await pool.run({ queryId: qid(), uri: db.uri, sql: 'SELECT id FROM orders LIMIT 10', limit: 10 }));
    expect(both.limitingFactor).toBe('QUERY_AND_DROPDOWN');
    const none = ok(await pool.run({ queryId: qid(), uri: db.uri, sql: 'SELECT id FROM customers', limit: 10 }));
    expect(none).toMatchObject({ rowCount: 2, limitingFactor: 'NOT_LIMITED' });
  });

  it('runs several statements in order in one session and returns the last result', async () => {
    const result = ok(await pool.run({
      queryId: qid(), uri: db.uri, limit: 100,
      sql: "CREATE TEMP TABLE steps (n int); INSERT INTO steps VALUES (1); INSERT INTO steps VALUES (2); SELECT string_agg(n::text, ',' ORDER BY n) AS seq FROM steps;",
    }));
    expect(result.statementCount).toBe(4);
    expect(await rows(result)).toEqual([{ seq: '1,2' }]);
  });

  it('creates a table from a SELECT (CTAS) and a view (CVAS)', async () => {
    const ctas = ok(await pool.run({ queryId: qid(), uri: db.uri, sql: 'SELECT id, amount FROM orders WHERE id <= 3', limit: 1000, ctas: { method: 'TABLE', tableName: 'tmp_orders', schema: 'public' } }));
    expect(ctas.tempTable).toBe('public.tmp_orders');
    expect(ctas.executedSql).toContain('CREATE TABLE "public"."tmp_orders" AS');
    const count = await db.admin.query('SELECT count(*)::int AS c FROM public.tmp_orders');
    expect(count.rows[0].c).toBe(3);
    ok(await pool.run({ queryId: qid(), uri: db.uri, sql: 'SELECT 1 AS one', ctas: { method: 'VIEW', tableName: 'tmp_view' } }));
    expect((await db.admin.query('SELECT one FROM tmp_view')).rows).toEqual([{ one: 1 }]);
  });

  it('refuses DML when the database does not allow it', async () => {
    const result = failed(await pool.run({ queryId: qid(), uri: db.uri, sql: 'DELETE FROM orders', allowDml: false }));
    expect(result.errorType).toBe('DML_NOT_ALLOWED_ERROR');
    expect((await db.admin.query('SELECT count(*)::int AS c FROM orders')).rows[0].c).toBe(500);
  });

  it('refuses DO blocks, CALL and EXECUTE when the database does not allow DML, leaving the table as it was', async () => {
    await db.admin.query('CREATE PROCEDURE wipe_orders() LANGUAGE sql AS $$ DELETE FROM orders $$');
    for (const sql of ['DO $$BEGIN DELETE FROM orders; END$$', 'CALL wipe_orders()', 'PREPARE wipe AS DELETE FROM orders; EXECUTE wipe', 'WITH x AS (SELECT 1) DELETE FROM orders', 'EXPLAIN ANALYZE DELETE FROM orders']) {
      const result = failed(await pool.run({ queryId: qid(), uri: db.uri, sql, allowDml: false }));
      expect([sql, result.errorType]).toEqual([sql, 'DML_NOT_ALLOWED_ERROR']);
    }
    expect((await db.admin.query('SELECT count(*)::int AS c FROM orders')).rows[0].c).toBe(500);
    // Reads and session settings still run.
    const read = ok(await pool.run({ queryId: qid(), uri: db.uri, sql: 'SET search_path = public; EXPLAIN SELECT 1', allowDml: false }));
    expect(read.rowCount).toBeGreaterThan(0);
    await db.admin.query('DROP PROCEDURE wipe_orders()');
  });

  it('stops a running query on the database', async () => {
    const watcher = cancelIdWatcher();
    const queryId = qid();
    const started = Date.now();
    const running = pool.run({ queryId, uri: db.uri, sql: 'SELECT pg_sleep(30)', limit: 10 }, { onEvent: watcher.onEvent });
    const pid = Number(await watcher.cancelId);
    // Wait until the statement is really active on the server.
    for (let i = 0; i < 50; i++) {
      const active = await db.admin.query("SELECT 1 FROM pg_stat_activity WHERE pid = $1 AND state = 'active'", [pid]);
      if (active.rowCount) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(await pool.stop(queryId)).toBe(true);
    const result = failed(await running);
    expect(result.status).toBe('stopped');
    expect(Date.now() - started).toBeLessThan(15_000);
    const after = await db.admin.query("SELECT state FROM pg_stat_activity WHERE pid = $1 AND state = 'active'", [pid]);
    expect(after.rowCount).toBe(0);
  });

  it('times out: cancels on the database and returns timed_out', async () => {
    const watcher = cancelIdWatcher();
    const result = failed(await pool.run({ queryId: qid(), uri: db.uri, sql: 'SELECT pg_sleep(30)', timeoutMs: 800 }, { onEvent: watcher.onEvent }));
    expect(result).toMatchObject({ status: 'timed_out', errorType: 'SQLLAB_TIMEOUT_ERROR' });
    expect(result.message).toMatch(/killed after 0.8 seconds/);
    const pid = Number(await watcher.cancelId);
    expect((await db.admin.query("SELECT 1 FROM pg_stat_activity WHERE pid = $1 AND state = 'active'", [pid])).rowCount).toBe(0);
  });
});

describe('PostgreSQL errors', () => {
  const run = async (sql: string, uri = db.uri) => failed(await pool.run({ queryId: qid(), uri, sql, limit: 10 }));

  it('maps a syntax error', async () => {
    const e = await run('SELEC 1');
    expect(e.errorType).toBe('SYNTAX_ERROR');
    expect(e.message).toBe('Please check your query for syntax errors at or near "SELEC". Then, try running your query again.');
    expect(e.errors[0]).toMatchObject({ level: 'error', extra: { engine_name: 'PostgreSQL', issue_codes: [{ code: 1030 }] } });
  });

  it('maps a missing column with its line', async () => {
    const e = await run('SELECT id,\n  nope FROM orders');
    expect(e.errorType).toBe('COLUMN_DOES_NOT_EXIST_ERROR');
    expect(e.message).toBe('We can\'t seem to resolve the column "nope" at line 2.');
  });

  it("keeps PostgreSQL's own message and the line of its position, counted in the SQL as submitted", async () => {
    const e = await run('SELECT 1;\nSELECT id,\n  nope\nFROM orders');
    expect(e.errors[0].extra).toMatchObject({ database_message: 'column "nope" does not exist', line: 3 });
    const syntax = await run('SELECT 1\nFORM orders');
    // ('FORM' reads as an alias of 1: PostgreSQL stops at 'orders'.)
    expect(syntax.errors[0].extra).toMatchObject({ database_message: 'syntax error at or near "orders"', line: 2 });
  });

  it('maps a missing table and a missing schema', async () => {
    expect((await run('SELECT * FROM nope')).errorType).toBe('TABLE_DOES_NOT_EXIST_ERROR');
    const schema = await run('SELECT * FROM noschema.orders');
    expect(schema.errorType).toBe('SCHEMA_DOES_NOT_EXIST_ERROR');
    expect(schema.message).toBe('The schema "noschema" does not exist. A valid schema must be used to run this query.');
  });

  it('maps connection errors: unknown database, unknown user, closed port, bad host', async () => {
    const unknownDb = failed(await pool.testConnection({ uri: 'postgresql://postgres@127.0.0.1:5432/meridian_no_such_db' }));
    expect(unknownDb).toMatchObject({ errorType: 'CONNECTION_UNKNOWN_DATABASE_ERROR', message: 'Unable to connect to database "meridian_no_such_db".' });
    const user = failed(await pool.testConnection({ uri: 'postgresql://meridian_no_such_role:pw@127.0.0.1:5432/test' }));
    expect(user.errorType).toBe('CONNECTION_INVALID_USERNAME_ERROR');
    const port = failed(await pool.testConnection({ uri: 'postgresql://postgres@127.0.0.1:1/test' }));
    expect(port).toMatchObject({ errorType: 'CONNECTION_PORT_CLOSED_ERROR', message: 'Port 1 on hostname "127.0.0.1" refused the connection.' });
    const host = failed(await pool.testConnection({ uri: 'postgresql://postgres@no-such-host.invalid:5432/test' }));
    expect(host.errorType).toBe('CONNECTION_INVALID_HOSTNAME_ERROR');
    expect(await pool.testConnection({ uri: db.uri })).toEqual({ ok: true });
  });
});

describe('PostgreSQL metadata and estimate', () => {
  it('lists catalogs, schemas, tables and views', async () => {
    const catalogs = await pool.metadata({ uri: db.uri, what: 'catalogs' });
    expect(catalogs.ok && catalogs.what === 'catalogs' && catalogs.catalogs).toContain(db.name);
    const schemas = await pool.metadata({ uri: db.uri, what: 'schemas' });
    expect(schemas.ok && schemas.what === 'schemas' && schemas.schemas).toContain('public');
    const tables = await pool.metadata({ uri: db.uri, what: 'tables', schema: 'public' });
    expect(tables.ok && tables.what === 'tables' && tables.tables).toEqual(expect.arrayContaining([{ name: 'orders', type: 'table' }, { name: 'big_orders', type: 'view' }]));
  });

  it('describes a table: columns, keys, indexes, selectStar', async () => {
    const result = await pool.metadata({ uri: db.uri, what: 'table', schema: 'public', table: 'orders' });
    if (!result.ok || result.what !== 'table') throw new Error(JSON.stringify(result));
    const table = result.table;
    expect(table.columns.map((c) => [c.name, c.type, c.type_generic, c.nullable, c.primaryKey])).toEqual([
      ['id', 'BIGINT', 0, false, true], ['customer_id', 'INTEGER', 0, true, false], ['amount', 'NUMERIC(10,2)', 0, true, false], ['paid', 'BOOLEAN', 3, true, false],
    ]);
    expect(table.primaryKey).toEqual({ name: 'orders_pkey', constrained_columns: ['id'] });
    expect(table.foreignKeys).toEqual([{ name: 'orders_customer_id_fkey', constrained_columns: ['customer_id'], referred_schema: 'public', referred_table: 'customers', referred_columns: ['id'] }]);
    expect(table.indexes).toEqual([{ name: 'orders_customer', unique: false, column_names: ['customer_id'] }]);
    expect(table.selectStar).toBe('SELECT "id",\n       "customer_id",\n       "amount",\n       "paid"\nFROM "public"."orders"\nLIMIT 100');
    const customers = await pool.metadata({ uri: db.uri, what: 'table', schema: 'public', table: 'customers' });
    expect(customers.ok && customers.what === 'table' && customers.table.columns[2]).toMatchObject({ name: 'created_at', is_dttm: true, type_generic: 2 });
    const missing = failed(await pool.metadata({ uri: db.uri, what: 'table', schema: 'public', table: 'nope' }));
    expect(missing.errorType).toBe('TABLE_DOES_NOT_EXIST_ERROR');
  });

  it('estimates cost per statement like Superset', async () => {
    const result = await pool.estimate({ uri: db.uri, sql: 'SELECT * FROM orders; SELECT 1' });
    if (!result.ok) throw new Error(result.message);
    expect(result.cost).toHaveLength(2);
    expect(Object.keys(result.cost[0])).toEqual(['Start-up cost', 'Total cost']);
    expect(Number(result.cost[0]['Total cost'])).toBeGreaterThan(0);
  });
});
