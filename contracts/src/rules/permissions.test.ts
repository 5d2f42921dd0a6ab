import { describe, it, expect } from 'vitest';
import {
  canAddChart,
  canCsv,
  canDownload,
  canEditDashboard,
  canExplore,
  canOverwriteChart,
  canSaveDashboardWithRbac,
  canShareChart,
  canShareDashboard,
  explorePermissions,
  hasPermission,
  isAdmin,
  ownersToStore,
  type RuleUser,
} from './permissions';

const gamma: RuleUser = {
  userId: 7,
  username: 'gamma',
  roles: {
    Gamma: [
      ['can_write', 'Chart'],
      ['can_csv', 'Superset'],
      ['can_share_dashboard', 'Superset'],
      ['can_explore', 'Superset'],
      ['can_share_chart', 'Superset'],
      ['can_write', 'Dashboard'],
    ],
  },
};
const viewer: RuleUser = { userId: 8, roles: { Viewer: [['can_read', 'Chart']] } };
const admin: RuleUser = { userId: 1, roles: { ADMIN: [] } };

describe('permissions (spec 01 §6, spec 02 §6)', () => {
  it('a non-admin who saves owners without themselves stays an owner; an admin stores the owners as asked', () => {
    expect(ownersToStore(gamma, [3])).toEqual([3, 7]);
    expect(ownersToStore(gamma, [7, 3])).toEqual([7, 3]);
    expect(ownersToStore(gamma, [])).toEqual([7]);
    expect(ownersToStore(admin, [3])).toEqual([3]);
    expect(ownersToStore(admin, [])).toEqual([]);
    expect(ownersToStore(gamma, undefined)).toBeUndefined();
  });
  it("'Admin is any role named admin (case-insensitive) and holds all permissions'", () => {
    expect(isAdmin(admin)).toBe(true);
    expect(isAdmin({ roles: { Admin: [] } })).toBe(true);
    expect(isAdmin(gamma)).toBe(false);
    expect(hasPermission(admin, 'anything', 'Anywhere')).toBe(true);
  });

  it("'Permission check is a pair of permission name and view name'", () => {
    expect(hasPermission(viewer, 'can_read', 'Chart')).toBe(true);
    expect(hasPermission(viewer, 'can_read', 'Dashboard')).toBe(false);
    expect(hasPermission(viewer, 'can_write', 'Chart')).toBe(false);
    expect(hasPermission(null, 'can_read', 'Chart')).toBe(false);
  });

  it("'can_add chart: can_write on Chart'", () => {
    expect(canAddChart(gamma)).toBe(true);
    expect(canAddChart(viewer)).toBe(false);
  });

  it("'can_download: can_csv on the product's main view'", () => {
    expect(canDownload(gamma)).toBe(true);
    expect(canCsv(gamma)).toBe(true);
    expect(canDownload(viewer)).toBe(false);
  });

  it("'can_overwrite chart: the user id is among the chart owners'", () => {
    expect(canOverwriteChart(gamma, { owners: [{ id: 7 }] })).toBe(true);
    expect(canOverwriteChart(gamma, { owners: [3, 4] })).toBe(false);
    expect(canOverwriteChart({ roles: {} }, { owners: [7] })).toBe(false);
    expect(explorePermissions(gamma, { owners: [7] })).toEqual({ can_add: true, can_download: true, can_overwrite: true });
  });

  it("'Other role-derived permissions read: can_share_dashboard, can_explore, can_share_chart, can_csv'", () => {
    expect([canShareDashboard(gamma), canExplore(gamma), canShareChart(gamma)]).toEqual([true, true, true]);
    expect([canShareDashboard(viewer), canExplore(viewer), canShareChart(viewer)]).toEqual([false, false, false]);
  });

  it("'Can edit dashboard: admin or owner, and can_write on Dashboard'", () => {
    expect(canEditDashboard(gamma, { owners: [{ id: 7 }] })).toBe(true);
    expect(canEditDashboard(gamma, { owners: [{ id: 2 }] })).toBe(false);
    expect(canEditDashboard(admin, { owners: [] })).toBe(true);
    expect(canEditDashboard({ userId: 8, roles: { Viewer: [] } }, { owners: [8] })).toBe(false);
  });

  it("'With the role-based access flag, saving requires admin or owner plus can_write on Dashboard'", () => {
    expect(canSaveDashboardWithRbac(gamma, { owners: [2] })).toBe(false);
    expect(canSaveDashboardWithRbac(gamma, { owners: [7] })).toBe(true);
    expect(canSaveDashboardWithRbac(gamma, { owners: [2] }, false)).toBe(true);
  });
});
