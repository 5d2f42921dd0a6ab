import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app';

describe('home page data', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => t?.close());

  it("lists the user's chart and dashboard views and the SQL they ran, each once at its latest time, newest first, and only theirs", async () => {
    const { db } = t.services;
    const hoursAgo = (h: number) => new Date(Date.now() - h * 3600_000);
    const chart = await db.insertInto('slices').values({ slice_name: 'Births by state', changed_by_fk: 1 }).returning('id').executeTakeFirstOrThrow();
    const dashboard = await db.insertInto('dashboards').values({ dashboard_title: 'Sales', changed_by_fk: 1 }).returning('id').executeTakeFirstOrThrow();
    await db
      .insertInto('logs')
      .values([
        { action: 'explore', user_id: 1, slice_id: chart.id, dttm: hoursAgo(5) },
        { action: 'explore', user_id: 1, slice_id: chart.id, dttm: hoursAgo(1) },
        { action: 'dashboard', user_id: 1, dashboard_id: dashboard.id, dttm: hoursAgo(3) },
      ])
      .execute();
    const database = await db.selectFrom('dbs').select('id').executeTakeFirst();
    const dbId = database?.id ?? (await db.insertInto('dbs').values({ database_name: 'home_db', sqlalchemy_uri: 'sqlite://' }).returning('id').executeTakeFirstOrThrow()).id;
    for (const h of [4, 2]) {
      await db.insertInto('query').values({ client_id: `home${h}`, database_id: dbId, user_id: 1, sql: 'SELECT name,\n  num FROM birth_names', changed_on: hoursAgo(h) }).execute();
    }
    await t.userWithRoles('other_home', ['Alpha']);
    const other = await db.selectFrom('ab_user').select('id').where('username', '=', 'other_home').executeTakeFirstOrThrow();
    await db.insertInto('logs').values({ action: 'explore', user_id: other.id, slice_id: chart.id, dttm: new Date() }).execute();

    const token = await t.token();
    const res = await t.http.get('/api/v1/log/recent_activity/?q=(page_size:10)').set('Authorization', `Bearer ${token}`);
    expect(res.status).toBe(200);
    expect(res.body.result.map((r: { item_type: string; item_title: string }) => [r.item_type, r.item_title])).toEqual([
      ['slice', 'Births by state'],
      ['query', 'SELECT name, num FROM birth_names'],
      ['dashboard', 'Sales'],
    ]);
    expect(res.body.result[0]).toMatchObject({ action: 'explore', item_url: `/explore/?slice_id=${chart.id}`, time_delta_humanized: 'an hour ago' });
    expect(res.body.result[2]).toMatchObject({ action: 'dashboard', item_url: `/superset/dashboard/${dashboard.id}/` });

    const all = await t.http.get('/api/v1/log/recent_activity/?q=(distinct:!f,page_size:10)').set('Authorization', `Bearer ${token}`);
    expect(all.body.result.filter((r: { item_type: string }) => r.item_type === 'slice')).toHaveLength(2);
    expect(all.body.result.filter((r: { item_type: string }) => r.item_type === 'query')).toHaveLength(2);
    expect((await t.http.get('/api/v1/log/recent_activity/')).status).toBe(401);
  });

  it("filters saved queries by the caller's favourites (saved_query_is_fav) and by creator, as the home's Saved queries tabs call them", async () => {
    const { db } = t.services;
    const starred = await db.insertInto('saved_query').values({ label: 'Starred revenue', sql: 'select 1', user_id: 1, created_by_fk: 1, changed_by_fk: 1 }).returning('id').executeTakeFirstOrThrow();
    await db.insertInto('saved_query').values({ label: 'Plain revenue', sql: 'select 2', user_id: 1, created_by_fk: 1, changed_by_fk: 1 }).execute();
    await db.insertInto('favstar').values({ user_id: 1, class_name: 'query', obj_id: starred.id }).execute();
    const token = await t.token();
    const list = (q: string) => t.http.get(`/api/v1/saved_query/?q=${q}`).set('Authorization', `Bearer ${token}`);

    const favs = await list('(filters:!((col:id,opr:saved_query_is_fav,value:!t)),order_column:changed_on_delta_humanized,order_direction:desc,page:0,page_size:5)');
    expect(favs.status).toBe(200);
    expect(favs.body.result.map((r: { label: string }) => r.label)).toEqual(['Starred revenue']);
    const mine = await list('(filters:!((col:created_by,opr:rel_o_m,value:1)),order_column:changed_on_delta_humanized,order_direction:desc,page:0,page_size:5)');
    expect(mine.body.result.map((r: { label: string }) => r.label)).toEqual(expect.arrayContaining(['Starred revenue', 'Plain revenue']));
  });

  it('lists starred charts as favourites through the tRPC door', async () => {
    const { db } = t.services;
    const chart = await db.insertInto('slices').values({ slice_name: 'Starred chart', changed_by_fk: 1 }).returning('id').executeTakeFirstOrThrow();
    await db.insertInto('favstar').values({ user_id: 1, class_name: 'slice', obj_id: chart.id }).execute();
    const token = await t.token();
    const res = await t.http.get('/trpc/home.overview').set('Authorization', `Bearer ${token}`);
    expect(res.status).toBe(200);
    const { favorites } = res.body.result.data;
    expect(favorites).toEqual([expect.objectContaining({ item_type: 'slice', item_title: 'Starred chart', item_url: `/explore/?slice_id=${chart.id}` })]);
  });
});
