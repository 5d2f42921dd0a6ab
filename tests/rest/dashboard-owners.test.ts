import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app';
import { bearer } from './sqllab.helpers';

/** Owners and roles of dashboards (spec 02 §3, §5, §6), with and without DASHBOARD_RBAC. */
describe('dashboard owners and roles', () => {
  let plain: TestApp;
  let rbac: TestApp;
  beforeAll(async () => {
    [plain, rbac] = await Promise.all([startTestApp(), startTestApp({ env: { FEATURE_DASHBOARD_RBAC: 'true' } })]);
  });
  afterAll(async () => {
    await Promise.all([plain?.close(), rbac?.close()]);
  });

  const idOf = async (t: TestApp, token: string) => (await t.http.get('/api/v1/me/').set(bearer(token))).body.result.id as number;
  const ownersOf = async (t: TestApp, token: string, id: number) => ((await t.http.get(`/api/v1/dashboard/${id}`).set(bearer(token))).body.result.owners as Array<{ id: number }>).map((o) => o.id).sort();

  it('a non-admin who saves owners without themselves stays an owner; an admin sets them as asked; list filters by owner and creator', async () => {
    const admin = await plain.token();
    const gamma = await plain.userWithRoles('gamma_owner', ['Gamma']);
    const [adminId, gammaId] = [await idOf(plain, admin), await idOf(plain, gamma)];

    const mine = (await plain.http.post('/api/v1/dashboard/').set(bearer(gamma)).send({ dashboard_title: 'Gamma owns' })).body.id as number;
    expect(await ownersOf(plain, admin, mine)).toEqual([gammaId]);
    const put = await plain.http.put(`/api/v1/dashboard/${mine}`).set(bearer(gamma)).send({ owners: [adminId] });
    expect(put.status).toBe(200);
    expect(await ownersOf(plain, admin, mine)).toEqual([adminId, gammaId].sort());
    // Still an owner, so still allowed to edit.
    expect((await plain.http.put(`/api/v1/dashboard/${mine}`).set(bearer(gamma)).send({ dashboard_title: 'Gamma still owns' })).status).toBe(200);

    const theirs = (await plain.http.post('/api/v1/dashboard/').set(bearer(admin)).send({ dashboard_title: 'Handed over' })).body.id as number;
    expect((await plain.http.put(`/api/v1/dashboard/${theirs}`).set(bearer(admin)).send({ owners: [gammaId] })).status).toBe(200);
    expect(await ownersOf(plain, admin, theirs)).toEqual([gammaId]);
    expect((await plain.http.put(`/api/v1/dashboard/${theirs}`).set(bearer(admin)).send({ owners: [987654] })).body).toEqual({ message: { owners: ['Owners are invalid'] } });

    const titles = async (q: string) => ((await plain.http.get('/api/v1/dashboard/').query({ q }).set(bearer(admin))).body.result as Array<{ dashboard_title: string }>).map((d) => d.dashboard_title).sort();
    expect(await titles(`(filters:!((col:owners,opr:rel_m_m,value:${gammaId})))`)).toEqual(['Gamma still owns', 'Handed over']);
    expect(await titles(`(filters:!((col:owners,opr:nrel_m_m,value:${gammaId})))`)).not.toContain('Handed over');
    expect(await titles(`(filters:!((col:created_by,opr:rel_o_m,value:${gammaId})))`)).toEqual(['Gamma still owns']);
  });

  it('roles are stored only with DASHBOARD_RBAC, and then give their holders a published dashboard', async () => {
    const roleId = async (t: TestApp, admin: string, name: string) => ((await t.http.get('/api/v1/dashboard/related/roles').set(bearer(admin))).body.result as Array<{ value: number; text: string }>).find((r) => r.text === name)!.value;
    for (const [t, on] of [[plain, false], [rbac, true]] as const) {
      const admin = await t.token();
      const gamma = await t.userWithRoles(`gamma_rbac_${on}`, ['Gamma']);
      const alpha = await t.userWithRoles(`alpha_rbac_${on}`, ['Alpha']);
      const id = (await t.http.post('/api/v1/dashboard/').set(bearer(admin)).send({ dashboard_title: 'For Gamma', published: true })).body.id as number;
      const put = await t.http.put(`/api/v1/dashboard/${id}`).set(bearer(admin)).send({ roles: [await roleId(t, admin, 'Gamma')] });
      expect(put.status).toBe(200);
      const roles = (await t.http.get(`/api/v1/dashboard/${id}`).set(bearer(admin))).body.result.roles as Array<{ name: string }>;
      expect(roles.map((r) => r.name)).toEqual(on ? ['Gamma'] : []);
      // A dashboard without charts is readable by its roles' holders only (with the flag), not by another non-owner.
      expect((await t.http.get(`/api/v1/dashboard/${id}`).set(bearer(gamma))).status).toBe(on ? 200 : 404);
      expect((await t.http.get(`/api/v1/dashboard/${id}`).set(bearer(alpha))).status).toBe(404);
    }
  });
});
