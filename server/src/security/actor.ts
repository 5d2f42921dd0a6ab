import type { RuleUser, UserRoles } from '@meridian/contracts/rules/permissions';

/** The signed-in user every service method takes first; shaped for the contracts' permission rules. */
export interface Actor extends RuleUser {
  userId: number;
  username: string;
  firstName: string;
  lastName: string;
  email: string;
  roles: UserRoles;
  /** Set for a guest of embedded dashboards (a guest token): only these may be read. */
  guest?: GuestScope;
}

/** What a guest token opens: its embedded dashboards, their charts, and those charts' datasets. */
export interface GuestScope {
  dashboardIds: number[];
  chartIds: number[];
  datasetIds: number[];
  /** The datasets as Superset's datasource_access view names. */
  datasourcePerms: string[];
  /** The token's row-level security rules: a clause for one dataset, or for all when `dataset` is unset. */
  rls: Array<{ dataset?: number; clause: string }>;
}
