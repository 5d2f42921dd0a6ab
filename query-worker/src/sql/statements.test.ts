import { describe, expect, it } from 'vitest';
import { applyLimit, computeLimitingFactor, getLimitFromSql, isMutating, isSelect, splitStatements } from './statements.ts';
import { buildCtas } from './ctas.ts';
import { backendFromUri, maskPassword, parseUri } from '../engines/uri.ts';
import { getEngineSpec, listEngineSpecs } from '../engines/registry.ts';
import { TIME_GRAINS, timeGrainExpression } from '../engines/engine-spec.ts';

describe('splitStatements', () => {
  it('splits on top-level semicolons only, ignoring quotes, comments and dollar bodies', () => {
    const sql = "SELECT ';' AS a; -- one; two\nSELECT \"x;y\" FROM t;\n/* ; */ SELECT $$a;b$$;;";
    expect(splitStatements(sql)).toEqual(["SELECT ';' AS a", '-- one; two\nSELECT "x;y" FROM t', '/* ; */ SELECT $$a;b$$']);
  });

  it('knows MySQL backslash escapes and # comments', () => {
    expect(splitStatements("SELECT 'it\\'s;'; # c;\nSELECT `a;b`", 'mysql')).toEqual(["SELECT 'it\\'s;'", '# c;\nSELECT `a;b`']);
  });

  it('drops comment-only statements', () => {
    expect(splitStatements('-- nothing\n; ; SELECT 1')).toEqual(['SELECT 1']);
  });
});

describe('applyLimit (Superset apply_limit_to_sql)', () => {
  it('appends a LIMIT when there is none', () => {
    expect(applyLimit('SELECT * FROM t;', 100)).toBe('SELECT * FROM t\nLIMIT 100');
  });

  it('keeps a lower existing LIMIT and replaces a higher one', () => {
    expect(applyLimit('SELECT * FROM t LIMIT 10', 100)).toBe('SELECT * FROM t LIMIT 10');
    expect(applyLimit('SELECT * FROM t LIMIT 1000 OFFSET 5', 100)).toBe('SELECT * FROM t LIMIT 100 OFFSET 5');
    expect(applyLimit('SELECT * FROM t LIMIT 5, 1000', 100, { dialect: 'mysql' })).toBe('SELECT * FROM t LIMIT 5, 100');
  });

  it('replaces even a lower LIMIT when forced (the limit+1 fetch)', () => {
    expect(applyLimit('SELECT * FROM t LIMIT 10', 11, { force: true })).toBe('SELECT * FROM t LIMIT 11');
  });

  it('ignores LIMIT inside subqueries, strings and (dropped) trailing comments', () => {
    expect(applyLimit("SELECT * FROM (SELECT 1 LIMIT 5) s WHERE x = 'LIMIT 3' -- LIMIT 2", 50)).toBe("SELECT * FROM (SELECT 1 LIMIT 5) s WHERE x = 'LIMIT 3'\nLIMIT 50");
  });

  it('wraps when the LIMIT cannot be rewritten', () => {
    expect(applyLimit('SELECT * FROM t LIMIT ALL', 10)).toBe('SELECT * FROM (\nSELECT * FROM t LIMIT ALL\n) AS inner_qry LIMIT 10');
    expect(applyLimit('SELECT * FROM t FETCH FIRST 5 ROWS ONLY', 10)).toContain('AS inner_qry LIMIT 10');
  });

  it('only touches the last statement, and only SELECTs', () => {
    expect(applyLimit('SET x = 1; SELECT 1', 10)).toBe('SET x = 1;\nSELECT 1\nLIMIT 10');
    expect(applyLimit('SHOW TABLES', 10)).toBe('SHOW TABLES');
  });

  it('reads the SQL limit like get_limit_from_sql', () => {
    expect(getLimitFromSql('SELECT 1 LIMIT 7 OFFSET 3')).toBe(7);
    expect(getLimitFromSql('SELECT * FROM (SELECT 1 LIMIT 7) s')).toBeNull();
  });
});

describe('computeLimitingFactor', () => {
  it('follows Superset: dropdown, query, both, or not limited', () => {
    expect(computeLimitingFactor(100, null, true)).toBe('DROPDOWN');
    expect(computeLimitingFactor(100, 1000, true)).toBe('DROPDOWN');
    expect(computeLimitingFactor(100, 10, true)).toBe('QUERY');
    expect(computeLimitingFactor(100, 100, true)).toBe('QUERY_AND_DROPDOWN');
    expect(computeLimitingFactor(100, 10, false)).toBe('NOT_LIMITED');
  });
});

