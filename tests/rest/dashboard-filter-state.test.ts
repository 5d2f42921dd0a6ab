import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app';
import { bearer } from './sqllab.helpers';

// The kept state lives in the cache: in memory by default, in Redis when REDIS_URL is set.
describe.each([
  ['in-memory cache', {}],
  ['Redis cache', { REDIS_URL: 'redis://127.0.0.1:6379/0' }],
])('/api/v1/dashboard/{pk}/filter_state (%s)', (_name, env) => {
  let t: TestApp;
  let admin: string;
  let dashboardId: number;

  beforeAll(async () => {
    t = await startTestApp({ env });
    admin = await t.token();
    dashboardId = (await t.http.post('/api/v1/dashboard/').set(bearer(admin)).send({ dashboard_title: 'Filtered', published: true })).body.id;
  });
  afterAll(async () => {
    await t?.close();
  });

  const mask = JSON.stringify({ 'NATIVE_FILTER-1': { id: 'NATIVE_FILTER-1', extraFormData: { filters: [{ col: 'gender', op: 'IN', val: ['boy'] }] }, filterState: { value: ['boy'] } } });

  it('POST gives a key; GET answers the value; PUT changes it; DELETE removes it', async () => {
    const created = await t.http.post(`/api/v1/dashboard/${dashboardId}/filter_state`).set(bearer(admin)).send({ value: mask });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ key: expect.any(String) });
    const key = created.body.key;
    expect((await t.http.get(`/api/v1/dashboard/${dashboardId}/filter_state/${key}`).set(bearer(admin))).body).toEqual({ value: mask });
    const put = await t.http.put(`/api/v1/dashboard/${dashboardId}/filter_state/${key}`).set(bearer(admin)).send({ value: '{}' });
    expect(put.body).toEqual({ key });
    expect((await t.http.get(`/api/v1/dashboard/${dashboardId}/filter_state/${key}`).set(bearer(admin))).body.value).toBe('{}');
    expect((await t.http.delete(`/api/v1/dashboard/${dashboardId}/filter_state/${key}`).set(bearer(admin))).body).toEqual({ message: 'Deleted successfully' });
    expect((await t.http.get(`/api/v1/dashboard/${dashboardId}/filter_state/${key}`).set(bearer(admin))).status).toBe(404);
  });

  it('the same browser tab’s revisit reuses its key; another tab gets another', async () => {
    const post = (tab: number, value: string) => t.http.post(`/api/v1/dashboard/${dashboardId}/filter_state`).query({ tab_id: tab }).set(bearer(admin)).send({ value });
    const first = (await post(7, mask)).body.key;
    const again = (await post(7, '{}')).body.key;
    expect(again).toBe(first);
    expect((await t.http.get(`/api/v1/dashboard/${dashboardId}/filter_state/${first}`).set(bearer(admin))).body.value).toBe('{}');
    expect((await post(8, mask)).body.key).not.toBe(first);
  });

  it('bad input, unknown dashboards and other users are refused in the error envelope; nothing stored changes', async () => {
    const bad = await t.http.post(`/api/v1/dashboard/${dashboardId}/filter_state`).set(bearer(admin)).send({ value: '{not json' });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toEqual({ value: ['JSON not valid'] });
    expect((await t.http.post('/api/v1/dashboard/999999/filter_state').set(bearer(admin)).send({ value: mask })).status).toBe(404);
    const key = (await t.http.post(`/api/v1/dashboard/${dashboardId}/filter_state`).set(bearer(admin)).send({ value: mask })).body.key;
    const gamma = await t.userWithRoles(`gamma_fs_${Math.random().toString(16).slice(2, 8)}`, ['Gamma']);
    // Gamma reads only dashboards it may see: this one has no charts it may read, so it is a 404.
    expect((await t.http.get(`/api/v1/dashboard/${dashboardId}/filter_state/${key}`).set(bearer(gamma))).status).toBe(404);
    // A co-owner reads the dashboard, but may not change another user's kept state.
    const alpha = await t.userWithRoles(`alpha_fs_${Math.random().toString(16).slice(2, 8)}`, ['Alpha']);
    const alphaId = (await t.http.get('/api/v1/me/').set(bearer(alpha))).body.result.id;
    const adminId = (await t.http.get('/api/v1/me/').set(bearer(admin))).body.result.id;
    expect((await t.http.put(`/api/v1/dashboard/${dashboardId}`).set(bearer(admin)).send({ owners: [adminId, alphaId] })).status).toBe(200);
    expect((await t.http.get(`/api/v1/dashboard/${dashboardId}/filter_state/${key}`).set(bearer(alpha))).body.value).toBe(mask);
    const put = await t.http.put(`/api/v1/dashboard/${dashboardId}/filter_state/${key}`).set(bearer(alpha)).send({ value: '{}' });
    expect(put.status).toBe(403);
    expect(put.body).toHaveProperty('message');
    expect((await t.http.get(`/api/v1/dashboard/${dashboardId}/filter_state/${key}`).set(bearer(admin))).body.value).toBe(mask);
    expect((await t.http.post(`/api/v1/dashboard/${dashboardId}/filter_state`).send({ value: mask })).status).toBe(401);
  });
});
