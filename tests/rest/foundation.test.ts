import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateToLatest } from '../../server/src/db/database';
import { startTestApp, type MetadataKind, type TestApp } from '../helpers/app';

// The same suite runs with the metadata store on PGlite and on the real PostgreSQL.
describe.each<MetadataKind>(['pglite', 'postgres'])('foundation on %s', (metadata) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ metadata });
  });
  afterAll(async () => t?.close());

  it('runs migrations from empty, and a second run changes nothing', async () => {
    expect(await migrateToLatest(t.services.db)).toEqual([]);
    const tables = await t.services.db.introspection.getTables();
    expect(tables.map((x) => x.name)).toEqual(expect.arrayContaining(['ab_user', 'dbs', 'tables', 'query', 'saved_query', 'tab_state', 'slices', 'dashboards', 'report_schedule', 'key_value', 'logs']));
  });

  it('logs in with a token and answers /api/v1/me/ for it, 401 without it', async () => {
    const login = await t.http.post('/api/v1/security/login').send({ username: 'admin', password: 'admin', provider: 'db', refresh: true });
    expect(login.status).toBe(200);
    expect(login.body).toEqual({ access_token: expect.any(String), refresh_token: expect.any(String) });
    const me = await t.http.get('/api/v1/me/').set('Authorization', `Bearer ${login.body.access_token}`);
    expect(me.status).toBe(200);
    expect(me.body.result).toMatchObject({ username: 'admin', first_name: 'Admin', is_active: true });
    const anonymous = await t.http.get('/api/v1/me/');
    expect(anonymous.status).toBe(401);
    const roles = await t.http.get('/api/v1/me/roles/').set('Authorization', `Bearer ${login.body.access_token}`);
    expect(Object.keys(roles.body.result.roles)).toEqual(['Admin']);
  });

  it('refreshes an access token with the refresh token only', async () => {
    const login = await t.http.post('/api/v1/security/login').send({ username: 'admin', password: 'admin', provider: 'db', refresh: true });
    const refreshed = await t.http.post('/api/v1/security/refresh').set('Authorization', `Bearer ${login.body.refresh_token}`);
    expect(refreshed.status).toBe(200);
    const me = await t.http.get('/api/v1/me/').set('Authorization', `Bearer ${refreshed.body.access_token}`);
    expect(me.body.result.username).toBe('admin');
    const withAccess = await t.http.post('/api/v1/security/refresh').set('Authorization', `Bearer ${login.body.access_token}`);
    expect(withAccess.status).toBe(401);
  });

  it('refuses expired, forged and wrong-kind tokens and sessions on both doors, and an expired refresh token', async () => {
    // Tokens as Meridian signs them (HS256 with SECRET_KEY), but already past their expiry.
    const key = new TextEncoder().encode('test-secret');
    const token = (type: string, exp: number, secret = key) =>
      new SignJWT({ type, ...(type === 'session' ? { sid: 's1' } : {}) }).setProtectedHeader({ alg: 'HS256' }).setSubject('1').setIssuedAt(exp - 60).setExpirationTime(exp).sign(secret);
    const past = Math.floor(Date.now() / 1000) - 5;
    const future = Math.floor(Date.now() / 1000) + 600;
    const rest = (auth: Record<string, string>) => t.http.get('/api/v1/me/').set(auth);
    const trpc = (auth: Record<string, string>) => t.http.get('/trpc/home.overview').set(auth);
    const valid = await token('access', future);
    expect((await rest({ Authorization: `Bearer ${valid}` })).status).toBe(200);
    expect((await trpc({ Authorization: `Bearer ${valid}` })).status).toBe(200);
    const refused: Array<Record<string, string>> = [
      { Authorization: `Bearer ${await token('access', past)}` },
      { Authorization: `Bearer ${await token('access', future, new TextEncoder().encode('another-secret'))}` },
      { Authorization: `Bearer ${await token('refresh', future)}` },
      { Cookie: `session=${await token('session', past)}` },
      { Cookie: `session=${await token('access', future)}` },
    ];
    for (const auth of refused) {
      expect((await rest(auth)).status, JSON.stringify(auth)).toBe(401);
      expect((await trpc(auth)).status, JSON.stringify(auth)).toBe(401);
    }
    expect((await rest({ Cookie: `session=${await token('session', future)}` })).status).toBe(200);
    expect((await t.http.post('/api/v1/security/refresh').set('Authorization', `Bearer ${await token('refresh', past)}`)).status).toBe(401);
  });

  it('refuses a wrong password with 401 and validates the login body with a field map', async () => {
    const wrong = await t.http.post('/api/v1/security/login').send({ username: 'admin', password: 'nope', provider: 'db' });
    expect(wrong.status).toBe(401);
    const missing = await t.http.post('/api/v1/security/login').send({ username: 'admin' });
    expect(missing.status).toBe(400);
    expect(missing.body.message.password).toEqual(['Missing data for required field.']);
  });

  it('gives 403 Forbidden to a Gamma user creating a user, and creates nothing', async () => {
    const gamma = await t.userWithRoles(`gamma_${metadata}`, ['Gamma']);
    const res = await t.http
      .post('/api/v1/security/users/')
      .set('Authorization', `Bearer ${gamma}`)
      .send({ first_name: 'X', last_name: 'Y', username: 'sneaky', email: 'sneaky@example.com', password: 'pw', roles: [1] });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ message: 'Forbidden' });
    const admin = await t.token();
    const list = await t.http.get(`/api/v1/security/users/?q=(filters:!((col:username,opr:eq,value:sneaky)))`).set('Authorization', `Bearer ${admin}`);
    expect(list.body.count).toBe(0);
  });

  it('refuses a cookie-authenticated POST without the CSRF token with 400, and accepts it with the token', async () => {
    const agent = (await import('supertest')).default.agent(t.app.server);
    const login = await agent.post('/login/').send({ username: 'admin', password: 'admin' });
    expect(login.status).toBe(200);
    expect(login.headers['set-cookie'][0]).toMatch(/HttpOnly/i);
    expect(login.headers['set-cookie'][0]).toMatch(/SameSite=Lax/i);
    const body = { first_name: 'C', last_name: 'S', username: `csrf_${metadata}`, email: `csrf_${metadata}@example.com`, password: 'pw', roles: [1] };
    const refused = await agent.post('/api/v1/security/users/').send(body);
    expect(refused.status).toBe(400);
    const { body: csrf } = await agent.get('/api/v1/security/csrf_token/');
    expect(typeof csrf.result).toBe('string');
    const accepted = await agent.post('/api/v1/security/users/').set('X-CSRFToken', csrf.result).send(body);
    expect(accepted.status).toBe(201);
    expect(accepted.body.result.username).toBe(`csrf_${metadata}`);
  });

  it('answers a CSRF token to a bearer-token caller too, the menu its roles reach, no domains and no avatars', async () => {
    const admin = await t.token();
    const csrf = await t.http.get('/api/v1/security/csrf_token/').set('Authorization', `Bearer ${admin}`);
    expect(typeof csrf.body.result).toBe('string');
    // A script sends it back as Superset's do: the call goes through.
    const sent = await t.http.post('/api/v1/security/users/').set('Authorization', `Bearer ${admin}`).set('X-CSRFToken', csrf.body.result).send({ first_name: 'B', last_name: 'C', username: `bearer_csrf_${metadata}`, email: `bearer_csrf_${metadata}@example.com`, password: 'pw', roles: [1] });
    expect(sent.status).toBe(201);

    const menu = await t.http.get('/api/v1/menu/').set('Authorization', `Bearer ${admin}`);
    expect(menu.status).toBe(200);
    expect(menu.body.result.map((m: { name: string }) => m.name)).toEqual(['SQL', 'Charts', 'Dashboards', 'Datasets', 'Settings']);
    const gamma = await t.userWithRoles(`menu_gamma_${metadata}`, ['Gamma']);
    const gammaMenu = (await t.http.get('/api/v1/menu/').set('Authorization', `Bearer ${gamma}`)).body.result as Array<{ name: string; childs?: Array<{ name: string }> }>;
    // A Gamma's Settings holds only what its role reaches: its own alerts and reports.
    expect(gammaMenu.find((m) => m.name === 'Settings')?.childs?.map((c) => c.name)).toEqual(['Alerts & Report']);
    expect(gammaMenu.flatMap((m) => m.childs ?? []).map((c) => c.name)).not.toContain('SQL Lab');

    expect((await t.http.get('/api/v1/available_domains/').set('Authorization', `Bearer ${admin}`)).body).toEqual({ result: { domains: [] } });
    const avatar = await t.http.get('/api/v1/user/1/avatar.png').set('Authorization', `Bearer ${admin}`);
    expect(avatar.status).toBe(404);
    expect((await t.http.get('/api/v1/user/1/avatar.png')).status).toBe(401);
  });

  it('converts values of the internet address and port advanced data types, IPv6 with all its digits', async () => {
    const admin = await t.token();
    const get = (path: string) => t.http.get(path).set('Authorization', `Bearer ${admin}`);
    expect((await get('/api/v1/advanced_data_type/types')).body).toEqual({ result: ['internet_address', 'port'] });
    const ipv4 = await get("/api/v1/advanced_data_type/convert?q=(type:internet_address,values:!('10.0.0.0/30','10.0.0.7'))");
    expect(ipv4.status).toBe(200);
    expect(ipv4.body.result).toEqual({ error_message: '', values: [{ start: 167772160, end: 167772163 }, 167772167], display_value: '167772160 - 167772163, 167772167', valid_filter_operators: ['==', '>=', '>', 'IN', '<', '<='] });
    const ipv6 = await get("/api/v1/advanced_data_type/convert?q=(type:internet_address,values:!('2001:db8::1'))");
    expect(ipv6.text).toContain('"values":[42540766411282592856903984951653826561]');
    const ports = await get("/api/v1/advanced_data_type/convert?q=(type:port,values:!(https,'8080'))");
    expect(ports.body.result.values).toEqual([[443], [8080]]);
    const bad = await get("/api/v1/advanced_data_type/convert?q=(type:port,values:!('99999'))");
    expect(bad.body.result.error_message).toBe("'99999' does not appear to be a port name or number");
    const unknown = await get("/api/v1/advanced_data_type/convert?q=(type:mac_address,values:!(x))");
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toBe('Invalid advanced data type: mac_address');
  });

  it('lists users with rison filters, ordering and paging in Superset shape', async () => {
    const admin = await t.token();
    for (const name of ['list_a', 'list_b', 'list_c']) await t.userWithRoles(`${name}_${metadata}`, ['Alpha']);
    const res = await t.http
      .get(`/api/v1/security/users/?q=(filters:!((col:username,opr:sw,value:list_)),order_column:username,order_direction:desc,page:0,page_size:2)`)
      .set('Authorization', `Bearer ${admin}`);
    expect(res.status).toBe(200);
    expect(res.body.count).toBe(3);
    expect(res.body.result.map((u: { username: string }) => u.username)).toEqual([`list_c_${metadata}`, `list_b_${metadata}`]);
    expect(res.body.ids).toHaveLength(2);
    expect(res.body.result[0].roles).toEqual([{ id: expect.any(Number), name: 'Alpha' }]);
    const bad = await t.http.get(`/api/v1/security/users/?q=(filters:!((col:password,opr:eq,value:x)))`).set('Authorization', `Bearer ${admin}`);
    expect(bad.status).toBe(400);
    const malformed = await t.http.get(`/api/v1/security/users/?q=(filters:!((`).set('Authorization', `Bearer ${admin}`);
    expect(malformed.status).toBe(400);
  });

  it('refuses a duplicate username with 422 and keeps the stored user unchanged', async () => {
    const admin = await t.token();
    const res = await t.http
      .post('/api/v1/security/users/')
      .set('Authorization', `Bearer ${admin}`)
      .send({ first_name: 'Dup', last_name: 'User', username: 'admin', email: 'other@example.com', password: 'pw', roles: [1] });
    expect(res.status).toBe(422);
    const me = await t.http.get('/api/v1/me/').set('Authorization', `Bearer ${admin}`);
    expect(me.body.result.first_name).toBe('Admin');
  });

  it('deactivates a user, who can then no longer log in', async () => {
    const admin = await t.token();
    await t.userWithRoles(`leaver_${metadata}`, ['Gamma']);
    const list = await t.http.get(`/api/v1/security/users/?q=(filters:!((col:username,opr:eq,value:leaver_${metadata})))`).set('Authorization', `Bearer ${admin}`);
    const id = list.body.ids[0];
    const put = await t.http.put(`/api/v1/security/users/${id}`).set('Authorization', `Bearer ${admin}`).send({ active: false });
    expect(put.status).toBe(200);
    expect(put.body.result.active).toBe(false);
    const login = await t.http.post('/api/v1/security/login').send({ username: `leaver_${metadata}`, password: 'pw', provider: 'db' });
    expect(login.status).toBe(401);
  });

  it('renames a user by username alone (the other field is not compared), and refuses a taken one with 422', async () => {
    const admin = await t.token();
    await t.userWithRoles(`renamed_${metadata}`, ['Gamma']);
    const id = (await t.http.get(`/api/v1/security/users/?q=(filters:!((col:username,opr:eq,value:renamed_${metadata})))`).set('Authorization', `Bearer ${admin}`)).body.ids[0];
    // It was a 500: the email left out was compared as a NUL character, which PostgreSQL refuses in text.
    const put = await t.http.put(`/api/v1/security/users/${id}`).set('Authorization', `Bearer ${admin}`).send({ username: `renamed2_${metadata}` });
    expect(put.status).toBe(200);
    expect(put.body.result.username).toBe(`renamed2_${metadata}`);
    const taken = await t.http.put(`/api/v1/security/users/${id}`).set('Authorization', `Bearer ${admin}`).send({ username: 'admin' });
    expect(taken.status).toBe(422);
    expect(taken.body.message).toEqual({ username: ['A user with this username already exists.'] });
  });

  it('answers unknown ids with 404 and shows roles with their permissions', async () => {
    const admin = await t.token();
    expect((await t.http.get('/api/v1/security/users/999999').set('Authorization', `Bearer ${admin}`)).status).toBe(404);
    const roles = await t.http.get('/api/v1/security/roles/').set('Authorization', `Bearer ${admin}`);
    expect(roles.body.result.map((r: { name: string }) => r.name)).toEqual(expect.arrayContaining(['Admin', 'Alpha', 'Gamma', 'sql_lab', 'Public']));
    const gamma = roles.body.result.find((r: { name: string }) => r.name === 'Gamma');
    expect(gamma.permissions).toEqual(expect.arrayContaining([{ id: expect.any(Number), permission_name: 'can_read', view_menu_name: 'Chart' }]));
  });

  it('serves an OpenAPI document generated from the route schemas, and /health', async () => {
    const doc = await t.http.get('/api/v1/_openapi');
    expect(doc.body.openapi).toBe('3.1.0');
    expect(doc.body.paths['/api/v1/security/login'].post.requestBody.content['application/json'].schema.properties).toHaveProperty('username');
    expect(doc.body.paths['/api/v1/security/users/'].post.description).toBe('Needs `can_write` on `User` (403 otherwise, checked before the input).');
    const health = await t.http.get('/health');
    expect(health.text).toBe('OK');
    // Every answer says how long the server spent on it.
    expect(health.headers['server-timing']).toMatch(/^app;dur=\d+(\.\d)?$/);
    const page = await t.http.get('/swagger/v1');
    expect(page.status).toBe(200);
    // Every asset the page loads is served (bundled, no CDN), its start script too (no inline script under the CSP).
    const assets = [...page.text.matchAll(/(?:href|src)="([^"]+)"/g)].map((m) => m[1]);
    expect(assets).toEqual(['/swagger/assets/swagger-ui.css', '/swagger/assets/swagger-ui-bundle.js', '/swagger/v1/init.js']);
    expect((await t.http.get('/swagger/v1/init.js')).text).toContain('validatorUrl: null');
    for (const asset of assets) {
      const res = await t.http.get(asset);
      expect(res.status, asset).toBe(200);
      expect(res.headers['content-type'], asset).toMatch(asset.endsWith('.css') ? /text\/css/ : /javascript/);
    }
  });
});
