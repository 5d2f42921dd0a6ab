import type { ChartMeta } from '../types';

/**
 * Whether a chart's answer has no rows to draw, so the chart shows 'No results were returned for this query'
 * (Superset's SuperChart): every one of its first `queryObjectCount` queries has no data or an empty list. A type
 * drawn without data (markdown) never is. A big number total's one row of nulls is not empty: it reads 'No data'.
 *
 * @example hasNoResults({ key: 'pie' } as ChartMeta, [{ data: [] }]) // true
 */
export function hasNoResults(meta: Pick<ChartMeta, 'needsQuery' | 'queryObjectCount'>, queriesData: ReadonlyArray<{ data?: unknown }> | null | undefined): boolean {
  if (meta.needsQuery === false) return false;
  if (!queriesData) return true;
  return queriesData.slice(0, meta.queryObjectCount ?? 1).every(({ data }) => !data || (Array.isArray(data) && data.length === 0));
}
