import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app';
import { bearer } from './sqllab.helpers';

// Issue 14: /api/v1/log/ as Superset's LogRestApi — every call that changes something lands in the action
// log (who, what, which object, how long); admins read it, everyone signed in posts their client events.
describe('/api/v1/log/ (the action log)', () => {
  let t: TestApp;
  let admin: string;
  let gamma: string;
  const get = (path: string, token = admin, q?: string) => t.http.get(path).query(q ? { q } : {}).set(bearer(token));

  /** The server writes its entries after answering; wait until one shows up. */
  async function entry(q: string): Promise<Record<string, unknown>> {
    for (let i = 0; i < 50; i++) {
      const list = await get('/api/v1/log/', admin, q);
      if (list.body.count > 0) return list.body.result[0];
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`no log entry for ${q}`);
  }

  beforeAll(async () => {
    t = await startTestApp();
    admin = await t.token();
    gamma = await t.userWithRoles('gamma_log', ['Gamma']);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('records a REST write with its user, route, object and duration, and leaves reads out', async () => {
    const created = await t.http.post('/api/v1/css_template/').set(bearer(admin)).send({ template_name: 'Logged', css: '' });
    expect(created.status).toBe(201);
    await t.http.put(`/api/v1/css_template/${created.body.id}`).set(bearer(admin)).set('Referer', 'http://localhost/csstemplatemodelview/list/').send({ css: 'a {}' });
    const put = await entry("(filters:!((col:action,opr:eq,value:'PUT /api/v1/css_template/:pk')))");
    expect(put).toMatchObject({ user_id: expect.any(Number), user: { username: 'admin' }, referrer: 'http://localhost/csstemplatemodelview/list/', duration_ms: expect.any(Number), dttm: expect.any(String) });
    expect(JSON.parse(put.json as string)).toEqual({ path: `/api/v1/css_template/${created.body.id}`, status: 200, object_id: created.body.id });
    expect((await get('/api/v1/log/', admin, "(filters:!((col:action,opr:sw,value:'GET')))")).body.count).toBe(0);

    // A refused write is logged too, with its status.
    expect((await t.http.post('/api/v1/css_template/').set(bearer(gamma)).send({ template_name: 'Nope' })).status).toBe(403);
    const refused = await entry("(filters:!((col:action,opr:eq,value:'POST /api/v1/css_template/'),(col:user,opr:rel_o_m,value:" + (await userId('gamma_log')) + ')))');
    expect(JSON.parse(refused.json as string).status).toBe(403);

    const one = await get(`/api/v1/log/${put.id}`);
    expect(one.body.result).toEqual(put);
    expect(one.body).toMatchObject({ id: put.id, show_title: 'Show Log' });
    expect((await get('/api/v1/log/999999')).status).toBe(404);
  });

  it('takes client events from anyone signed in, as a list or as JSON text', async () => {
    const posted = await t.http
      .post('/api/v1/log/')
      .set(bearer(gamma))
      .send({ events: [{ event_name: 'mount_dashboard', source: 'dashboard', source_id: 5, duration: 120 }, { event_name: 'load_chart', slice_id: 9 }] });
    expect(posted.status).toBe(201);
    expect(posted.body.result.ids).toHaveLength(2);
    const asText = await t.http.post('/api/v1/log/').set(bearer(gamma)).send({ events: JSON.stringify([{ event_name: 'spa_navigation', path: '/chart/list/' }]) });
    expect(asText.status).toBe(201);
    const mount = await entry("(filters:!((col:action,opr:eq,value:mount_dashboard)))");
    expect(mount).toMatchObject({ dashboard_id: 5, duration_ms: 120, user: { username: 'gamma_log' } });
    expect(await entry('(filters:!((col:slice_id,opr:eq,value:9)))')).toMatchObject({ action: 'load_chart' });

    const bad = await t.http.post('/api/v1/log/').set(bearer(gamma)).send({ events: 'not json' });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toEqual({ events: ['Not a valid JSON list of events.'] });
    // A NUL character escaped in the batch's text (PostgreSQL refuses it when stored; it was a 500).
    const nul = await t.http.post('/api/v1/log/').set(bearer(gamma)).send({ events: JSON.stringify([{ event_name: 'spa\u0000navigation' }]) });
    expect(nul.status).toBe(400);
    expect(nul.body.message).toEqual({ 'events.0.event_name': ['Text may not contain NUL characters.'] });
    expect((await t.http.post('/api/v1/log/').send({ events: [] })).status).toBe(401);
  });

  it('is read by admins only', async () => {
    for (const path of ['/api/v1/log/', '/api/v1/log/_info', '/api/v1/log/1']) {
      const refused = await get(path, gamma);
      expect(refused.status, path).toBe(403);
      expect(refused.body).toHaveProperty('message');
    }
    const info = await get('/api/v1/log/_info', admin, '(keys:!(permissions))');
    expect(info.body).toEqual({ permissions: ['can_read', 'can_write'] });
  });

  async function userId(username: string): Promise<number> {
    const users = await get('/api/v1/security/users/', admin, `(filters:!((col:username,opr:eq,value:${username})))`);
    return users.body.result[0].id;
  }

  it('takes Superset event batches at /superset/log/?explode=events: JSON, form or beacon multipart, without a CSRF token, from guests too', async () => {
    const json = await t.http.post('/superset/log/?explode=events').set(bearer(gamma)).send({ events: [{ event_name: 'load_chart', source: 'dashboard', source_id: 11, slice_id: 22, duration: 5 }] });
    expect(json.status, json.text).toBe(200);
    expect(json.body).toEqual({ message: 'OK', count: 1 });
    expect(await entry("(filters:!((col:action,opr:eq,value:load_chart)))")).toMatchObject({ dashboard_id: 11, slice_id: 22, duration_ms: 5, user: { username: 'gamma_log' } });

    const form = await t.http.post('/superset/log/?explode=events').set(bearer(gamma)).type('form').send({ events: JSON.stringify([{ event_name: 'spa_navigation', source: 'spa', path: '/chart/list/' }]) });
    expect(form.body.count).toBe(1);
    // A browser's beacon: the session cookie, a multipart body, no CSRF header.
    const login = await t.http.post('/login/').type('form').send({ username: 'admin', password: 'admin' });
    const cookie = login.headers['set-cookie'];
    const beacon = await t.http.post('/superset/log/?explode=events').set('Cookie', cookie).field('events', JSON.stringify([{ event_name: 'mount_dashboard', source: 'dashboard', source_id: 33 }, { event_name: 'mount_explorer', source: 'explore', source_id: 44 }]));
    expect(beacon.status, beacon.text).toBe(200);
    expect(beacon.body.count).toBe(2);
    expect(await entry("(filters:!((col:action,opr:eq,value:mount_explorer)))")).toMatchObject({ slice_id: 44, user: { username: 'admin' } });

    // An embedded dashboard's guest: its token as a field of the beacon; logged without a user.
    const admin2 = await t.token();
    const board = (await t.http.post('/api/v1/dashboard/').set(bearer(admin2)).send({ dashboard_title: 'Embedded board' })).body.id;
    const embedded = (await t.http.post(`/api/v1/dashboard/${board}/embedded`).set(bearer(admin2)).send({ allowed_domains: [] })).body.result.uuid;
    const guestToken = (await t.http.post('/api/v1/security/guest_token/').set(bearer(admin2)).send({ user: { username: 'visitor' }, resources: [{ type: 'dashboard', id: embedded }], rls: [] })).body.token;
    const guest = await t.http.post('/superset/log/?explode=events').field('events', JSON.stringify([{ event_name: 'guest_view', source: 'dashboard', source_id: board }])).field('guest_token', guestToken);
    expect(guest.status, guest.text).toBe(200);
    expect(await entry("(filters:!((col:action,opr:eq,value:guest_view)))")).toMatchObject({ dashboard_id: board, user_id: null });

    expect((await t.http.post('/superset/log/?explode=events').field('events', '[]')).status).toBe(401);
    expect((await t.http.post('/superset/log/?explode=events').field('events', '[]').field('guest_token', 'not-a-token')).status).toBe(401);
    expect((await t.http.post('/superset/log/?explode=events').set(bearer(gamma)).field('events', '{oops')).status).toBe(400);
    // One event as the form's own fields, with a NUL character: refused, as in JSON (it answered 500 when stored).
    const nul = await t.http.post('/superset/log/').set(bearer(gamma)).field('event_name', 'a\u0000b');
    expect(nul.status, nul.text).toBe(400);
    expect(nul.body.message).toEqual({ 'events.0.event_name': ['Text may not contain NUL characters.'] });
  });
});

