import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app';

describe('home page data', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => t?.close());

  it("lists the user's recent edits newest first, with links and humanized times, and only theirs", async () => {
    const { db } = t.services;
    const old = new Date(Date.now() - 3 * 3600_000);
    await db.insertInto('saved_query').values({ label: 'Monthly revenue', sql: 'select 1', changed_by_fk: 1, changed_on: old, created_on: old }).execute();
    const chart = await db.insertInto('slices').values({ slice_name: 'Births by state', changed_by_fk: 1 }).returning('id').executeTakeFirstOrThrow();
    await t.userWithRoles('other_home', ['Alpha']);
    const other = await db.selectFrom('ab_user').select('id').where('username', '=', 'other_home').executeTakeFirstOrThrow();
    await db.insertInto('slices').values({ slice_name: 'Not mine', changed_by_fk: other.id }).execute();

    const token = await t.token();
    const res = await t.http.get('/api/v1/log/recent_activity/?q=(page_size:5)').set('Authorization', `Bearer ${token}`);
    expect(res.status).toBe(200);
    expect(res.body.result.map((r: { item_title: string }) => r.item_title)).toEqual(['Births by state', 'Monthly revenue']);
    expect(res.body.result[0]).toMatchObject({ action: 'edit', item_type: 'slice', item_url: `/explore/?slice_id=${chart.id}` });
    expect(res.body.result[1].time_delta_humanized).toBe('3 hours ago');
    expect((await t.http.get('/api/v1/log/recent_activity/')).status).toBe(401);
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
