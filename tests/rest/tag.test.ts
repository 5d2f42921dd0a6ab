import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureTestExamples } from '../helpers/examples';
import { ensureExampleDatasets } from '../../server/src/dataset/example-datasets';
import { ensureExampleDashboards } from '../../server/src/dashboard/example-dashboards';
import { startTestApp, type TestApp } from '../helpers/app';
import { bearer } from './sqllab.helpers';

// Issue 14: tags (TAGGING_SYSTEM) as Superset's TagRestApi: CRUD, bulk create, tagging charts, dashboards and
// saved queries, tagged objects, favourites, and tag filters on the chart, dashboard and saved query lists.
describe('/api/v1/tag/', () => {
  let t: TestApp;
  let admin: string;
  let dir: string;
  let chart: number;
  let dashboard: number;
  let saved: number;
  const get = (path: string, q?: string, token = admin) => t.http.get(path).query(q ? { q } : {}).set(bearer(token));

  beforeAll(async () => {
    t = await startTestApp();
    admin = await t.token();
    dir = mkdtempSync(join(tmpdir(), 'meridian-tags-'));
    const db = (await ensureTestExamples(t.services, { path: join(dir, 'examples.duckdb'), salesRows: 50 })).id;
    await ensureExampleDatasets(t.services);
    await ensureExampleDashboards(t.services);
    chart = (await get('/api/v1/chart/')).body.ids[0];
    dashboard = (await get('/api/v1/dashboard/')).body.ids[0];
    saved = (await t.http.post('/api/v1/saved_query/').set(bearer(admin)).send({ db_id: db, label: 'Tagged query', sql: 'SELECT 1' })).body.id;
  });
  afterAll(async () => {
    await t?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('creates a tag on objects, lists, reads, renames and deletes tags', async () => {
    const created = await t.http.post('/api/v1/tag/').set(bearer(admin)).send({ name: 'finance', description: 'Money matters', objects_to_tag: [['chart', chart], ['dashboard', dashboard]] });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toEqual({ id: expect.any(Number), result: { name: 'finance', description: 'Money matters', objects_to_tag: [['chart', chart], ['dashboard', dashboard]] } });
    const id = created.body.id;
    expect((await t.http.post('/api/v1/tag/').set(bearer(admin)).send({ name: 'finance' })).status).toBe(422);
    expect((await t.http.post('/api/v1/tag/').set(bearer(admin)).send({ name: 'x', objects_to_tag: [['chart', 999999]] })).status).toBe(404);
    expect((await t.http.post('/api/v1/tag/').set(bearer(admin)).send({ name: 'x', objects_to_tag: [['table', 1]] })).status).toBe(400);

    const list = await get('/api/v1/tag/', '(filters:!((col:name,opr:ct,value:fin)))');
    expect(list.body).toMatchObject({ count: 1, ids: [id], result: [{ id, name: 'finance', type: 1, description: 'Money matters', created_by: { first_name: expect.any(String) }, changed_on_delta_humanized: expect.any(String) }] });
    expect((await get(`/api/v1/tag/${id}`)).body.result).toMatchObject({ id, name: 'finance' });
    const renamed = await t.http.put(`/api/v1/tag/${id}`).set(bearer(admin)).send({ name: 'money', objects_to_tag: [['chart', chart]] });
    expect(renamed.body).toEqual({ id, result: { name: 'money', description: 'Money matters', objects_to_tag: [['chart', chart]] } });
    const objects = await t.http.get('/api/v1/tag/get_objects/').query({ tags: 'money' }).set(bearer(admin));
    expect(objects.body.result).toEqual([expect.objectContaining({ id: chart, type: 'chart', url: `/explore/?slice_id=${chart}`, tags: [{ id, name: 'money', type: 1 }] })]);

    const other = (await t.http.post('/api/v1/tag/').set(bearer(admin)).send({ name: 'scratch' })).body.id;
    expect((await t.http.delete('/api/v1/tag/').query({ q: `!(${other})` }).set(bearer(admin))).body).toEqual({ message: 'Deleted 1 tag' });
    expect((await t.http.delete(`/api/v1/tag/${id}`).set(bearer(admin))).body).toEqual({ message: 'OK' });
    expect((await get(`/api/v1/tag/${id}`)).status).toBe(404);
    expect((await get(`/api/v1/chart/${chart}`)).body.result.tags).toEqual([]);
  });

  it('tags and untags objects by name, and the lists show and filter by tags', async () => {
    expect((await t.http.post(`/api/v1/tag/chart/${chart}/`).set(bearer(admin)).send({ properties: { tags: ['sales', 'weekly'] } })).status).toBe(201);
    expect((await t.http.post(`/api/v1/tag/3/${dashboard}/`).set(bearer(admin)).send({ tags: ['sales'] })).status).toBe(201);
    expect((await t.http.post(`/api/v1/tag/query/${saved}/`).set(bearer(admin)).send({ tags: ['sales'] })).status).toBe(201);
    const charts = await get('/api/v1/chart/', '(filters:!((col:tags,opr:chart_tags,value:week)))');
    expect(charts.body.ids).toEqual([chart]);
    expect(charts.body.result[0].tags.map((tg: { name: string }) => tg.name)).toEqual(['sales', 'weekly']);
    expect((await get('/api/v1/dashboard/', '(filters:!((col:tags,opr:dashboard_tags,value:sales)))')).body.ids).toEqual([dashboard]);
    const queries = await get('/api/v1/saved_query/', '(filters:!((col:tags,opr:saved_query_tags,value:sales)))');
    expect(queries.body.ids).toEqual([saved]);
    expect(queries.body.result[0].tags).toEqual([expect.objectContaining({ name: 'sales' })]);
    const salesId = (await get('/api/v1/tag/', '(filters:!((col:name,opr:eq,value:sales)))')).body.ids[0];
    expect((await get('/api/v1/chart/', `(filters:!((col:tags,opr:chart_tag_id,value:${salesId})))`)).body.ids).toEqual([chart]);
    const all = await t.http.get('/api/v1/tag/get_objects/').query({ tagIds: String(salesId), types: 'chart,dashboard,query' }).set(bearer(admin));
    expect(all.body.result.map((o: { type: string; id: number }) => `${o.type}:${o.id}`).sort()).toEqual([`chart:${chart}`, `dashboard:${dashboard}`, `query:${saved}`].sort());

    expect((await t.http.delete(`/api/v1/tag/chart/${chart}/weekly/`).set(bearer(admin))).body).toEqual({ message: 'OK' });
    expect((await t.http.delete(`/api/v1/tag/chart/${chart}/weekly/`).set(bearer(admin))).status).toBe(404);
    expect((await get(`/api/v1/chart/${chart}`)).body.result.tags.map((tg: { name: string }) => tg.name)).toEqual(['sales']);
    // A PUT with tag ids sets the object's custom tags, as Superset's chart and dashboard PUT do.
    const weekly = (await get('/api/v1/tag/', '(filters:!((col:name,opr:eq,value:weekly)))')).body.ids[0];
    expect((await t.http.put(`/api/v1/chart/${chart}`).set(bearer(admin)).send({ tags: [weekly] })).status).toBe(200);
    expect((await get(`/api/v1/chart/${chart}`)).body.result.tags.map((tg: { name: string }) => tg.name)).toEqual(['weekly']);
    expect((await t.http.put(`/api/v1/dashboard/${dashboard}`).set(bearer(admin)).send({ tags: [999999] })).status).toBe(422);
  });

  it('bulk-creates tags, skipping objects out of reach, and keeps favourites per user', async () => {
    const bulk = await t.http.post('/api/v1/tag/bulk_create').set(bearer(admin)).send({ tags: [{ name: 'q4', objects_to_tag: [['chart', chart], ['chart', 999999]] }, { name: 'board', objects_to_tag: [['dashboard', dashboard]] }] });
    expect(bulk.status, bulk.text).toBe(200);
    expect(bulk.body).toEqual({ result: { objects_tagged: [['chart', chart], ['dashboard', dashboard]], objects_skipped: [['chart', 999999]] } });
    const q4 = (await get('/api/v1/tag/', '(filters:!((col:name,opr:eq,value:q4)))')).body.ids[0];
    expect((await t.http.post(`/api/v1/tag/${q4}/favorites/`).set(bearer(admin))).body).toEqual({ result: 'OK' });
    expect((await get('/api/v1/tag/favorite_status/', `!(${q4})`)).body).toEqual({ result: [{ id: q4, value: true }] });
    await t.http.delete(`/api/v1/tag/${q4}/favorites/`).set(bearer(admin));
    expect((await get('/api/v1/tag/favorite_status/', `!(${q4})`)).body).toEqual({ result: [{ id: q4, value: false }] });
  });

  it('lets Gamma read tags but not write them, and answers _info and related', async () => {
    const gamma = await t.userWithRoles('gamma_tags', ['Gamma']);
    expect((await get('/api/v1/tag/', undefined, gamma)).status).toBe(200);
    expect((await t.http.post('/api/v1/tag/').set(bearer(gamma)).send({ name: 'mine' })).status).toBe(403);
    expect((await t.http.post(`/api/v1/tag/chart/${chart}/`).set(bearer(gamma)).send({ tags: ['mine'] })).status).toBe(403);
    expect((await get('/api/v1/tag/_info', '(keys:!(permissions))')).body).toEqual({ permissions: ['can_read', 'can_write'] });
    expect((await get('/api/v1/tag/related/created_by')).body.result.length).toBeGreaterThan(0);
  });
});
