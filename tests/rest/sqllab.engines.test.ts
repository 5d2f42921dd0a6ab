import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import mysql from 'mysql2/promise';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type MetadataKind, type TestApp } from '../helpers/app';
import { createPgDatabase, PG_ADMIN_URL } from '../helpers/pg';
import { bearer, clientId, queryState, registerDatabase, waitFor } from './sqllab.helpers';

const workerRequire = createRequire(new URL('../../query-worker/package.json', import.meta.url));
const MARIADB_URL = process.env.TEST_MARIADB_URL ?? 'mysql://root@127.0.0.1:3306';

interface Engine {
  name: string;
  uri: string;
  setupSql: string;
  slowSql: string;
  /** Whether the slow statement is still running on the database (null: in-process engine). */
  isRunningOnDb: ((marker: string) => Promise<boolean>) | null;
  drop: () => Promise<void>;
}

async function postgresEngine(): Promise<Engine> {
  const created = await createPgDatabase();
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
  await admin.connect();
  return {
    name: 'postgresql',
    uri: created.url.replace('postgresql://postgres@', 'postgresql://postgres:s3cret-pw@'),
    setupSql: "CREATE TABLE items AS SELECT g AS id, 'n' || g AS name FROM generate_series(1, 50) g",
    slowSql: 'SELECT pg_sleep(30) AS slept',
    isRunningOnDb: async (marker) => {
      const r = await admin.query("SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1 AND state = 'active' AND query LIKE $2 AND pid <> pg_backend_pid()", [created.name, `%${marker}%`]);
      return r.rows[0].n > 0;
    },
    drop: async () => {
      await admin.end();
      await created.drop();
    },
  };
}

async function mariadbEngine(): Promise<Engine> {
  const name = `meridian_test_${randomBytes(5).toString('hex')}`;
  const admin = await mysql.createConnection(MARIADB_URL);
  await admin.query(`CREATE DATABASE ${name}`);
  return {
    name: 'mysql',
    uri: `${MARIADB_URL}/${name}`,
    setupSql: "CREATE TABLE items (id INT PRIMARY KEY, name VARCHAR(20)); INSERT INTO items SELECT seq, CONCAT('n', seq) FROM seq_1_to_50",
    slowSql: 'SELECT SLEEP(30) AS slept',
    isRunningOnDb: async (marker) => {
      const [rows] = await admin.query('SELECT count(*) AS n FROM information_schema.processlist WHERE db = ? AND info LIKE ? AND id <> CONNECTION_ID()', [name, `%${marker}%`]);
      return Number((rows as { n: number }[])[0].n) > 0;
    },
    drop: async () => {
      await admin.query(`DROP DATABASE IF EXISTS ${name}`);
      await admin.end();
    },
  };
}

function fileEngine(kind: 'duckdb' | 'sqlite', dir: string): Engine {
  const file = join(dir, kind === 'duckdb' ? 'engine.duckdb' : 'engine.db');
  if (kind === 'sqlite') {
    // SQLite connections open existing files only: create the empty file first.
    const Database = workerRequire('better-sqlite3') as new (path: string) => { close(): void };
    new Database(file).close();
  }
  return {
    name: kind,
    uri: `${kind}:///${file}`,
    setupSql: kind === 'duckdb'
      ? "CREATE TABLE items AS SELECT range::INT AS id, 'n' || range AS name FROM range(1, 51)"
      : "CREATE TABLE items AS WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 50) SELECT x AS id, 'n' || x AS name FROM c",
    slowSql: kind === 'duckdb'
      ? 'SELECT count(*) AS n FROM range(200000) a, range(200000) b WHERE (a.range * b.range) % 7 = 3'
      : 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 3000000000) SELECT count(*) AS n FROM c',
    isRunningOnDb: null,
    drop: async () => {},
  };
}

// better-sqlite3 is an optional native dependency: a workstation without it skips SQLite (with a
// warning), but CI must run the whole matrix, so there a failed load fails the file.
let sqliteLoads = true;
try {
  workerRequire('better-sqlite3');
} catch (error) {
  if (process.env.CI) throw new Error(`better-sqlite3 does not load, so SQL Lab on SQLite cannot be tested: ${(error as Error).message}`);
  sqliteLoads = false;
  console.warn(`SQL Lab on SQLite skipped: better-sqlite3 does not load (${(error as Error).message})`);
}

const ENGINES: { name: string; make: (dir: string) => Promise<Engine> }[] = [
  { name: 'postgresql', make: () => postgresEngine() },
  { name: 'mysql', make: () => mariadbEngine() },
  { name: 'duckdb', make: async (dir) => fileEngine('duckdb', dir) },
  ...(sqliteLoads ? [{ name: 'sqlite', make: async (dir: string) => fileEngine('sqlite', dir) }] : []),
];

