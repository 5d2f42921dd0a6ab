import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMysqlDatabase, createPostgresDatabase } from '../../query-worker/src/testing/test-databases.ts';
import { startTestApp, type TestApp } from '../helpers/app';
import { bearer } from './sqllab.helpers';

// Superset's dynamic connect form over REST: /database/available/, /database/validate_parameters/, and a database
// created and edited from an engine's parameters, against the real PostgreSQL and MariaDB.
describe('database connection parameters (available, validate_parameters, POST/PUT with parameters)', () => {
  let t: TestApp;
  let admin: string;
  let pgDb: Awaited<ReturnType<typeof createPostgresDatabase>>;
  let myDb: Awaited<ReturnType<typeof createMysqlDatabase>>;

  beforeAll(async () => {
    [pgDb, myDb] = await Promise.all([createPostgresDatabase(), createMysqlDatabase()]);
    t = await startTestApp();
    admin = await t.token();
  });
  afterAll(async () => {
    await t?.close();
    await pgDb?.drop();
    await myDb?.drop();
  });

  const validate = (body: Record<string, unknown>) => t.http.post('/api/v1/database/validate_parameters/').set(bearer(admin)).send(body);
  const pgParams = () => ({ host: '127.0.0.1', port: 5432, database: pgDb.name, username: 'postgres', password: 's3cret' });
  const myParams = () => ({ host: '127.0.0.1', port: 3306, database: myDb.name, username: 'root', password: '' });

  it("lists the engines with each one's parameters as a JSON schema, to readers only", async () => {
    const res = await t.http.get('/api/v1/database/available/').set(bearer(admin));
    expect(res.status).toBe(200);
    expect(res.body.databases.map((d: { engine: string }) => d.engine)).toEqual(['postgresql', 'mysql', 'duckdb', 'sqlite']);
    const postgres = res.body.databases[0];
    expect(postgres).toMatchObject({ name: 'PostgreSQL', default_driver: 'psycopg2', sqlalchemy_uri_placeholder: expect.stringContaining('postgresql://') });
    expect(postgres.parameters.required).toEqual(['host', 'port', 'database', 'username']);
    expect(Object.keys(postgres.parameters.properties)).toEqual(['host', 'port', 'database', 'username', 'password', 'query', 'encryption']);
    expect(postgres.parameters.properties.port).toMatchObject({ type: 'integer', default: 5432 });
    expect(res.body.databases[2].parameters).toMatchObject({ required: ['database'], properties: { database: { type: 'string', description: 'Path to the database file' } } });
    expect((await t.http.get('/api/v1/database/available/')).status).toBe(401);
  });

  it('answers OK for parameters that connect to PostgreSQL and to MariaDB', async () => {
    const pgRes = await validate({ engine: 'postgresql', parameters: pgParams(), configuration_method: 'dynamic_form' });
    expect(pgRes.status).toBe(200);
    expect(pgRes.body).toEqual({ message: 'OK' });
    const myRes = await validate({ engine: 'mysql', parameters: myParams(), configuration_method: 'dynamic_form' });
    expect(myRes.status).toBe(200);
  });

  it('"One or more parameters are missing": 422 naming the missing ones, before anything is tried', async () => {
    const res = await validate({ engine: 'postgresql', parameters: { host: '127.0.0.1', port: 5432, database: '', username: '' } });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([
      expect.objectContaining({ message: 'One or more parameters are missing: database, username', error_type: 'CONNECTION_MISSING_PARAMETERS_ERROR', level: 'warning', extra: expect.objectContaining({ missing: ['database', 'username'] }) }),
    ]);
  });

  it('names the host that does not resolve, the port that is not a port and the port that is closed', async () => {
    const host = await validate({ engine: 'mysql', parameters: { ...myParams(), host: 'no-such-host.invalid' } });
    expect(host.status).toBe(422);
    expect(host.body.errors[0]).toMatchObject({ error_type: 'CONNECTION_INVALID_HOSTNAME_ERROR', message: "The hostname provided can't be resolved.", extra: { invalid: ['host'] } });
    const badPort = await validate({ engine: 'mysql', parameters: { ...myParams(), port: '33o6' } });
    expect(badPort.body.errors[0]).toMatchObject({ error_type: 'CONNECTION_INVALID_PORT_ERROR', message: 'Port must be a valid integer.' });
    const closed = await validate({ engine: 'postgresql', parameters: { ...pgParams(), port: 1 } });
    expect(closed.status).toBe(422);
    expect(closed.body.errors[0]).toMatchObject({ error_type: 'CONNECTION_PORT_CLOSED_ERROR', message: 'The port is closed.', extra: { invalid: ['port'] } });
  });

  it("gives the database's own refusal when the parameters reach it but do not connect (MariaDB, unknown database)", async () => {
    const res = await validate({ engine: 'mysql', parameters: { ...myParams(), database: 'no_such_database_here' } });
    expect(res.status).toBe(422);
    expect(res.body.errors.length).toBeGreaterThan(0);
    expect(JSON.stringify(res.body.errors)).toContain('no_such_database_here');
  });

  it('refuses an engine Meridian does not connect to', async () => {
    const res = await validate({ engine: 'oracle', parameters: { host: 'x' } });
    expect(res.status).toBe(422);
    expect(res.body.errors[0].message).toBe('Engine "oracle" is not a valid engine.');
  });

  it('creates a PostgreSQL database from parameters (URI built on the server, password masked) and edits it through them', async () => {
    const created = await t.http.post('/api/v1/database/').set(bearer(admin)).send({ database_name: 'pg from form', engine: 'postgresql', configuration_method: 'dynamic_form', parameters: pgParams() });
    expect(created.status).toBe(201);
    expect(created.body.result.sqlalchemy_uri).toBe(`postgresql://postgres:XXXXXXXXXX@127.0.0.1:5432/${pgDb.name}`);
    expect(created.body.result.parameters).toEqual({ host: '127.0.0.1', port: 5432, database: pgDb.name, username: 'postgres', password: 'XXXXXXXXXX', query: {}, encryption: false });
    expect(created.text).not.toContain('s3cret');
    const id = created.body.id;

    // The form sends the masked password back: the stored one is kept, the new query parameter is written.
    const put = await t.http
      .put(`/api/v1/database/${id}`)
      .set(bearer(admin))
      .send({ engine: 'postgresql', parameters: { ...pgParams(), password: 'XXXXXXXXXX', query: { application_name: 'meridian' } } });
    expect(put.status).toBe(200);
    expect(put.body.result.sqlalchemy_uri).toBe(`postgresql://postgres:XXXXXXXXXX@127.0.0.1:5432/${pgDb.name}?application_name=meridian`);
    const row = await t.services.db.selectFrom('dbs').select(['password_encrypted']).where('id', '=', id).executeTakeFirstOrThrow();
    expect(row.password_encrypted).not.toBeNull();
  });

  it('creates a MariaDB database from parameters, and refuses missing ones with 422 storing nothing', async () => {
    const created = await t.http.post('/api/v1/database/').set(bearer(admin)).send({ database_name: 'maria from form', engine: 'mysql', parameters: myParams() });
    expect(created.status).toBe(201);
    expect(created.body.result).toMatchObject({ backend: 'mysql', sqlalchemy_uri: `mysql://root@127.0.0.1:3306/${myDb.name}` });

    const before = (await t.http.get('/api/v1/database/').set(bearer(admin))).body.count;
    const neither = await t.http.post('/api/v1/database/').set(bearer(admin)).send({ database_name: 'no connection' });
    expect(neither.status).toBe(400);
    expect(neither.body.message).toEqual({ sqlalchemy_uri: ['Missing data for required field.'] });
    const badEngine = await t.http.post('/api/v1/database/').set(bearer(admin)).send({ database_name: 'bad engine', engine: 'oracle', parameters: {} });
    expect(badEngine.status).toBe(422);
    expect(badEngine.body.message).toEqual({ engine: ['Engine "oracle" is not a valid engine.'] });
    const missing = await t.http.post('/api/v1/database/').set(bearer(admin)).send({ database_name: 'half a form', engine: 'mysql', parameters: { host: '127.0.0.1', port: 3306 } });
    expect(missing.status).toBe(422);
    expect(missing.body.message).toEqual({ parameters: ['One or more parameters are missing: database, username'] });
    expect((await t.http.get('/api/v1/database/').set(bearer(admin))).body.count).toBe(before);
  });
});
