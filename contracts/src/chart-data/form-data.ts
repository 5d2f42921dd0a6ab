/**
 * Legacy form data (Explore's `form_data`, as `/superset/explore_json/` receives it) → a query
 * context for the chart data service: Superset's `buildQueryContext` defaults for a generic chart.
 */
import { parseDatasourceKey, parseOrderby, applyIncludeTime } from '../rules/validators';

const TIMESERIES_VIZ = new Set(['line', 'bar', 'area', 'compare', 'time_table', 'time_pivot', 'dual_line', 'line_multi', 'big_number', 'echarts_timeseries']);

function asArray<T>(value: T | T[] | null | undefined): T[] {
  if (value === null || value === undefined || value === '') return [];
  return Array.isArray(value) ? value : [value];
}

/** One query object from form data. */
export function queryObjectFromFormData(input: Record<string, any>): Record<string, unknown> {
  const fd = applyIncludeTime(input);
  const metrics = [...asArray(fd.metrics), ...asArray(fd.metric), ...asArray(fd.metric_2), ...asArray(fd.percent_metrics)];
  const rawMode = fd.query_mode === 'raw';
  let columns: unknown[] = rawMode ? asArray(fd.all_columns ?? fd.columns) : [...asArray(fd.groupby), ...asArray(fd.columns)];
  const granularity = fd.granularity_sqla ?? fd.granularity ?? null;
  if (fd.x_axis) {
    const axis = typeof fd.x_axis === 'string' ? { label: fd.x_axis, sqlExpression: fd.x_axis, expressionType: 'SQL' } : fd.x_axis;
    columns = [{ ...axis, columnType: 'BASE_AXIS', timeGrain: fd.time_grain_sqla ?? null }, ...columns];
  }
  const extraFilters = asArray<{ col: string; op: string; val: unknown }>(fd.extra_filters).filter((f) => f && f.col && !String(f.col).startsWith('__'));
  const orderby = parseOrderby(fd.order_by_cols) as Array<[unknown, boolean]> | undefined;
  return {
    columns,
    metrics: rawMode ? [] : metrics,
    adhoc_filters: asArray(fd.adhoc_filters),
    filters: extraFilters,
    extras: { time_grain_sqla: fd.time_grain_sqla ?? null, where: fd.where ?? '', having: fd.having ?? '' },
    granularity,
    time_range: fd.time_range ?? 'No filter',
    is_timeseries: !fd.x_axis && !!granularity && (TIMESERIES_VIZ.has(String(fd.viz_type)) || !!fd.include_time),
    row_limit: fd.row_limit ?? null,
    series_limit: fd.limit ?? fd.series_limit ?? 0,
    series_limit_metric: fd.timeseries_limit_metric ?? fd.series_limit_metric ?? null,
    order_desc: fd.order_desc ?? true,
    orderby: orderby ?? [],
    time_offsets: asArray(fd.time_compare),
    annotation_layers: asArray(fd.annotation_layers),
  };
}

/** A chart data request (query context) from form data; the datasource comes from `datasource: 'id__type'`. */
export function queryContextFromFormData(
  formData: Record<string, any>,
  opts: { resultFormat?: 'json' | 'csv' | 'xlsx'; resultType?: string; force?: boolean } = {},
): { datasource: { id: number; type: string }; queries: Record<string, unknown>[]; form_data: Record<string, any>; result_format: string; result_type: string; force: boolean } {
  const datasource = formData.datasource ? parseDatasourceKey(String(formData.datasource)) : { id: Number(formData.datasource_id), type: String(formData.datasource_type ?? 'table') };
  return {
    datasource,
    queries: [queryObjectFromFormData(formData)],
    form_data: formData,
    result_format: opts.resultFormat ?? 'json',
    result_type: opts.resultType ?? 'full',
    force: !!opts.force,
  };
}
