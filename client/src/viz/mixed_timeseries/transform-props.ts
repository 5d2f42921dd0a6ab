import type { FormData, TransformInput } from '../types';
import { transformTimeseries, type SeriesKind, type TimeseriesProps } from '../shared/timeseries/transform-props';
import { advancedAnalyticsOf } from '../shared/timeseries/advanced-analytics';

/** Query A's form data keys, and query B's, as Superset's mixed chart names them (B's advanced analytics end in `_b`). */
export const queryFormData = (fd: FormData, which: 'a' | 'b'): FormData =>
  which === 'a'
    ? { ...fd, metrics: fd.metrics, groupby: fd.groupby, adhoc_filters: fd.adhoc_filters, limit: fd.limit, stack: fd.stack }
    : { ...fd, metrics: fd.metrics_b, groupby: fd.groupby_b, adhoc_filters: fd.adhoc_filters_b, limit: fd.limit_b, timeseries_limit_metric: fd.timeseries_limit_metric_b, order_desc: fd.order_desc_b, row_limit: fd.row_limit_b ?? fd.row_limit, stack: fd.stackB, show_value: fd.show_valueB, ...advancedAnalyticsOf(fd, '_b') };

/**
 * Both queries drawn as time series on one x-axis: each with its own series type, query B on the
 * right-hand axis when asked; B's series carry '(Query B)' when a name would clash.
 */
export function transformMixed(input: TransformInput): TimeseriesProps {
  const fd = input.formData;
  const a = transformTimeseries({ ...input, formData: queryFormData(fd, 'a') as any, queriesData: [input.queriesData[0]] }, (fd.seriesType as SeriesKind) ?? 'line');
  const b = transformTimeseries({ ...input, formData: queryFormData(fd, 'b') as any, queriesData: [input.queriesData[1] ?? { data: [] }] }, (fd.seriesTypeB as SeriesKind) ?? 'bar');
  const namesA = new Set(a.option.series.map((s: any) => s.name));
  const seriesB = b.option.series.map((s: any) => ({ ...s, name: namesA.has(s.name) ? `${s.name} (Query B)` : s.name, yAxisIndex: Number(fd.yAxisIndexB ?? 0) === 1 ? 1 : 0, stack: s.stack ? 'b' : undefined }));
  const seriesA = a.option.series.map((s: any) => ({ ...s, yAxisIndex: Number(fd.yAxisIndex ?? 0) === 1 ? 1 : 0, stack: s.stack ? 'a' : undefined }));
  const series = [...seriesA, ...seriesB];
  const twoAxes = series.some((s) => s.yAxisIndex === 1);
  const yAxis = twoAxes ? [a.option.yAxis, { ...b.option.yAxis, position: 'right', splitLine: { show: false }, name: fd.yAxisTitleSecondary || undefined }] : a.option.yAxis;
  const legendNames = series.map((s) => s.name);
  return {
    ...a,
    option: { ...a.option, grid: { ...a.option.grid, top: 40, right: twoAxes ? 40 : 20 }, legend: { ...a.option.legend, show: fd.show_legend !== false && series.length > 1, data: legendNames }, yAxis, series },
    seriesGroups: { ...a.seriesGroups, ...Object.fromEntries(seriesB.map((s: any, i: number) => [s.name, Object.values(b.seriesGroups)[i] ?? []])) },
    // Layers draw over both queries' series, so the legend they extend is the whole chart's.
    annotations: a.annotations ? { ...a.annotations, seriesNames: legendNames } : null,
  };
}