const METADATA: MetadataKind[] = process.env.SQLLAB_METADATA === 'all' ? ['pglite', 'postgres'] : [(process.env.SQLLAB_METADATA as MetadataKind) || 'pglite'];

for (const metadata of METADATA) {
  for (const { name, make } of ENGINES) {
    describe(`SQL Lab on ${name} (metadata on ${metadata})`, () => {
      let t: TestApp;
      let slow: TestApp;
      let admin: string;
      let slowAdmin: string;
      let engine: Engine;
      let dir: string;
      let rw: number;
      let ro: number;

      const exec = (body: Record<string, unknown>, app = t, token = admin) =>
        app.http.post('/api/v1/sqllab/execute/').set(bearer(token)).send({ client_id: clientId(), queryLimit: 1000, ...body });

      beforeAll(async () => {
        dir = mkdtempSync(join(tmpdir(), `meridian-${name}-`));
        engine = await make(dir);
        t = await startTestApp({ metadata });
        admin = await t.token();
        rw = await registerDatabase(t, admin, { database_name: `${name}_rw`, sqlalchemy_uri: engine.uri, allow_dml: true, allow_ctas: true, allow_cvas: true, allow_run_async: true });
        ro = await registerDatabase(t, admin, { database_name: `${name}_ro`, sqlalchemy_uri: engine.uri, allow_run_async: true });
        const setup = await exec({ database_id: rw, sql: engine.setupSql });
        if (setup.status !== 200) throw new Error(`setup failed: ${setup.text}`);
        slow = await startTestApp({ metadata: 'pglite', env: { SQLLAB_TIMEOUT: '1' } });
        slowAdmin = await slow.token();
      });
      afterAll(async () => {
        await t?.close();
        await slow?.close();
        await engine?.drop();
        rmSync(dir, { recursive: true, force: true });
      });

      it('runs a query, applies the row limit and reports the limiting factor', async () => {
        let res = await exec({ database_id: ro, sql: 'SELECT id, name FROM items ORDER BY id', queryLimit: 10 });
        expect(res.status).toBe(200);
        expect(res.body).toMatchObject({ status: 'success', query: { state: 'success', rows: 10, limitingFactor: 'DROPDOWN', progress: 100 } });
        expect(res.body.data[0]).toEqual({ id: 1, name: 'n1' });
        expect(res.body.columns.map((c: { name: string }) => c.name)).toEqual(['id', 'name']);
        expect(res.body.selected_columns).toHaveLength(2);
        expect(res.body.expanded_columns).toEqual([]);
        expect(res.body.query.startDttm).toBeLessThanOrEqual(res.body.query.endDttm);
        res = await exec({ database_id: ro, sql: 'SELECT id FROM items ORDER BY id LIMIT 5', queryLimit: 10 });
        expect(res.body.query).toMatchObject({ rows: 5, limitingFactor: 'QUERY' });
        res = await exec({ database_id: ro, sql: 'SELECT id FROM items ORDER BY id LIMIT 10', queryLimit: 10 });
        expect(res.body.query).toMatchObject({ rows: 10, limitingFactor: 'QUERY_AND_DROPDOWN' });
        res = await exec({ database_id: ro, sql: 'SELECT id FROM items ORDER BY id LIMIT 20', queryLimit: 10 });
        expect(res.body.query).toMatchObject({ rows: 10, limitingFactor: 'DROPDOWN' });
        res = await exec({ database_id: ro, sql: 'SELECT id FROM items', queryLimit: 100 });
        expect(res.body.query).toMatchObject({ rows: 50, limitingFactor: 'NOT_LIMITED' });
      });

      it('refuses DML unless the database allows it', async () => {
        const res = await exec({ database_id: ro, sql: "INSERT INTO items (id, name) VALUES (999, 'x')" });
        expect(res.status).toBeGreaterThanOrEqual(400);
        expect(res.body.errors[0].error_type).toBe('DML_NOT_ALLOWED_ERROR');
        const count = await exec({ database_id: ro, sql: 'SELECT count(*) AS n FROM items WHERE id = 999' });
        expect(Number(count.body.data[0].n)).toBe(0);
      });

      it('creates tables and views as select only where allowed', async () => {
        let res = await exec({ database_id: rw, sql: 'SELECT id, name FROM items WHERE id <= 5', select_as_cta: true, ctas_method: 'TABLE', tmp_table_name: 'ctas_items' });
        expect(res.status).toBe(200);
        expect(res.body.query).toMatchObject({ state: 'success', tempTable: 'ctas_items', ctas: true });
        res = await exec({ database_id: ro, sql: 'SELECT count(*) AS n FROM ctas_items' });
        expect(Number(res.body.data[0].n)).toBe(5);
        res = await exec({ database_id: rw, sql: 'SELECT id FROM items WHERE id <= 3', select_as_cta: true, ctas_method: 'VIEW', tmp_table_name: 'cvas_items' });
        expect(res.status).toBe(200);
        res = await exec({ database_id: ro, sql: 'SELECT count(*) AS n FROM cvas_items' });
        expect(Number(res.body.data[0].n)).toBe(3);
        res = await exec({ database_id: ro, sql: 'SELECT 1', select_as_cta: true, ctas_method: 'TABLE', tmp_table_name: 'nope' });
        expect(res.status).toBe(400);
        expect(res.body.errors[0].error_type).toBe('INVALID_CTAS_QUERY_ERROR');
      });

      it('renders template parameters and names undefined ones', async () => {
        let res = await exec({ database_id: ro, sql: "SELECT id FROM items WHERE id <= {{ n }} AND name LIKE '{{ prefix }}%' ORDER BY id", templateParams: '{"n": 3, "prefix": "n"}' });
        expect(res.status).toBe(200);
        expect(res.body.data).toEqual([{ id: 1 }, { id: 2 }, { id: 3 }]);
        res = await exec({ database_id: ro, sql: 'SELECT {{ a }} AS x, {{ b }} AS y', templateParams: '{}' });
        expect(res.status).toBe(400);
        expect(res.body.errors[0]).toMatchObject({ error_type: 'MISSING_TEMPLATE_PARAMS_ERROR', message: 'The following parameters in your query are undefined: "a", "b".' });
      });

      it('maps database errors to Superset error types', async () => {
        const cases: [string, string][] = [
          ['SELEC 1', 'SYNTAX_ERROR'],
          ['SELECT * FROM no_such_table_here', 'TABLE_DOES_NOT_EXIST_ERROR'],
          ['SELECT no_such_column FROM items', 'COLUMN_DOES_NOT_EXIST_ERROR'],
        ];
        for (const [sql, type] of cases) {
          const id = clientId();
          const res = await exec({ database_id: ro, sql, client_id: id });
          expect(res.status, sql).toBe(500);
          expect(res.body.errors[0].error_type, `${sql}: ${res.body.errors[0].message}`).toBe(type);
          const q = await queryState(t, admin, id);
          expect(q).toMatchObject({ state: 'failed' });
          expect(q!.errorMessage).toBeTruthy();
        }
      });

      it('stops a running query on the database', async () => {
        const id = clientId();
        const res = await exec({ database_id: ro, sql: engine.slowSql, client_id: id, runAsync: true });
        expect(res.status).toBe(202);
        expect(res.body.query).toMatchObject({ id, state: 'pending' });
        await waitFor('query running', async () => (await queryState(t, admin, id))?.state === 'running');
        if (engine.isRunningOnDb) await waitFor('statement on the database', () => engine.isRunningOnDb!(engine.slowSql.slice(7, 20)));
        const stop = await t.http.post('/api/v1/query/stop').set(bearer(admin)).send({ client_id: id });
        expect(stop.status).toBe(200);
        expect(stop.body).toEqual({ result: 'OK' });
        await waitFor('pool released the query', async () => !t.services.queryRuntime.pool.isRunning(id));
        expect(await queryState(t, admin, id)).toMatchObject({ state: 'stopped' });
        if (engine.isRunningOnDb) await waitFor('statement gone from the database', async () => !(await engine.isRunningOnDb!(engine.slowSql.slice(7, 20))));
        const unknown = await t.http.post('/api/v1/query/stop').set(bearer(admin)).send({ client_id: 'nope1234567' });
        expect(unknown.status).toBe(404);
        expect(unknown.body.message).toBe('Query with client_id nope1234567 not found');
      });

      it('times out a query after SQLLAB_TIMEOUT and cancels it', async () => {
        const db = await registerDatabase(slow, slowAdmin, { database_name: `${name}_slow`, sqlalchemy_uri: engine.uri });
        const id = clientId();
        const res = await exec({ database_id: db, sql: engine.slowSql, client_id: id }, slow, slowAdmin);
        expect(res.status).toBe(408);
        expect(res.body.errors[0].error_type).toMatch(/TIMEOUT/);
        expect(await queryState(slow, slowAdmin, id)).toMatchObject({ state: 'timed_out' });
        if (engine.isRunningOnDb) await waitFor('timed-out statement gone from the database', async () => !(await engine.isRunningOnDb!(engine.slowSql.slice(7, 20))));
      });
    });
  }
}