describe('isMutating (Superset is_mutating, as an allow-list of reads)', () => {
  it.each([
    'INSERT INTO t VALUES (1)', 'update t set a = 1', 'DELETE FROM t', 'MERGE INTO t USING s ON true WHEN MATCHED THEN DELETE',
    'DROP TABLE t', 'CREATE TABLE t (a int)', 'ALTER TABLE t ADD b int', 'TRUNCATE t',
    'WITH d AS (DELETE FROM t RETURNING *) SELECT * FROM d', 'WITH s AS (SELECT 1) INSERT INTO t SELECT * FROM s',
    'WITH x AS (SELECT id FROM old) DELETE FROM t WHERE id IN (SELECT id FROM x)', 'WITH x AS (SELECT 1 AS a) UPDATE t SET a = (SELECT a FROM x)',
    'WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 3), s AS (SELECT 2) INSERT INTO t SELECT n FROM r',
    'SELECT * INTO newtable FROM t', 'SELECT 1; DROP TABLE t',
    // Postgres anonymous blocks and procedures run arbitrary code.
    'DO $$BEGIN DELETE FROM t; END$$', "DO LANGUAGE plpgsql $body$ BEGIN PERFORM 1; END $body$", 'CALL refresh_all()', 'EXECUTE prepared_delete(1)',
    'PREPARE p AS DELETE FROM t', 'COPY t FROM STDIN', "COPY t TO '/tmp/out.csv'", 'VACUUM', 'VACUUM FULL t', 'ANALYZE t', 'REINDEX TABLE t',
    'REFRESH MATERIALIZED VIEW mv', 'GRANT SELECT ON t TO someone', 'COMMENT ON TABLE t IS $$x$$', 'LOCK TABLE t', 'CHECKPOINT', 'LISTEN ch', "NOTIFY ch, 'x'",
    'EXPLAIN ANALYZE DELETE FROM t', 'EXPLAIN (ANALYZE, FORMAT JSON) INSERT INTO t VALUES (1)', 'EXPLAIN ANALYZE VERBOSE WITH x AS (SELECT 1) DELETE FROM t',
    'EXPLAIN ANALYZE EXECUTE prepared_delete(1)', 'SET x = 1; DELETE FROM t',
  ])('%s mutates (PostgreSQL)', (sql) => {
    expect(isMutating(sql, 'postgresql')).toBe(true);
  });

  it.each([
    'REPLACE INTO t VALUES (1)', 'WITH s AS (SELECT 1 AS a) REPLACE INTO t SELECT a FROM s', 'LOAD DATA INFILE "x" INTO TABLE t', 'SET GLOBAL max_connections = 10',
    'SET PERSIST sql_mode = ""', 'SET @@global.sql_mode = ""', 'ANALYZE TABLE t', 'OPTIMIZE TABLE t', 'FLUSH TABLES', 'KILL 42', 'HANDLER t OPEN',
    'CALL p()', "SELECT * FROM t INTO OUTFILE '/tmp/x'", "SELECT 1 /*!50000 INTO OUTFILE '/tmp/x' */", 'SELECT 1 /*M! , 2 */', 'DO SLEEP(1)', 'XA START "x"',
  ])('%s mutates (MySQL)', (sql) => {
    expect(isMutating(sql, 'mysql')).toBe(true);
  });

  it.each([
    'PRAGMA user_version = 5', 'PRAGMA journal_mode(WAL)', 'PRAGMA optimize', 'PRAGMA wal_checkpoint', 'PRAGMA incremental_vacuum(10)',
    "ATTACH DATABASE 'x.db' AS x", 'VACUUM', 'REINDEX', 'ANALYZE',
  ])('%s mutates (SQLite)', (sql) => {
    expect(isMutating(sql, 'sqlite')).toBe(true);
  });

  it.each(["INSTALL httpfs", "LOAD httpfs", "ATTACH 'x.duckdb'", "COPY t TO 'out.parquet'", "EXPORT DATABASE 'dir'", 'CHECKPOINT', 'PRAGMA threads = 4', "CREATE MACRO m(a) AS a"])('%s mutates (DuckDB)', (sql) => {
    expect(isMutating(sql, 'duckdb')).toBe(true);
  });

  it.each([
    'SELECT 1', "SELECT 'DROP TABLE t'", 'WITH a AS (SELECT 1) SELECT * FROM a', 'SELECT * FROM t FOR UPDATE', 'EXPLAIN SELECT 1', 'SHOW TABLES', '-- DELETE\nSELECT 1',
    'EXPLAIN DELETE FROM t', 'EXPLAIN ANALYZE SELECT * FROM t', 'EXPLAIN (ANALYZE false) DELETE FROM t', 'EXPLAIN (FORMAT JSON) SELECT 1', 'VALUES (1), (2)', 'TABLE t',
    '(SELECT 1) UNION (SELECT 2)', 'SET search_path = public', 'SET statement_timeout TO 1000; SELECT 1', 'RESET search_path', 'SHOW search_path',
    'BEGIN; SELECT 1; COMMIT', 'START TRANSACTION READ ONLY', 'ROLLBACK', "SELECT replace(name, 'a', 'b'), (replace(x, 'c', 'd')) FROM t",
    // Not a statement: the engine answers with its syntax error (Superset: an unknown command is not mutating).
    'SELEC 1', 'FROM t',
  ])('%s does not mutate (PostgreSQL)', (sql) => {
    expect(isMutating(sql, 'postgresql')).toBe(false);
  });

  it.each(['SHOW DATABASES', 'DESCRIBE t', 'DESC t', 'USE test', 'SET @x = 1', 'SET SESSION sql_mode = ""', 'SELECT 1 INTO @v', 'EXPLAIN FORMAT=JSON SELECT 1', 'ANALYZE SELECT 1', 'EXPLAIN ANALYZE TABLE t'])('%s does not mutate (MySQL)', (sql) => {
    expect(isMutating(sql, 'mysql')).toBe(false);
  });

  it.each(['PRAGMA table_info(t)', "PRAGMA table_info('t')", 'PRAGMA user_version', 'PRAGMA foreign_key_list(t)', 'EXPLAIN QUERY PLAN SELECT 1'])('%s does not mutate (SQLite)', (sql) => {
    expect(isMutating(sql, 'sqlite')).toBe(false);
  });

  it.each(['FROM t', 'SUMMARIZE t', 'DESCRIBE t', 'PIVOT t ON year USING sum(x)', "PRAGMA table_info('t')", 'PRAGMA show_tables', 'EXPLAIN ANALYZE SELECT 1'])('%s does not mutate (DuckDB)', (sql) => {
    expect(isMutating(sql, 'duckdb')).toBe(false);
  });

  it('tells SELECTs apart', () => {
    expect(isSelect('(SELECT 1) UNION (SELECT 2)')).toBe(true);
    expect(isSelect('FROM t', 'duckdb')).toBe(true);
    expect(isSelect('INSERT INTO t SELECT 1')).toBe(false);
  });
});

