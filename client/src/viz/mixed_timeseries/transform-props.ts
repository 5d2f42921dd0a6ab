import type { FormData, TransformInput } from '../types';
import { timeseriesRichTooltip, transformTimeseries, valueFormatOf, type SeriesKind, type TimeseriesProps } from '../shared/timeseries/transform-props';
import { timeseriesFrame } from '../shared/timeseries/layout';
import { asList, displayNames, metricLabel, type MetricEntry } from '../shared/metrics';
import { advancedAnalyticsOf } from '../shared/timeseries/advanced-analytics';

/**
 * Query A's form data keys, and query B's, as Superset's mixed chart names them: B's query controls and advanced
 * analytics end in `_b`, its series options in `B`. B on the secondary axis reads that axis's number and currency formats.
 */
export const queryFormData = (fd: FormData, which: 'a' | 'b'): FormData => {
  if (which === 'a') return { ...fd, metrics: fd.metrics, groupby: fd.groupby, adhoc_filters: fd.adhoc_filters, limit: fd.limit, stack: fd.stack };
  const secondary = Number(fd.yAxisIndexB ?? 0) === 1;
  return {
    ...fd,
    metrics: fd.metrics_b,
    groupby: fd.groupby_b,
    adhoc_filters: fd.adhoc_filters_b,
    limit: fd.limit_b,
    timeseries_limit_metric: fd.timeseries_limit_metric_b,
    order_desc: fd.order_desc_b,
    row_limit: fd.row_limit_b ?? fd.row_limit,
    truncate_metric: fd.truncate_metric_b,
    sort_series_type: fd.sort_series_typeB,
    sort_series_ascending: fd.sort_series_ascendingB,
    seriesType: fd.seriesTypeB,
    stack: fd.stackB,
    area: fd.areaB,
    show_value: fd.show_valueB,
    opacity: fd.opacityB,
    markerEnabled: fd.markerEnabledB,
    markerSize: fd.markerSizeB,
    y_axis_format: secondary && fd.y_axis_format_secondary ? fd.y_axis_format_secondary : fd.y_axis_format,
    currency_format: secondary ? fd.currency_format_secondary : fd.currency_format,
    ...advancedAnalyticsOf(fd, '_b'),
  };
};

/**
 * The series kind of a query's series type: Superset's three step variants are steps (where the step falls is read
 * from `seriesType`); 'step' and 'area' are this chart's earlier values, still read.
 */
export const seriesKindOf = (seriesType: unknown, fallback: SeriesKind): SeriesKind => {
  switch (seriesType) {
    case 'line':
    case 'scatter':
    case 'smooth':
    case 'bar':
    case 'step':
      return seriesType;
    case 'start':
    case 'middle':
    case 'end':
      return 'step';
    case 'area':
      return 'line';
    default:
      return fallback;
  }
};

/** A query's series drawn as areas ('Area chart', or the earlier 'area' type): the lines and steps, not bars or points. */
const withArea = (fd: FormData, series: any[]) =>
  fd.area || fd.seriesType === 'area' ? series.map((s) => (s.type === 'line' ? { ...s, areaStyle: { opacity: Number(fd.opacity ?? 0.2) } } : s)) : series;

/**
 * Superset's 'Show query identifiers': a series' name marked with its query. A series of group-by values reads
 * '<metric> (Query A), <group values>' (the metric named even where one metric leaves it out of the name), any other
 * '<name> (Query A)'.
 *
 * @example withQueryIdentifier('girl', ['girl'], 'sum__num', 'A') // 'sum__num (Query A), girl'
 */
export function withQueryIdentifier(name: string, group: readonly string[], metricName: string, query: 'A' | 'B'): string {
  const tag = `(Query ${query})`;
  const groupPart = group.join(', ');
  if (group.length) {
    if (name === groupPart) return `${metricName} ${tag}, ${groupPart}`;
    if (name.endsWith(`, ${groupPart}`)) return `${name.slice(0, -(groupPart.length + 2))} ${tag}, ${groupPart}`;
  }
  return `${name} ${tag}`;
}

/**
 * Both queries drawn as time series on one x-axis: each with its own series type and order, query B on the
 * right-hand axis when asked; with 'Show query identifiers' each series names its query, else B's carry
 * '(Query B)' only where a name would clash. The legend's place, the zoom and the x-axis options are the chart's.
 */
