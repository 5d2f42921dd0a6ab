import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app';
import { bearer, clientId, queryState, registerDatabase } from './sqllab.helpers';

const workerRequire = createRequire(new URL('../../query-worker/package.json', import.meta.url));
const MARIADB_URL = process.env.TEST_MARIADB_URL ?? 'mysql://root@127.0.0.1:3306';

/** Superset's issue code entry for an error type's first issue code. */
const issue = (code: number, text: string) => ({ code, message: `Issue ${code} - ${text}` });

/**
 * Connection and query errors mapped to Superset's error types, as a user sees them through REST:
 * `{"errors":[{message,error_type,level,extra}]}`, test_connection answering 400 as Superset's
 * TestConnectionDatabaseCommand (the engine's extracted errors).
 */
describe('database error types over REST', () => {
  let t: TestApp;
  let admin: string;
  let dir: string;
  let root: mysql.Connection;
  const user = `meridian_pw_${randomBytes(4).toString('hex')}`;

  beforeAll(async () => {
    t = await startTestApp();
    admin = await t.token();
    dir = mkdtempSync(join(tmpdir(), 'meridian-errors-'));
    root = await mysql.createConnection(`${MARIADB_URL}/test`);
    for (const host of ['%', 'localhost']) {
      await root.query(`CREATE USER '${user}'@'${host}' IDENTIFIED BY 'right-pw'`);
      await root.query(`GRANT SELECT ON test.* TO '${user}'@'${host}'`);
    }
  });
  afterAll(async () => {
    await t?.close();
    for (const host of ['%', 'localhost']) await root?.query(`DROP USER IF EXISTS '${user}'@'${host}'`);
    await root?.end();
    rmSync(dir, { recursive: true, force: true });
  });

  const testConnection = (uri: string) => t.http.post('/api/v1/database/test_connection/').set(bearer(admin)).send({ sqlalchemy_uri: uri });

  async function expectConnectionError(uri: string, expected: { error_type: string; message: string; engine_name: string; issue: ReturnType<typeof issue>; invalid?: string[] }) {
    const res = await testConnection(uri);
    expect(res.status, uri).toBe(400);
    expect(res.body.errors, uri).toHaveLength(1);
    const [error] = res.body.errors;
    expect(error, uri).toMatchObject({ message: expected.message, error_type: expected.error_type, level: 'error' });
    expect(error.extra.engine_name, uri).toBe(expected.engine_name);
    expect(error.extra.issue_codes[0], uri).toEqual(expected.issue);
    if (expected.invalid) expect(error.extra.invalid, uri).toEqual(expected.invalid);
  }

  it('PostgreSQL: unknown user, unknown database, closed port, unknown host', async () => {
    await expectConnectionError('postgresql://meridian_no_such_role:pw@127.0.0.1:5432/test', {
      error_type: 'CONNECTION_INVALID_USERNAME_ERROR', message: 'The username "meridian_no_such_role" does not exist.', engine_name: 'PostgreSQL',
      issue: issue(1012, 'The username provided when connecting to a database is not valid.'), invalid: ['username'],
    });
    await expectConnectionError('postgresql://postgres@127.0.0.1:5432/meridian_no_such_db', {
      error_type: 'CONNECTION_UNKNOWN_DATABASE_ERROR', message: 'Unable to connect to database "meridian_no_such_db".', engine_name: 'PostgreSQL',
      issue: issue(1015, 'Either the database is spelled incorrectly or does not exist.'), invalid: ['database'],
    });
    await expectConnectionError('postgresql://postgres@127.0.0.1:1/test', {
      error_type: 'CONNECTION_PORT_CLOSED_ERROR', message: 'Port 1 on hostname "127.0.0.1" refused the connection.', engine_name: 'PostgreSQL',
      issue: issue(1008, 'The port is closed.'), invalid: ['host', 'port'],
    });
    await expectConnectionError('postgresql://postgres@no-such-host.invalid:5432/test', {
      error_type: 'CONNECTION_INVALID_HOSTNAME_ERROR', message: 'The hostname "no-such-host.invalid" cannot be resolved.', engine_name: 'PostgreSQL',
      issue: issue(1007, "The hostname provided can't be resolved."), invalid: ['host'],
    });
    expect((await testConnection('postgresql://postgres@127.0.0.1:5432/test')).body).toEqual({ message: 'OK' });
  });

  it('MariaDB: wrong password, closed port, unknown database, unknown host', async () => {
    expect((await testConnection(`mysql://${user}:right-pw@127.0.0.1:3306/test`)).body).toEqual({ message: 'OK' });
    await expectConnectionError(`mysql://${user}:wrong-pw@127.0.0.1:3306/test`, {
      error_type: 'CONNECTION_ACCESS_DENIED_ERROR', message: `Either the username "${user}" or the password is incorrect.`, engine_name: 'MySQL',
      issue: issue(1014, 'Either the username or the password is wrong.'), invalid: ['username', 'password'],
    });
    // Superset's MySQL spec has no closed-port error: the client's "Can't connect" is a host down.
    await expectConnectionError('mysql://root@127.0.0.1:1/test', {
      error_type: 'CONNECTION_HOST_DOWN_ERROR', message: 'The host "127.0.0.1" might be down and can\'t be reached.', engine_name: 'MySQL',
      issue: issue(1009, "The host might be down, and can't be reached on the provided port."), invalid: ['host', 'port'],
    });
    await expectConnectionError('mysql://root@127.0.0.1:3306/meridian_no_such_db', {
      error_type: 'CONNECTION_UNKNOWN_DATABASE_ERROR', message: 'Unable to connect to database "meridian_no_such_db".', engine_name: 'MySQL',
      issue: issue(1015, 'Either the database is spelled incorrectly or does not exist.'), invalid: ['database'],
    });
    await expectConnectionError('mysql://root@no-such-host.invalid:3306/test', {
      error_type: 'CONNECTION_INVALID_HOSTNAME_ERROR', message: 'Unknown MySQL server host "no-such-host.invalid".', engine_name: 'MySQL',
      issue: issue(1007, "The hostname provided can't be resolved."), invalid: ['host'],
    });
  });

  it('MariaDB: a query after the password changed fails with the access denied error and the query reads failed', async () => {
    const db = await registerDatabase(t, admin, { database_name: 'maria_pw', sqlalchemy_uri: `mysql://${user}:right-pw@127.0.0.1:3306/test` });
    const id = clientId();
    let res = await t.http.post('/api/v1/sqllab/execute/').set(bearer(admin)).send({ database_id: db, sql: 'SELECT 1 AS one', client_id: id });
    expect(res.status).toBe(200);
    for (const host of ['%', 'localhost']) await root.query(`ALTER USER '${user}'@'${host}' IDENTIFIED BY 'changed-pw'`);
    const failed = clientId();
    res = await t.http.post('/api/v1/sqllab/execute/').set(bearer(admin)).send({ database_id: db, sql: 'SELECT 1 AS one', client_id: failed });
    expect(res.status).toBe(500);
    expect(res.body.errors[0]).toMatchObject({ error_type: 'CONNECTION_ACCESS_DENIED_ERROR', message: `Either the username "${user}" or the password is incorrect.`, level: 'error' });
    expect(await queryState(t, admin, failed)).toMatchObject({ state: 'failed', errorMessage: `Either the username "${user}" or the password is incorrect.` });
  });

  it('DuckDB: a file in a missing directory cannot be opened', async () => {
    const file = join(dir, 'no-such-dir', 'x.duckdb');
    const res = await testConnection(`duckdb:///${file}`);
    expect(res.status).toBe(400);
    expect(res.body.errors[0]).toMatchObject({ error_type: 'CONNECTION_UNKNOWN_DATABASE_ERROR', message: `Unable to connect to database "${file}".`, level: 'error' });
    expect(res.body.errors[0].extra.engine_name).toBe('DuckDB');
  });

  it('SQLite: a missing file, and a query naming a missing schema', async () => {
    const missing = await testConnection(`sqlite:///${join(dir, 'absent.db')}`);
    expect(missing.status).toBe(400);
    expect(missing.body.errors[0]).toMatchObject({ error_type: 'CONNECTION_UNKNOWN_DATABASE_ERROR', level: 'error' });

    const file = join(dir, 'here.db');
    const Database = workerRequire('better-sqlite3') as new (path: string) => { exec(sql: string): void; close(): void };
    const made = new Database(file);
    made.exec('CREATE TABLE items (id INTEGER)');
    made.close();
    const db = await registerDatabase(t, admin, { database_name: 'sqlite_errors', sqlalchemy_uri: `sqlite:///${file}` });
    const id = clientId();
    const res = await t.http.post('/api/v1/sqllab/execute/').set(bearer(admin)).send({ database_id: db, sql: 'SELECT * FROM nosuch.items', client_id: id });
    expect(res.status).toBe(500);
    expect(res.body.errors[0]).toMatchObject({ error_type: 'SCHEMA_DOES_NOT_EXIST_ERROR', message: 'The schema "nosuch" does not exist. A valid schema must be used to run this query.', level: 'error' });
    expect(await queryState(t, admin, id)).toMatchObject({ state: 'failed' });
    // A missing table in an existing schema stays a missing table.
    const table = await t.http.post('/api/v1/sqllab/execute/').set(bearer(admin)).send({ database_id: db, sql: 'SELECT * FROM main.nope', client_id: clientId() });
    expect(table.body.errors[0].error_type).toBe('TABLE_DOES_NOT_EXIST_ERROR');
  });
});
