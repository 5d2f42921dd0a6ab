import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type MetadataKind, type TestApp } from '../helpers/app';

// A script's list calls (`q` with filters, order, page, page_size, columns) answered as Flask-AppBuilder's
// ModelRestApi answers them: its page size default, its cap, JSON accepted in `q`, and its 400s, each
// `{"message": "<text>"}` (FAB's response_400), which scripts print as they are.
describe.each<MetadataKind>(['pglite', 'postgres'])('list arguments as Flask-AppBuilder reads them (%s)', (metadata) => {
  let t: TestApp;
  let headers: Record<string, string>;
  const list = (path: string, q: string) => t.http.get(path).query({ q }).set(headers);

  beforeAll(async () => {
    t = await startTestApp({ metadata });
    const login = await t.http.post('/api/v1/security/login').send({ username: 'admin', password: 'admin', provider: 'db', refresh: true });
    const auth = { Authorization: `Bearer ${login.body.access_token}` };
    headers = { ...auth, 'X-CSRFToken': (await t.http.get('/api/v1/security/csrf_token/').set(auth)).body.result };
    for (let i = 1; i <= 22; i++) {
      const res = await t.http.post('/api/v1/css_template/').set(headers).send({ template_name: `Theme ${String(i).padStart(2, '0')}`, css: `body { order: ${i} }` });
      expect(res.status).toBe(201);
    }
  });
  afterAll(async () => {
    await t?.close();
  });

  it('gives 20 rows when no page size is asked (ModelRestApi.page_size), and the rest on the next page', async () => {
    const first = await t.http.get('/api/v1/css_template/').set(headers);
    expect(first.status).toBe(200);
    expect(first.body.count).toBe(22);
    expect(first.body.result).toHaveLength(20);
    const second = await list('/api/v1/css_template/', '(page:1)');
    expect(second.body.result).toHaveLength(2);
  });

  it('cuts a page size over the maximum to the maximum, and reads 0 as the maximum, instead of refusing it', async () => {
    for (const size of [5000, 0]) {
      const res = await list('/api/v1/css_template/', `(page_size:${size},columns:!(id))`);
      expect(res.status, res.text).toBe(200);
      expect(res.body.result).toHaveLength(22);
    }
  });

  it('reads q written as JSON, as FAB_API_ALLOW_JSON_QS does', async () => {
    const q = JSON.stringify({ filters: [{ col: 'template_name', opr: 'sw', value: 'Theme 1' }], order_column: 'template_name', order_direction: 'desc', columns: ['id', 'template_name'] });
    const res = await list('/api/v1/css_template/', q);
    expect(res.status, res.text).toBe(200);
    expect(res.body.result.map((r: { template_name: string }) => r.template_name)).toEqual(['Theme 19', 'Theme 18', 'Theme 17', 'Theme 16', 'Theme 15', 'Theme 14', 'Theme 13', 'Theme 12', 'Theme 11', 'Theme 10']);
    expect(Object.keys(res.body.result[0]).sort()).toEqual(['id', 'template_name']);
  });

  it("answers what it cannot take with FAB's 400 messages, as text", async () => {
    const cases: [string, string][] = [
      ['(filters:!((col:template_name,opr:eq', 'Not a valid rison/json argument'],
      ['(filters:!((col:nope,opr:eq,value:x)))', 'Filter column: nope not allowed to filter'],
      ['(filters:!((col:template_name,opr:zz,value:x)))', 'Filter operation: zz not allowed on column: template_name'],
      ['(order_column:nope,order_direction:asc)', 'Invalid order by column: nope'],
    ];
    for (const [q, message] of cases) {
      const res = await list('/api/v1/css_template/', q);
      expect(res.status, q).toBe(400);
      expect(res.body, q).toEqual({ message });
    }
    const schema = await list('/api/v1/css_template/', '(order_direction:sideways)');
    expect(schema.status).toBe(400);
    expect(schema.body.message).toMatch(/^Not a valid rison schema /);
  });

  it("answers an item GET with FAB's show metadata, narrowed by q's columns and keys", async () => {
    const id = (await list('/api/v1/css_template/', "(filters:!((col:template_name,opr:eq,value:'Theme 01')),columns:!(id))")).body.ids[0] as number;
    const whole = await t.http.get(`/api/v1/css_template/${id}`).set(headers);
    expect(whole.status).toBe(200);
    expect(whole.body).toMatchObject({ id, show_title: 'Show Css Template', description_columns: {}, result: { template_name: 'Theme 01', css: 'body { order: 1 }' } });
    expect(whole.body.show_columns).toEqual(Object.keys(whole.body.result));
    expect(whole.body.label_columns).toMatchObject({ template_name: 'Template Name' });
    const narrowed = await list(`/api/v1/css_template/${id}`, '(columns:!(id,template_name,nope),keys:!(show_columns))');
    expect(narrowed.body).toEqual({ id, result: { id, template_name: 'Theme 01' }, show_columns: ['id', 'template_name'] });
    // A dotted column picks inside a related object, as Superset's own screens ask (SQL Lab reads a dataset's database.id).
    const nested = await list(`/api/v1/css_template/${id}`, '(columns:!(template_name,created_by.first_name),keys:!(none))');
    expect(nested.body).toEqual({ id, result: { template_name: 'Theme 01', created_by: { first_name: whole.body.result.created_by.first_name } } });
    expect(typeof whole.body.result.created_by.first_name).toBe('string');
  });

  it('pages related/ answers as FAB does: 20 unless asked, an oversized page cut to the maximum', async () => {
    const roles = (await t.http.get('/api/v1/security/roles/').query({ q: '(filters:!((col:name,opr:eq,value:Gamma)))' }).set(headers)).body.ids as number[];
    for (let i = 1; i <= 21; i++) {
      const res = await t.http.post('/api/v1/security/users/').set(headers).send({ first_name: `Reader${i}`, last_name: 'Test', username: `reader${i}`, email: `reader${i}@example.com`, password: 'pw-12345', roles });
      expect(res.status, res.text).toBe(201);
    }
    const first = await t.http.get('/api/v1/css_template/related/created_by').set(headers);
    expect(first.status).toBe(200);
    expect(first.body.count).toBe(22);
    expect(first.body.result).toHaveLength(20);
    expect((await list('/api/v1/css_template/related/created_by', '(page_size:5000)')).body.result).toHaveLength(22);
  });

  it('bulk-deletes with a rison list and says how many; a bulk delete without a list is a 400 with text', async () => {
    const ids = (await list('/api/v1/css_template/', "(filters:!((col:template_name,opr:sw,value:'Theme 2')),columns:!(id))")).body.ids as number[];
    expect(ids).toHaveLength(3);
    const res = await t.http.delete('/api/v1/css_template/').query({ q: `!(${ids.join(',')})` }).set(headers);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ message: 'Deleted 3 css templates' });
    const bad = await t.http.delete('/api/v1/css_template/').query({ q: '(a:b)' }).set(headers);
    expect(bad.status).toBe(400);
    expect(typeof bad.body.message).toBe('string');
  });
});
