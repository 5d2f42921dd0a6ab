import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createResultsBackend, readRows, type ResultsBackend } from '../results/results-backend.ts';
import { cancelIdWatcher, createMysqlDatabase, testPool, failed, ok } from '../testing/test-databases.ts';
import type { QueryPool } from '../pool.ts';
import type { RunResult, RunSuccess, TaskFailure } from '../types.ts';

let db: Awaited<ReturnType<typeof createMysqlDatabase>>;
let pool: QueryPool;
let backend: ResultsBackend;
let cleanup: () => Promise<void>;
let n = 0;
const qid = () => `my${++n}_${Date.now().toString(36)}`;


beforeAll(async () => {
  db = await createMysqlDatabase();
  const made = testPool();
  pool = made.pool;
  cleanup = made.cleanup;
  backend = createResultsBackend(made.results);
  await db.admin.query(`USE ${db.name}`);
  await db.admin.query('CREATE TABLE customers (id INT PRIMARY KEY, name VARCHAR(40) NOT NULL, created_at DATETIME)');
  await db.admin.query('CREATE TABLE orders (id BIGINT PRIMARY KEY, customer_id INT, amount DECIMAL(10,2), KEY orders_customer (customer_id), CONSTRAINT orders_fk FOREIGN KEY (customer_id) REFERENCES customers (id))');
  await db.admin.query("INSERT INTO customers VALUES (1, 'Ada', '2024-01-02 03:04:05'), (2, 'Grace', NULL)");
  await db.admin.query('INSERT INTO orders SELECT seq, 1 + seq % 2, seq * 1.5 FROM seq_1_to_500');
  await db.admin.query('CREATE VIEW big_orders AS SELECT * FROM orders WHERE amount > 100');
});

afterAll(async () => {
  await cleanup?.();
  await backend?.close();
  await db?.drop();
});

