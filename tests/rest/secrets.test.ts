import JSZip from 'jszip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app';
import { createPgDatabase } from '../helpers/pg';
import { bearer, clientId } from './sqllab.helpers';

const USER_PASSWORD = 'Sam-pw-7731-secret';
const DB_PASSWORD = 'Db-pw-4417-secret';

/**
 * Issue 16: secrets are never logged and a database password is never answered in clear — the app's every log line
 * (debug and above) is kept while a user signs in, a database with a password is added, tested, read, exported and
 * queried (once failing), and none of it holds a password, a token or a session cookie.
 */
describe('secrets stay secret', () => {
  let t: TestApp;
  let data: Awaited<ReturnType<typeof createPgDatabase>>;
  const lines: string[] = [];
  let admin: string;
  let sam: string;
  let database: number;
  let cookie = '';

  beforeAll(async () => {
    data = await createPgDatabase();
    t = await startTestApp({ logLines: lines });
    admin = await t.token();
    const gamma = (await t.http.get('/api/v1/security/roles/?q=(filters:!((col:name,opr:eq,value:Gamma)))').set(bearer(admin))).body.result[0].id;
    const created = await t.http.post('/api/v1/security/users/').set(bearer(admin)).send({ first_name: 'Sam', last_name: 'Secret', username: 'sam', email: 'sam@example.com', password: USER_PASSWORD, roles: [gamma] });
    expect(created.status).toBe(201);
    sam = await t.token('sam', USER_PASSWORD);
    const login = await t.http.post('/login/').type('form').send({ username: 'sam', password: USER_PASSWORD });
    cookie = String(login.headers['set-cookie'] ?? '');
    // PostgreSQL here trusts local connections, so the password in the URI is carried, kept and masked, never checked.
    const uri = data.url.replace('postgresql://postgres@', `postgresql://postgres:${DB_PASSWORD}@`);
    const registered = await t.http.post('/api/v1/database/').set(bearer(admin)).send({ database_name: 'with a password', sqlalchemy_uri: uri, expose_in_sqllab: true });
    expect(registered.status, registered.text).toBe(201);
    database = registered.body.id;
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await data?.drop();
  });

  it('answers the database with its password masked: item, list, connection, export, a failed connection test', async () => {
    const answers = [
      await t.http.get(`/api/v1/database/${database}`).set(bearer(admin)),
      await t.http.get('/api/v1/database/').set(bearer(admin)),
      await t.http.get(`/api/v1/database/${database}/connection`).set(bearer(admin)),
      await t.http.post('/api/v1/database/test_connection/').set(bearer(admin)).send({ sqlalchemy_uri: `postgresql://nobody:${DB_PASSWORD}@127.0.0.1:1/nowhere`, database_name: 'broken' }),
      await t.http.post('/api/v1/sqllab/execute/').set(bearer(admin)).send({ database_id: database, sql: 'SELECT * FROM no_such_table', client_id: clientId(), runAsync: false }),
    ];
    answers.forEach((res, i) => expect(res.text, `answer ${i}`).not.toContain(DB_PASSWORD));
    expect(answers[2].body.result.sqlalchemy_uri).toContain('XXXXXXXXXX');
    const exported = await t.http.get(`/api/v1/database/export/?q=!(${database})`).set(bearer(admin)).buffer(true).parse((res, done) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => done(null, Buffer.concat(chunks)));
    });
    expect(exported.status).toBe(200);
    const zip = await JSZip.loadAsync(exported.body as Buffer);
    for (const file of Object.values(zip.files)) expect(await file.async('string'), file.name).not.toContain(DB_PASSWORD);
  });

  it('logs no password, token or session cookie', async () => {
    // A few more calls that log: a failed sign-in, a forbidden call, an unknown route.
    await t.http.post('/api/v1/security/login').send({ username: 'sam', password: `${USER_PASSWORD}-wrong`, provider: 'db' });
    await t.http.get('/api/v1/security/users/').set(bearer(sam));
    await t.http.get('/api/v1/nothing/here').set('Cookie', cookie);
    const text = lines.join('');
    expect(lines.length).toBeGreaterThan(10);
    const session = /session=([^;]+)/.exec(cookie)?.[1];
    expect(session).toBeTruthy();
    for (const secret of [USER_PASSWORD, DB_PASSWORD, admin, sam, session!]) {
      expect(text.includes(secret), `a log line holds ${secret.slice(0, 12)}…`).toBe(false);
    }
  });
});