describe('buildCtas', () => {
  const quote = getEngineSpec('postgresql').quoteIdentifier;
  it('wraps the last SELECT in CREATE TABLE schema.table AS', () => {
    const plan = buildCtas('SET x = 1; SELECT 1 AS a;', { method: 'TABLE', tableName: 'tmp', schema: 'public' }, quote);
    expect(plan).toEqual({ ok: true, statements: ['SET x = 1', 'CREATE TABLE "public"."tmp" AS \nSELECT 1 AS a'], fullTableName: '"public"."tmp"' });
  });

  it('refuses CTAS without a final SELECT and CVAS with several statements', () => {
    expect(buildCtas('SELECT 1; DELETE FROM t', { method: 'TABLE', tableName: 'x' }, quote)).toMatchObject({ ok: false, errorType: 'INVALID_CTAS_QUERY_ERROR' });
    expect(buildCtas('SELECT 1; SELECT 2', { method: 'VIEW', tableName: 'x' }, quote)).toMatchObject({ ok: false, errorType: 'INVALID_CVAS_QUERY_ERROR' });
  });
});

describe('URIs', () => {
  it('maps SQLAlchemy schemes to backends', () => {
    expect(backendFromUri('postgresql+psycopg2://u@h/db')).toBe('postgresql');
    expect(backendFromUri('mysql+pymysql://root@127.0.0.1:3306/test')).toBe('mysql');
    expect(backendFromUri('mariadb://root@h/db')).toBe('mysql');
    expect(backendFromUri('duckdb:////tmp/x.duckdb')).toBe('duckdb');
    expect(backendFromUri('oracle://x')).toBeNull();
  });

  it('parses hosts and file paths', () => {
    expect(parseUri('postgresql://user:p%40ss@db.example:6543/analytics')).toMatchObject({ username: 'user', password: 'p@ss', host: 'db.example', port: 6543, database: 'analytics' });
    expect(parseUri('duckdb:////abs/path.duckdb').database).toBe('/abs/path.duckdb');
    expect(parseUri('duckdb:///:memory:').database).toBe(':memory:');
    expect(parseUri('sqlite:////abs/file.db').database).toBe('/abs/file.db');
  });

  it('masks the password like Superset', () => {
    expect(maskPassword('postgresql://user:secret@host/db')).toBe('postgresql://user:XXXXXXXXXX@host/db');
    expect(maskPassword('mysql://root@127.0.0.1:3306/test')).toBe('mysql://root@127.0.0.1:3306/test');
  });
});

describe('engine specs', () => {
  it('have an expression for every time grain', () => {
    for (const spec of listEngineSpecs()) {
      for (const grain of TIME_GRAINS) expect(timeGrainExpression(spec, grain, 'ts')).toContain('ts');
    }
    expect(timeGrainExpression(getEngineSpec('postgresql'), 'P1D', '"ts"')).toBe(`DATE_TRUNC('day', "ts")`);
  });

  it('quote identifiers per engine', () => {
    expect(getEngineSpec('mysql').quoteIdentifier('a`b')).toBe('`a``b`');
    expect(getEngineSpec('duckdb').quoteIdentifier('a"b')).toBe('"a""b"');
  });
});
