/**
 * The seeded roles and their permission-view pairs, in the spirit of Superset's. Admin is also
 * all-powerful by name (spec 01 §6), so its list only documents what it is given explicitly.
 * The README's "Roles and permissions" table is generated from this matrix.
 */
import type { BUILT_IN_ROLES } from '@meridian/contracts';

export type PermissionView = readonly [permission: string, view: string];

const rw = (view: string): PermissionView[] => [['can_read', view], ['can_write', view]];
const read = (view: string): PermissionView[] => [['can_read', view]];

const SQL_LAB: PermissionView[] = [
  ['menu_access', 'SQL Lab'],
  ['can_sqllab', 'Superset'],
  ['can_write', 'SqlLabPermalinkRestApi'],
  ['can_read', 'SqlLabPermalinkRestApi'],
  ['can_execute_sql_query', 'SQLLab'],
  ['can_estimate_query_cost', 'SQLLab'],
  ['can_format_sql', 'SQLLab'],
  ['can_export_csv', 'SQLLab'],
  ['can_export', 'SavedQuery'],
  ['can_get_results', 'SQLLab'],
  ['can_read', 'SQLLab'],
  ...rw('SavedQuery'),
  ...read('Query'),
  ...rw('TabStateView'),
  ...rw('TableSchemaView'),
  ['can_read', 'Database'],
  ['can_read', 'SQLLab'],
];

const GAMMA: PermissionView[] = [
  ...rw('Chart'),
  ...rw('Dashboard'),
  ['can_export', 'Chart'],
  ['can_export', 'Dashboard'],
  ...read('CssTemplate'),
  ...read('Dataset'),
  ...read('Annotation'),
  ['can_explore', 'Superset'],
  ['can_explore_json', 'Superset'],
  ['can_csv', 'Superset'],
  ['can_share_chart', 'Superset'],
  ['can_share_dashboard', 'Superset'],
  ['can_read', 'Explore'],
  ['can_write', 'ExploreFormDataRestApi'],
  ['can_read', 'ExploreFormDataRestApi'],
  ['can_write', 'ExplorePermalinkRestApi'],
  ['can_read', 'ExplorePermalinkRestApi'],
  ['can_write', 'DashboardPermalinkRestApi'],
  ['can_read', 'DashboardPermalinkRestApi'],
  ['can_write', 'DashboardFilterStateRestApi'],
  ['can_read', 'DashboardFilterStateRestApi'],
  ['can_read', 'AsyncEventsRestApi'],
  ['can_write', 'ReportSchedule'],
  ['can_read', 'ReportSchedule'],
  ['can_read', 'Tag'],
  // Everyone posts their own client events; only admins read the action log.
  ['can_write', 'Log'],
  ['can_read', 'Me'],
  ['menu_access', 'Charts'],
  ['menu_access', 'Dashboards'],
];

const ALPHA: PermissionView[] = [
  ...GAMMA,
  ...rw('Dataset'),
  ['can_write', 'Annotation'],
  ...rw('CssTemplate'),
  ['can_warm_up_cache', 'Chart'],
  ['can_warm_up_cache', 'Dataset'],
  ['can_read', 'Database'],
  ['can_write', 'Tag'],
  // Uploading a file into a table of a database that allows it (Superset's can_upload).
  ['can_upload', 'Database'],
  ['all_datasource_access', 'all_datasource_access'],
  ['all_database_access', 'all_database_access'],
  ['menu_access', 'Datasets'],
];

const ADMIN: PermissionView[] = [
  ...ALPHA,
  ...SQL_LAB,
  ...rw('Database'),
  ...rw('User'),
  ...rw('Role'),
  ...rw('Row Level Security'),
  ['menu_access', 'Row Level Security'],
  ['can_read', 'Log'],
  ['all_query_access', 'all_query_access'],
  ['can_invalidate', 'CacheRestApi'],
  ['menu_access', 'Databases'],
  ['menu_access', 'Security'],
];

/** Keyed by every built-in role (`satisfies` keeps contracts' BUILT_IN_ROLES and this matrix from drifting). */
export const SEEDED_ROLES: Record<string, PermissionView[]> = {
  Admin: ADMIN,
  Alpha: ALPHA,
  Gamma: GAMMA,
  sql_lab: SQL_LAB,
  Public: [],
} satisfies Record<(typeof BUILT_IN_ROLES)[number], PermissionView[]>;
