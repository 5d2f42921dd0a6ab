/**
 * Meridian's menu as Superset's `GET /api/v1/menu/` answers it: a forest of items the user may reach
 * (`name` is the menu access name, `childs` the submenu). The navigation bar draws the same forest, so the
 * REST answer and the screen never disagree.
 */
export interface MenuItem {
  name: string;
  label: string;
  icon: string;
  url?: string;
  childs?: MenuItem[];
}

type Can = (permission: string, view: string) => boolean;
/** The feature flags in force; an item behind an unset flag stays visible (the flag's default is on). */
type Flags = Readonly<Record<string, boolean | undefined>>;

interface MenuEntry extends Omit<MenuItem, 'childs'> {
  visible: (can: Can, flags: Flags) => boolean;
  childs?: MenuEntry[];
}

const SQL_LAB = (can: Can) => can('can_sqllab', 'Superset');

const MENU: MenuEntry[] = [
  {
    name: 'SQL',
    label: 'SQL',
    icon: 'fa-flask',
    visible: () => true,
    childs: [
      { name: 'SQL Lab', label: 'SQL Lab', icon: 'fa-terminal', url: '/sqllab/', visible: SQL_LAB },
      { name: 'Saved Queries', label: 'Saved queries', icon: 'fa-save', url: '/savedqueryview/list/', visible: (can) => can('can_read', 'SavedQuery') },
      { name: 'Query Search', label: 'Query history', icon: 'fa-search', url: '/sqllab/history/', visible: (can) => can('can_read', 'Query') || SQL_LAB(can) },
    ],
  },
  { name: 'Charts', label: 'Charts', icon: 'fa-bar-chart', url: '/chart/list/', visible: (can) => can('can_read', 'Chart') },
  { name: 'Dashboards', label: 'Dashboards', icon: 'fa-dashboard', url: '/dashboard/list/', visible: (can) => can('can_read', 'Dashboard') },
  { name: 'Datasets', label: 'Datasets', icon: 'fa-table', url: '/tablemodelview/list/', visible: (can) => can('can_read', 'Dataset') },
  {
    name: 'Settings',
    label: 'Settings',
    icon: 'fa-cog',
    visible: () => true,
    childs: [
      { name: 'Databases', label: 'Databases', icon: 'fa-database', url: '/databaseview/list/', visible: (can) => can('can_read', 'Database') },
      { name: 'List Users', label: 'Users', icon: 'fa-user', url: '/users/list/', visible: (can) => can('can_read', 'User') },
      { name: 'List Roles', label: 'Roles', icon: 'fa-group', url: '/roles/list/', visible: (can) => can('can_read', 'Role') },
      { name: 'Row Level Security', label: 'Row level security', icon: 'fa-lock', url: '/rowlevelsecurity/list/', visible: (can) => can('can_read', 'Row Level Security') },
      { name: 'Alerts & Report', label: 'Alerts & reports', icon: 'fa-exclamation-triangle', url: '/alert/list/', visible: (can, flags) => flags.ALERT_REPORTS !== false && can('can_read', 'ReportSchedule') },
      { name: 'Action Log', label: 'Action log', icon: 'fa-list-ol', url: '/actionlog/list/', visible: (can) => can('can_read', 'Log') },
    ],
  },
];

/** The items the user may reach; a submenu with nothing left in it is dropped. */
export function menuFor(can: Can, flags: Flags = {}): MenuItem[] {
  const walk = (entries: MenuEntry[]): MenuItem[] =>
    entries.flatMap(({ visible, childs, ...item }) => {
      if (!visible(can, flags)) return [];
      if (!childs) return [item];
      const kept = walk(childs);
      return kept.length ? [{ ...item, childs: kept }] : [];
    });
  return walk(MENU);
}
