import type { RecentActivity } from '@meridian/contracts';
import { api, ApiError } from '../api';
import { parseServerTime } from '@meridian/contracts/rules/dates';

/** One tile of the home page, whatever it came from (a chart, a dashboard, a saved query, a query run). */
export interface HomeItem {
  key: string;
  kind: 'chart' | 'dashboard' | 'saved_query' | 'query';
  title: string;
  url: string;
  /** "Modified 3 hours ago", "Viewed a minute ago". */
  when: string;
  /** For sorting merged lists, newest first (epoch ms). */
  time: number;
  sql?: string | null;
}

/** The home's tabs, as Superset's welcome page names them. */
export type RecentsTab = 'Viewed' | 'Edited' | 'Created';
export type ListTab = 'Favorite' | 'Mine';

type Filter = { col: string; opr: string; value: unknown };

/** Superset's home lists: five newest by change, with one filter. */
const PAGE_SIZE = 5;

interface ChartRow {
  id: number;
  slice_name: string;
  url: string;
  changed_on_delta_humanized: string;
  changed_on_utc?: string;
  changed_on?: string;
}
interface DashboardRow {
  id: number;
  dashboard_title: string | null;
  url?: string;
  slug?: string | null;
  changed_on_delta_humanized: string;
  changed_on_utc?: string;
  changed_on?: string;
}
interface SavedQueryRow {
  id: number;
  label: string;
  sql: string | null;
  changed_on: string;
  changed_on_delta_humanized: string;
}

const timeOf = (iso?: string) => (iso ? parseServerTime(iso) || 0 : 0);

const fromChart = (c: ChartRow): HomeItem => ({
  key: `chart-${c.id}`,
  kind: 'chart',
  title: c.slice_name,
  url: c.url || `/explore/?slice_id=${c.id}`,
  when: `Modified ${c.changed_on_delta_humanized}`,
  time: timeOf(c.changed_on_utc ?? c.changed_on),
});
const fromDashboard = (d: DashboardRow): HomeItem => ({
  key: `dashboard-${d.id}`,
  kind: 'dashboard',
  title: d.dashboard_title || '[ untitled dashboard ]',
  url: d.url || `/superset/dashboard/${d.slug || d.id}/`,
  when: `Modified ${d.changed_on_delta_humanized}`,
  time: timeOf(d.changed_on_utc ?? d.changed_on),
});
const fromSavedQuery = (q: SavedQueryRow): HomeItem => ({
  key: `saved_query-${q.id}`,
  kind: 'saved_query',
  title: q.label,
  url: `/sqllab/?savedQueryId=${q.id}`,
  when: `Modified ${q.changed_on_delta_humanized}`,
  time: timeOf(q.changed_on),
  sql: q.sql,
});
const fromActivity = (a: RecentActivity): HomeItem => ({
  key: `${a.item_type}-${a.item_url}`,
  kind: a.item_type === 'slice' ? 'chart' : a.item_type === 'dashboard' ? 'dashboard' : a.item_type === 'saved_query' ? 'saved_query' : 'query',
  title: a.item_title,
  url: a.item_url,
  when: `${a.item_type === 'query' ? 'Ran' : 'Viewed'} ${a.time_delta_humanized}`,
  time: a.time,
  sql: a.item_type === 'query' ? a.item_title : undefined,
});

/** `GET /api/v1/<resource>/` with Superset's home parameters (newest change first, five rows). */
async function listOf<T>(resource: 'chart' | 'dashboard' | 'saved_query', filters: Filter[]): Promise<T[]> {
  const { result } = await api<{ result: T[] }>(`/api/v1/${resource}/`, {
    query: { q: { filters, order_column: 'changed_on_delta_humanized', order_direction: 'desc', page: 0, page_size: PAGE_SIZE } },
  });
  return result;
}

/** The dashboard list, or null while the server has no dashboard endpoint (404): the home shows its empty state then. */
async function dashboardsOf(filters: Filter[]): Promise<DashboardRow[] | null> {
  try {
    return await listOf<DashboardRow>('dashboard', filters);
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}

const newestFirst = (items: HomeItem[]) => [...items].sort((a, b) => b.time - a.time);

/** Superset's filters for a tab of the Dashboards, Charts or Saved queries section (`getFilterValues`). */
export function listFilters(section: 'dashboard' | 'chart' | 'saved_query', tab: ListTab, userId: number): Filter[] {
  if (tab === 'Favorite') {
    const opr = section === 'dashboard' ? 'dashboard_is_favorite' : section === 'chart' ? 'chart_is_favorite' : 'saved_query_is_fav';
    return [{ col: 'id', opr, value: true }];
  }
  return section === 'saved_query' ? [{ col: 'created_by', opr: 'rel_o_m', value: userId }] : [{ col: 'owners', opr: 'rel_m_m', value: userId }];
}

/** Query options of one tab of the Recents section. */
export function recentsQuery(tab: RecentsTab, userId: number) {
  return {
    queryKey: ['home', 'recents', tab, userId],
    queryFn: async (): Promise<HomeItem[]> => {
      if (tab === 'Viewed') {
        const { result } = await api<{ result: RecentActivity[] }>('/api/v1/log/recent_activity/', { query: { q: { page_size: 6, distinct: true } } });
        return result.map(fromActivity);
      }
      // Edited: charts and dashboards the user changed last; Created: those and the saved queries they created.
      const filters: Filter[] = [{ col: tab === 'Edited' ? 'changed_by' : 'created_by', opr: 'rel_o_m', value: userId }];
      const [charts, dashboards, saved] = await Promise.all([
        listOf<ChartRow>('chart', filters),
        dashboardsOf(filters),
        tab === 'Created' ? listOf<SavedQueryRow>('saved_query', filters) : Promise.resolve([]),
      ]);
      return newestFirst([...charts.map(fromChart), ...(dashboards ?? []).map(fromDashboard), ...saved.map(fromSavedQuery)]);
    },
  };
}

/** Query options of one tab of the Dashboards, Charts or Saved queries section. */
export function sectionQuery(section: 'dashboard' | 'chart' | 'saved_query', tab: ListTab, userId: number) {
  return {
    queryKey: ['home', section, tab, userId],
    queryFn: async (): Promise<HomeItem[]> => {
      const filters = listFilters(section, tab, userId);
      if (section === 'dashboard') return ((await dashboardsOf(filters)) ?? []).map(fromDashboard);
      if (section === 'chart') return (await listOf<ChartRow>('chart', filters)).map(fromChart);
      return (await listOf<SavedQueryRow>('saved_query', filters)).map(fromSavedQuery);
    },
  };
}
