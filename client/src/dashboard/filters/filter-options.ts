import { SELECT_PAGE_SIZE } from '@meridian/contracts/rules/select';
import { filterOptionsQuery, targetColumn, targetDataset, type ExtraFormData, type NativeFilter } from '@meridian/contracts';
import { fetchChartData } from '../../explore/explore.api';
import type { QueryContext } from '../../viz/types';

/**
 * The query of a value filter's options (the column's distinct values, narrowed by its pre-filter, its parents'
 * values and a search), as react-query options: the filter's control and the pick of its first value share it, and
 * so share its answer. On a dashboard, the request names it and the filter (Superset's native filter form data), so that
 * the dashboard's roles can grant the values (DASHBOARD_RBAC). Example: `useQuery(filterOptionsQueryOptions(filter, {}, '', 1, 3))`.
 */
export function filterOptionsQueryOptions(filter: NativeFilter, cascade: ExtraFormData, serverSearch: string, pages: number, dashboardId: number | null | undefined) {
  const datasetId = targetDataset(filter);
  const col = targetColumn(filter);
  return {
    queryKey: ['filter-options', filter.id, datasetId, col, filter.sortMetric, filter.controlValues?.sortAscending, filter.adhoc_filters, filter.time_range, cascade, serverSearch, pages] as const,
    enabled: !!datasetId && !!col,
    queryFn: async ({ signal }: { signal: AbortSignal }) => {
      const query = filterOptionsQuery(filter, { cascade, search: serverSearch, rowLimit: pages * SELECT_PAGE_SIZE });
      const [first] = (await fetchChartData({ datasource: { id: datasetId!, type: 'table' }, queries: [query], form_data: (dashboardId ? { dashboardId, type: 'NATIVE_FILTER', native_filter_id: filter.id } : {}) as QueryContext['form_data'], result_type: 'full', result_format: 'json', force: false }, { signal })) as Array<{ data?: Array<Record<string, unknown>> }>;
      return (first?.data ?? []).map((row) => row[col]).filter((v) => v !== undefined);
    },
    staleTime: 60_000,
    retry: false,
  };
}
