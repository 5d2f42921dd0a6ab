/** A permission and view pair, e.g. `['can_write', 'Chart']`. */
export type PermissionView = readonly [permission: string, view: string];

/** Map of role name to its permission and view pairs (spec 01 §3 User). */
export type UserRoles = Readonly<Record<string, readonly PermissionView[]>>;

/** The user as the rules see it (spec 01 §3, spec 02 §6). */
export interface RuleUser {
  userId?: number | null;
  username?: string | null;
  roles?: UserRoles | null;
}

/** Something with owners, by id or as user-like objects. */
export interface Owned {
  owners?: ReadonlyArray<number | { id: number } | { value: number }> | null;
}

/** The product's main view, holding can_csv (spec 01 §6 "the product's main view"). */
export const MAIN_VIEW = 'Superset';
export const ADMIN_ROLE_NAME = 'admin';

/** Any role named admin, case-insensitive. */
export function isAdmin(user: RuleUser | null | undefined): boolean {
  return Object.keys(user?.roles ?? {}).some((role) => role.toLowerCase() === ADMIN_ROLE_NAME);
}

/** True when the user is admin or any role holds the permission on the view. */
export function hasPermission(user: RuleUser | null | undefined, permission: string, view: string): boolean {
  if (!user) return false;
  if (isAdmin(user)) return true;
  return Object.values(user.roles ?? {}).some((pairs) =>
    pairs.some(([perm, viewName]) => perm === permission && viewName === view),
  );
}

function ownerId(owner: number | { id: number } | { value: number }): number {
  if (typeof owner === 'number') return owner;
  return 'id' in owner ? owner.id : owner.value;
}

/** The user id is among the owners. */
export function isOwner(user: RuleUser | null | undefined, entity: Owned | null | undefined): boolean {
  const id = user?.userId;
  if (id === null || id === undefined) return false;
  return (entity?.owners ?? []).some((owner) => ownerId(owner) === id);
}

/**
 * The owners an update stores (Superset's populate_owner_list): as asked, except that a non-admin who leaves
 * themselves out stays an owner, so no one removes their own right to edit by mistake. `undefined` (the owners
 * not sent) leaves them as they are.
 */
export function ownersToStore(user: RuleUser, owners: number[] | undefined): number[] | undefined {
  if (owners === undefined || isAdmin(user) || user.userId === null || user.userId === undefined || owners.includes(user.userId)) return owners;
  return [...owners, user.userId];
}

/** can_add chart: can_write on Chart. */
export function canAddChart(user: RuleUser | null | undefined): boolean {
  return hasPermission(user, 'can_write', 'Chart');
}

/** can_download: can_csv on the product's main view. */
export function canDownload(user: RuleUser | null | undefined): boolean {
  return hasPermission(user, 'can_csv', MAIN_VIEW);
}

/** can_csv: same check as can_download (export permission read from the role). */
export function canCsv(user: RuleUser | null | undefined): boolean {
  return canDownload(user);
}

/** can_overwrite chart: the user id is among the chart owners. */
export function canOverwriteChart(user: RuleUser | null | undefined, chart: Owned | null | undefined): boolean {
  return isOwner(user, chart);
}

/** can_share_dashboard, read from the role. */
export function canShareDashboard(user: RuleUser | null | undefined): boolean {
  return hasPermission(user, 'can_share_dashboard', MAIN_VIEW);
}

/** can_share_chart, read from the role. */
export function canShareChart(user: RuleUser | null | undefined): boolean {
  return hasPermission(user, 'can_share_chart', MAIN_VIEW);
}

/** can_explore, read from the role. */
export function canExplore(user: RuleUser | null | undefined): boolean {
  return hasPermission(user, 'can_explore', MAIN_VIEW);
}

/** Can edit dashboard: admin or owner, and can_write on Dashboard. */
export function canEditDashboard(user: RuleUser | null | undefined, dashboard: Owned | null | undefined): boolean {
  return hasPermission(user, 'can_write', 'Dashboard') && (isAdmin(user) || isOwner(user, dashboard));
}

/**
 * Saving with the role-based access flag requires admin or owner plus can_write on Dashboard; without
 * the flag the can_write permission suffices.
 */
export function canSaveDashboardWithRbac(
  user: RuleUser | null | undefined,
  dashboard: Owned | null | undefined,
  isRbacEnabled = true,
): boolean {
  if (!isRbacEnabled) return hasPermission(user, 'can_write', 'Dashboard');
  return canEditDashboard(user, dashboard);
}

/** The explore-state flags of spec 01 §3 (can_add, can_download, can_overwrite). */
export function explorePermissions(user: RuleUser | null | undefined, chart: Owned | null | undefined) {
  return {
    can_add: canAddChart(user),
    can_download: canDownload(user),
    can_overwrite: canOverwriteChart(user, chart),
  };
}