describe('MariaDB run', () => {
  it('returns rows with exact big integers and decimals', async () => {
    const result = ok(await pool.run({ queryId: qid(), uri: db.uri, limit: 100, sql: "SELECT CAST(9007199254740993 AS SIGNED) AS big, CAST(2.50 AS DECIMAL(10,2)) AS d, 'x' AS s, NULL AS n, created_at FROM customers WHERE id = 1" }));
    const slice = await readRows(backend, result.resultsKey);
    expect(slice!.json).toBe('[{"big":9007199254740993,"d":2.50,"s":"x","n":null,"created_at":"2024-01-02T03:04:05"}]');
    expect(result.columns.map((c) => [c.name, c.type, c.type_generic])).toEqual([['big', 'BIGINT', 0], ['d', 'DECIMAL', 0], ['s', 'VARCHAR', 1], ['n', 'NULL', 1], ['created_at', 'DATETIME', 2]]);
  });

  it('applies limits and reports the limiting factor', async () => {
    expect(ok(await pool.run({ queryId: qid(), uri: db.uri, sql: 'SELECT id FROM orders ORDER BY id', limit: 10 }))).toMatchObject({ rowCount: 10, limitingFactor: 'DROPDOWN' });
    expect(ok(await pool.run({ queryId: qid(), uri: db.uri, sql: 'SELECT id FROM orders ORDER BY id LIMIT 3', limit: 10 }))).toMatchObject({ rowCount: 3, limitingFactor: 'QUERY' });
    expect(ok(await pool.run({ queryId: qid(), uri: db.uri, sql: 'SELECT id FROM customers', limit: 10 }))).toMatchObject({ rowCount: 2, limitingFactor: 'NOT_LIMITED' });
  });

  it('runs several statements in order in one session', async () => {
    const result = ok(await pool.run({ queryId: qid(), uri: db.uri, limit: 10, sql: 'SET @a = 1; SET @a = @a * 10 + 2; SELECT @a AS seq' }));
    expect(JSON.parse((await readRows(backend, result.resultsKey))!.json)).toEqual([{ seq: 12 }]);
  });

  it('creates a table as select (CTAS) in the given schema', async () => {
    const result = ok(await pool.run({ queryId: qid(), uri: db.uri, sql: 'SELECT id FROM orders WHERE id <= 4', ctas: { method: 'TABLE', tableName: 'tmp_ctas', schema: db.name } }));
    expect(result.executedSql).toBe(`CREATE TABLE \`${db.name}\`.\`tmp_ctas\` AS \nSELECT id FROM orders WHERE id <= 4`);
    const [rows] = await db.admin.query('SELECT COUNT(*) AS c FROM tmp_ctas');
    expect((rows as { c: number }[])[0].c).toBe(4);
  });

  it('stops a running query on the database (gone from the processlist)', async () => {
    const watcher = cancelIdWatcher();
    const queryId = qid();
    const running = pool.run({ queryId, uri: db.uri, sql: 'SELECT SLEEP(30)' }, { onEvent: watcher.onEvent });
    const id = Number(await watcher.cancelId);
    for (let i = 0; i < 50; i++) {
      const [rows] = await db.admin.query("SELECT 1 FROM information_schema.processlist WHERE id = ? AND info LIKE 'SELECT SLEEP%'", [id]);
      if ((rows as unknown[]).length) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(await pool.stop(queryId)).toBe(true);
    expect(failed(await running).status).toBe('stopped');
    const [after] = await db.admin.query("SELECT 1 FROM information_schema.processlist WHERE id = ? AND info LIKE 'SELECT SLEEP%'", [id]);
    expect(after).toEqual([]);
  });

  it('times out and kills the query', async () => {
    const watcher = cancelIdWatcher();
    const result = failed(await pool.run({ queryId: qid(), uri: db.uri, sql: 'SELECT SLEEP(30)', timeoutMs: 700 }, { onEvent: watcher.onEvent }));
    expect(result).toMatchObject({ status: 'timed_out', errorType: 'SQLLAB_TIMEOUT_ERROR' });
    const [after] = await db.admin.query("SELECT 1 FROM information_schema.processlist WHERE id = ? AND info LIKE 'SELECT SLEEP%'", [Number(await watcher.cancelId)]);
    expect(after).toEqual([]);
  });
});

describe('MariaDB errors', () => {
  const run = async (sql: string) => failed(await pool.run({ queryId: qid(), uri: db.uri, sql, limit: 10 }));

  it('maps syntax, missing column, missing table and missing schema', async () => {
    const syntax = await run('SELEC 1');
    expect(syntax.errorType).toBe('SYNTAX_ERROR');
    expect(syntax.message).toMatch(/^Please check your query for syntax errors near "SELEC 1/);
    expect(await run('SELECT nope FROM orders')).toMatchObject({ errorType: 'COLUMN_DOES_NOT_EXIST_ERROR', message: 'We can\'t seem to resolve the column "nope".' });
    expect((await run('SELECT * FROM nope')).errorType).toBe('TABLE_DOES_NOT_EXIST_ERROR');
    expect(await run('SELECT * FROM meridian_no_schema.orders')).toMatchObject({ errorType: 'SCHEMA_DOES_NOT_EXIST_ERROR', message: 'The schema "meridian_no_schema" does not exist. A valid schema must be used to run this query.' });
  });

  it('maps connection errors: access denied, unknown database, closed port (host down, as Superset\'s MySQL spec)', async () => {
    const denied = failed(await pool.testConnection({ uri: 'mysql://meridian_nobody:wrong@127.0.0.1:3306/test' }));
    expect(denied).toMatchObject({ errorType: 'CONNECTION_ACCESS_DENIED_ERROR', message: 'Either the username "meridian_nobody" or the password is incorrect.' });
    const database = failed(await pool.testConnection({ uri: 'mysql+pymysql://root@127.0.0.1:3306/meridian_no_such_db' }));
    expect(database).toMatchObject({ errorType: 'CONNECTION_UNKNOWN_DATABASE_ERROR', message: 'Unable to connect to database "meridian_no_such_db".' });
    const port = failed(await pool.testConnection({ uri: 'mariadb://root@127.0.0.1:1/test' }));
    expect(port).toMatchObject({ errorType: 'CONNECTION_HOST_DOWN_ERROR', message: 'The host "127.0.0.1" might be down and can\'t be reached.' });
    expect(await pool.testConnection({ uri: db.uri })).toEqual({ ok: true });
  });
});

describe('MariaDB metadata', () => {
  it('lists schemas and tables and describes a table', async () => {
    const schemas = await pool.metadata({ uri: db.uri, what: 'schemas' });
    expect(schemas.ok && schemas.what === 'schemas' && schemas.schemas).toContain(db.name);
    const tables = await pool.metadata({ uri: db.uri, what: 'tables', schema: db.name });
    expect(tables.ok && tables.what === 'tables' && tables.tables).toEqual(expect.arrayContaining([{ name: 'orders', type: 'table' }, { name: 'big_orders', type: 'view' }]));
    const result = await pool.metadata({ uri: db.uri, what: 'table', schema: db.name, table: 'orders' });
    if (!result.ok || result.what !== 'table') throw new Error(JSON.stringify(result));
    expect(result.table.columns.map((c) => [c.name, c.type, c.primaryKey])).toEqual([['id', 'BIGINT(20)', true], ['customer_id', 'INT(11)', false], ['amount', 'DECIMAL(10,2)', false]]);
    expect(result.table.foreignKeys).toEqual([{ name: 'orders_fk', constrained_columns: ['customer_id'], referred_schema: db.name, referred_table: 'customers', referred_columns: ['id'] }]);
    expect(result.table.indexes).toEqual([{ name: 'orders_customer', unique: false, column_names: ['customer_id'] }]);
    expect(result.table.selectStar).toBe(`SELECT \`id\`,\n       \`customer_id\`,\n       \`amount\`\nFROM \`${db.name}\`.\`orders\`\nLIMIT 100`);
  });

  it('estimates with EXPLAIN', async () => {
    const result = await pool.estimate({ uri: db.uri, sql: 'SELECT * FROM orders' });
    expect(result.ok && result.cost[0]).toMatchObject({ Tables: 'orders' });
  });
});