export function transformMixed(input: TransformInput): TimeseriesProps {
  const fd = input.formData;
  const fdA = queryFormData(fd, 'a');
  const fdB = queryFormData(fd, 'b');
  const kindA = seriesKindOf(fd.seriesType, 'line');
  const kindB = seriesKindOf(fd.seriesTypeB, 'bar');
  // A number x-axis spans both queries' data; bars in either keep ECharts' ends, as Superset's mixed chart.
  const a = transformTimeseries({ ...input, formData: fdA as any, queriesData: [input.queriesData[0]] }, kindA, { xRangeKind: kindA === 'bar' || kindB === 'bar' ? 'bar' : 'line' });
  // One x-axis: B's points are laid as A's axis lays them (numbers as numbers or as categories).
  const b = transformTimeseries({ ...input, formData: fdB as any, queriesData: [input.queriesData[1] ?? { data: [] }] }, kindB, { numericX: a.option.xAxis.type === 'value' });
  const names = displayNames(input.datasource);
  // The series' metric, named (Superset's MetricDisplayName: the query's first metric).
  const metricName = (q: FormData) => {
    const first = asList<MetricEntry>(q.metrics)[0];
    return first === undefined ? '' : names(metricLabel(first));
  };
  const identify = fd.show_query_identifiers === true;
  const [metricA, metricB] = [metricName(fdA), metricName(fdB)];
  const nameA = (name: string) => (identify && name in a.seriesGroups ? withQueryIdentifier(name, a.seriesGroups[name]!, metricA, 'A') : name);
  const namesA = new Set(a.option.series.map((s: any) => nameA(s.name)));
  const nameB = (name: string) => (identify ? withQueryIdentifier(name, b.seriesGroups[name] ?? [], metricB, 'B') : namesA.has(name) ? `${name} (Query B)` : name);
  // Each query's values read in its own formats (B's labels and axis already do): its series' tooltips too.
  const formatB = valueFormatOf(fdB);
  const seriesB = withArea(fdB, b.option.series).map((s: any) => ({ ...s, name: nameB(s.name), yAxisIndex: Number(fd.yAxisIndexB ?? 0) === 1 ? 1 : 0, stack: s.stack ? 'b' : undefined, tooltip: { valueFormatter: (v: number) => formatB(v) } }));
  const seriesA = withArea(fdA, a.option.series).map((s: any) => ({ ...s, name: nameA(s.name), yAxisIndex: Number(fd.yAxisIndex ?? 0) === 1 ? 1 : 0, stack: s.stack ? 'a' : undefined }));
  const series = [...seriesA, ...seriesB];
  const twoAxes = series.some((s) => s.yAxisIndex === 1);
  const yAxis = twoAxes ? [a.option.yAxis, { ...b.option.yAxis, position: 'right', splitLine: { show: false }, name: fd.yAxisTitleSecondary || undefined }] : a.option.yAxis;
  const legendNames = series.map((s) => s.name);
  const namesB = new Set(seriesB.map((s: any) => s.name));
  const formatA = valueFormatOf(fdA);
  const tooltip = a.option.tooltip.formatter ? { ...a.option.tooltip, formatter: timeseriesRichTooltip(fd, a.isTime, a.horizontal, (v, name) => (name !== undefined && namesB.has(name) ? formatB(v) : formatA(v))) } : a.option.tooltip;
  const frame = timeseriesFrame(fd, input.theme, {
    names: legendNames,
    width: input.width ?? 600,
    horizontal: false,
    yNameGap: a.yLabelRoom.nameGap,
    yLabelWidth: a.yLabelRoom.labelWidth,
    stacked: !!(fd.stack || fd.stackB),
    rightAxis: twoAxes,
  });
  return {
    ...a,
    option: { ...a.option, grid: frame.grid, legend: frame.legend, dataZoom: frame.dataZoom, toolbox: frame.toolbox, tooltip, yAxis, series },
    // By name: an object's keys are not in the series' order when names read as numbers ('2001').
    seriesGroups: { ...Object.fromEntries(Object.entries(a.seriesGroups).map(([name, group]) => [nameA(name), group])), ...Object.fromEntries(Object.entries(b.seriesGroups).map(([name, group]) => [nameB(name), group])) },
    // Layers draw over both queries' series, so the legend they extend is the whole chart's.
    annotations: a.annotations ? { ...a.annotations, seriesNames: legendNames } : null,
  };
}
