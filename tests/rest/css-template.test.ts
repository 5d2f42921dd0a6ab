import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app';
import { bearer } from './sqllab.helpers';

describe('/api/v1/css_template/ (Superset’s CssTemplateRestApi)', () => {
  let t: TestApp;
  let admin: string;

  beforeAll(async () => {
    t = await startTestApp();
    admin = await t.token();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('creates, lists, reads, updates and deletes templates, in the error envelope when wrong', async () => {
    const created = await t.http.post('/api/v1/css_template/').set(bearer(admin)).send({ template_name: 'Flat', css: '.dashboard { background: #fff; }' });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ id: expect.any(Number), result: { template_name: 'Flat', css: '.dashboard { background: #fff; }' } });
    const id = created.body.id;
    await t.http.post('/api/v1/css_template/').set(bearer(admin)).send({ template_name: 'Courier', css: 'body { font-family: Courier; }' });

    const list = await t.http.get('/api/v1/css_template/').query({ q: '(order_column:template_name,order_direction:asc)' }).set(bearer(admin));
    expect(list.body.count).toBe(2);
    expect(list.body.result.map((r: { template_name: string }) => r.template_name)).toEqual(['Courier', 'Flat']);
    expect(list.body.result[1]).toMatchObject({ id, created_by: { first_name: expect.any(String) }, changed_on_delta_humanized: expect.any(String) });
    const filtered = await t.http.get('/api/v1/css_template/').query({ q: '(filters:!((col:template_name,opr:ct,value:lat)))' }).set(bearer(admin));
    expect(filtered.body.ids).toEqual([id]);

    const updated = await t.http.put(`/api/v1/css_template/${id}`).set(bearer(admin)).send({ css: '.x { color: red; }' });
    expect(updated.body.result).toEqual({ template_name: 'Flat', css: '.x { color: red; }' });
    expect((await t.http.get(`/api/v1/css_template/${id}`).set(bearer(admin))).body.result.css).toBe('.x { color: red; }');

    // Flask-AppBuilder's default post (CssTemplateRestApi has none of its own) answers a bad body 422.
    const bad = await t.http.post('/api/v1/css_template/').set(bearer(admin)).send({ css: 'x' });
    expect(bad.status).toBe(422);
    expect(bad.body.message).toHaveProperty('template_name');
    expect((await t.http.get('/api/v1/css_template/9999').set(bearer(admin))).status).toBe(404);
    expect((await t.http.delete('/api/v1/css_template/').query({ q: `!(${id},9999)` }).set(bearer(admin))).status).toBe(404);
    expect((await t.http.get('/api/v1/css_template/').set(bearer(admin))).body.count).toBe(2);
    const info = await t.http.get('/api/v1/css_template/_info').query({ q: '(keys:!(permissions,add_columns))' }).set(bearer(admin));
    expect(info.body.permissions).toEqual(['can_read', 'can_write']);
    expect(info.body.add_columns.map((c: { name: string }) => c.name)).toEqual(['template_name', 'css']);

    expect((await t.http.delete(`/api/v1/css_template/${id}`).set(bearer(admin))).body).toEqual({ message: 'OK' });
    expect((await t.http.get('/api/v1/css_template/').set(bearer(admin))).body.count).toBe(1);
  });

  it('lets Gamma read templates but not write them', async () => {
    const gamma = await t.userWithRoles('gamma_css', ['Gamma']);
    expect((await t.http.get('/api/v1/css_template/').set(bearer(gamma))).status).toBe(200);
    expect((await t.http.post('/api/v1/css_template/').set(bearer(gamma)).send({ template_name: 'Nope' })).status).toBe(403);
    expect((await t.http.get('/api/v1/css_template/')).status).toBe(401);
  });
});
