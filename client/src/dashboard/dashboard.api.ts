import { api } from '../api';
import { loadChartPlugin } from '../viz/registry';
import type { DatasourceMeta } from '../viz/types';

export interface Person {
  id: number;
  first_name: string;
  last_name: string;
}

/** `GET /api/v1/dashboard/{id_or_slug}`. */
export interface DashboardDetail {
  id: number;
  uuid: string;
  slug: string | null;
  url: string;
  thumbnail_url: string;
  dashboard_title: string;
  published: boolean;
  css: string | null;
  json_metadata: string | null;
  position_json: string | null;
  certified_by: string | null;
  certification_details: string | null;
  changed_on: string | null;
  changed_by_name: string;
  owners: Person[];
  roles: Array<{ id: number; name: string }>;
  charts: string[];
}

export interface DashboardListRow extends Omit<DashboardDetail, 'charts'> {
  changed_on_utc: string | null;
  tags: Array<{ id: number; name: string; type: number }>;
  changed_on_delta_humanized: string;
}

/** A chart of `GET /api/v1/dashboard/{id}/charts`: what a chart cell needs to draw. */
export interface DashboardChart {
  id: number;
  slice_name: string;
  viz_type: string | null;
  description: string | null;
  form_data: Record<string, any>;
  datasource_id: number | null;
  slice_url: string;
  /** Kept in the chart's layout meta (`{chartId, width, height, sliceName, uuid}`). */
  uuid?: string | null;
}

export interface DashboardSaveAnswer {
  id: number;
  result: Record<string, unknown>;
  last_modified_time: number;
}

export const dashboardKey = (idOrSlug: string | number) => ['dashboard', String(idOrSlug)] as const;
export const dashboardChartsKey = (idOrSlug: string | number) => ['dashboard-charts', String(idOrSlug)] as const;

export const fetchDashboard = async (idOrSlug: string | number) => (await api<{ result: DashboardDetail }>(`/api/v1/dashboard/${idOrSlug}`)).result;
/** The dashboard's charts; their types' code starts loading with the answer, while the grid is first rendered. */
export const dashboardDatasetsKey = (idOrSlug: string | number) => ['dashboard-datasets', String(idOrSlug)] as const;

/** `GET /{id_or_slug}/datasets`: the datasets of the dashboard's charts, for the names the charts show (verbose_map). */
export async function fetchDashboardDatasets(idOrSlug: string | number): Promise<DatasourceMeta[]> {
  return (await api<{ result: DatasourceMeta[] }>(`/api/v1/dashboard/${idOrSlug}/datasets`)).result;
}

export async function fetchDashboardCharts(idOrSlug: string | number): Promise<DashboardChart[]> {
  const charts = (await api<{ result: DashboardChart[] }>(`/api/v1/dashboard/${idOrSlug}/charts`)).result;
  for (const vizType of new Set(charts.map((c) => c.viz_type ?? c.form_data?.viz_type))) void loadChartPlugin(vizType).catch(() => undefined);
  return charts;
}

export async function createDashboard(body: Record<string, unknown> = {}): Promise<DashboardSaveAnswer> {
  return api<DashboardSaveAnswer>('/api/v1/dashboard/', { method: 'POST', body });
}

export async function saveDashboard(id: number, body: Record<string, unknown>): Promise<DashboardSaveAnswer> {
  return api<DashboardSaveAnswer>(`/api/v1/dashboard/${id}`, { method: 'PUT', body });
}

export async function copyDashboard(id: number, body: { dashboard_title: string; css?: string | null; json_metadata: string; duplicate_slices?: boolean }) {
  return (await api<{ result: { id: number; last_modified_time: number } }>(`/api/v1/dashboard/${id}/copy/`, { method: 'POST', body })).result;
}

export async function createDashboardPermalink(idOrSlug: string | number, state: { urlParams?: Array<[string, string]>; dataMask?: Record<string, unknown>; activeTabs?: string[]; anchor?: string | null }) {
  return api<{ key: string; url: string }>(`/api/v1/dashboard/${idOrSlug}/permalink`, { method: 'POST', body: state });
}

/** How the builder's picker orders the saved charts (Superset's SliceAdder): the newest changes first, else by a column, ascending. */
export const CHART_CHOICE_SORTS = [
  ['changed_on', 'Sort by recent'],
  ['slice_name', 'Sort by name'],
  ['viz_type', 'Sort by viz type'],
  ['datasource_name', 'Sort by dataset'],
] as const;
export type ChartChoiceSort = (typeof CHART_CHOICE_SORTS)[number][0];

/**
 * Saved charts for the builder's picker (spec 01 §7: `GET /api/v1/chart/` with `slice_name` all-text search and
 * `owners` (many-to-many), page size 200, ordered by changed_on descending or by a given column ascending).
 */
export async function fetchChartChoices(search: string, opts: { sort?: ChartChoiceSort; ownerId?: number | null } = {}): Promise<DashboardChart[]> {
  const sort = opts.sort ?? 'changed_on';
  const filters = [...(search ? [{ col: 'slice_name', opr: 'chart_all_text', value: search }] : []), ...(opts.ownerId ? [{ col: 'owners', opr: 'rel_m_m', value: opts.ownerId }] : [])];
  const answer = await api<{ result: Array<DashboardChart & { form_data: Record<string, any> }> }>('/api/v1/chart/', {
    query: { q: { page: 0, page_size: 200, order_column: sort, order_direction: sort === 'changed_on' ? 'desc' : 'asc', filters } },
  });
  return answer.result;
}
