import { GenericDataType } from '@meridian/contracts/rules/constants';
import { compareNatural } from '@meridian/contracts/rules/natural-order';
import type { TransformInput } from '../../types';
import { hasSelection, selectionStyle } from '../cross-filter';
import { axisBounds } from '../axis-bounds';
import { getCategoricalColor } from '../colors';
import { getNumberFormatter, getTimeFormatter, getValueFormatter, isSmartDate, smartDateDetailed } from '../format';
import { asList, columnLabel, displayNames, metricLabel, toNumber, toTime, type ColumnEntry, type MetricEntry } from '../metrics';
import { widestLabel } from '../label-room';
import { axisStyle, chartTheme, echartsBase } from '../theme';
import { timeseriesFrame } from './layout';
import { formatForComparison } from '@meridian/contracts/rules/validators';
import type { AnnotationInput } from './annotations';
import { richTooltipFormatter, STREAM_BASE } from './tooltip';
import { activeComparison, contributionOf, seriesDisplayNames, seriesLabels, usesAdvancedAnalytics } from './advanced-analytics';

export type SeriesKind = 'line' | 'bar' | 'area' | 'scatter' | 'smooth' | 'step';

export interface TimeseriesProps {
  option: Record<string, any>;
  /** For clicks: the x-axis column, the group-by columns and each series' group values. */
  xColumn: string;
  groupby: string[];
  seriesGroups: Record<string, string[]>;
  isTime: boolean;
  /** Bars laid along the y-axis: each point is [value, x]. */
  horizontal: boolean;
  /** Annotation layers to draw (time axes only); the component adds them, loading a formula evaluator if needed. */
  annotations: AnnotationInput | null;
  /** The y-axis' widest tick label and its title's gap, for a chart that lays out the frame again (the mixed chart). */
  yLabelRoom: { labelWidth: number; nameGap: number };
}

/**
 * Chart data rows (one per x value and group) → an ECharts option with one series per metric and group,
 * sorted along x; time on a time axis, numbers on a value axis (not stacked, nor forced to categories, nor under
 * horizontal bars), anything else on a category axis.
 */
export function transformTimeseries(input: TransformInput, kind: SeriesKind, opts: { numericX?: boolean; xRangeKind?: SeriesKind } = {}): TimeseriesProps {
  const { formData: fd, queriesData, theme } = input;
  const names = displayNames(input.datasource);
  const result = queriesData[0] ?? { data: [], colnames: [], coltypes: [] };
  const rows = (result.data ?? []) as Record<string, unknown>[];
  const xColumn = columnLabel(fd.x_axis as ColumnEntry);
  const groupby = asList<ColumnEntry>(fd.groupby).map(columnLabel);
  const metrics = asList<MetricEntry>(fd.metrics).map(metricLabel);
  const xIndex = (result.colnames ?? []).indexOf(xColumn);
  const isTime = xIndex >= 0 ? result.coltypes?.[xIndex] === GenericDataType.TEMPORAL : rows.some((r) => typeof r[xColumn] === 'number' && Number(r[xColumn]) > 1e11);
  const horizontal = kind === 'bar' && fd.orientation === 'horizontal';
  // Superset's getAxisType: numbers lie along a continuous (value) axis, unless stacked or 'Force categorical'; and
  // here not under horizontal bars either, which ECharts lays along their categories only (on two value axes it
  // stood them upright). A chart drawing two queries on one x-axis decides for both: `opts.numericX`, and the series
  // kind its number x-axis is ranged for, `opts.xRangeKind` (bars keep ECharts' ends).
  const isNumericX = !isTime && !horizontal && (opts.numericX ?? (xIndex >= 0 && result.coltypes?.[xIndex] === GenericDataType.NUMERIC && !stackModeOf(fd.stack) && !fd.xAxisForceCategorical));
  const numberFormat = valueFormatOf(fd);
  const timeFormat = getTimeFormatter(fd.x_axis_time_format);

  // Each row's x value, taken once: times and numbers sorted (a number axis has no place for a null), a category
  // axis's categories in the query's order.
  const points = rows
    .map((row) => ({ row, x: isTime ? toTime(row[xColumn]) : isNumericX ? toNumber(row[xColumn]) : String(row[xColumn] ?? 'NULL') }))
    .filter((p) => !isNumericX || p.x !== null);
  if (isTime || isNumericX) points.sort((a, b) => Number(a.x) - Number(b.x));
  // The x values in order, each once.
  const xs = [...new Set(points.map((p) => p.x))];
  const categories = isTime || isNumericX ? [] : (xs as string[]);

  const series = new Map<string, { name: string; group: string[]; points: Array<[unknown, number | null]> }>();
  const add = (name: string, group: string[], x: unknown, y: number | null) => {
    let s = series.get(name);
    if (!s) series.set(name, (s = { name, group, points: [] }));
    s.points.push([x, y]);
  };
  // Advanced analytics answer pivoted (one column per metric, time shift or comparison, and group); else one row per x and group.
  const columns = pivotedColumns(fd, result.colnames ?? [], xColumn, groupby);
  if (columns) {
    // One metric over groups names its series by the groups alone, unless 'Truncate Metric' is off (Superset's renameOperator).
    const many = new Set(columns.map((c) => c.label)).size > 1 || fd.truncate_metric === false;
    const shown = seriesDisplayNames(fd, names);
    for (const { row, x } of points) {
      for (const c of columns) add([...(many || !c.group.length ? [shown(c.label)] : []), ...c.group].join(', '), c.group, x, toNumber(row[c.column]));
    }
  } else {
    for (const { row, x } of points) {
      const group = groupby.map((g) => String(row[g] ?? 'NULL'));
      for (const metric of metrics) add([...(metrics.length > 1 || !group.length || fd.truncate_metric === false ? [names(metric)] : []), ...group].join(', '), group, x, toNumber(row[metric]));
    }
  }

  const stacking = stackModeOf(fd.stack);
  const stack = stacking ? 'total' : undefined;
  // Every series spans every x, as Superset's pivoted frame does: ECharts stacks by position in the data, so a
  // series missing a month stacked its later points on other months' bars (segments floating over the stacks).
  // A missing value is a gap, 0 when stacked (Superset's fillNeighborValue); a scatter plot leaves it out.
  for (const s of series.values()) {
    const at = new Map(s.points);
    s.points = [];
    for (const x of xs) {
      const y = at.get(x) ?? null;
      if (y === null && kind === 'scatter') continue;
      s.points.push([x, y === null && stack ? 0 : y]);
    }
  }
  sortSeries(series, fd.sort_series_type, fd.sort_series_ascending === true);
  // Each x value's total over the series (every series has a point at each x once filled above).
  const xTotals = () => {
    const all = [...series.values()];
    return xs.map((_, i) => all.reduce((sum, s) => sum + (s.points[i]?.[1] ?? 0), 0));
  };
  // 'Expand': each x value's series as shares of its total, stacked to the whole.
  if (stacking === 'Expand') {
    const totals = xTotals();
    for (const s of series.values()) s.points = s.points.map(([x, y], i) => [x, y === null ? null : totals[i] ? y / totals[i]! : 0]);
  }
  // The chart's own cross-filter shows as its selected series (time on x) or bar (categories on x) drawn in full,
  // the rest faded, as Superset's; its values are those of the clicked columns, the time left out.
  const selecting = hasSelection(input.filterState);
  // A horizontal bar's point is [value, x].
  const oriented = (x: unknown, y: unknown) => (horizontal ? [y, x] : [x, y]);
  const echartsSeries = [...series.values()].map((s) => {
    const color = getCategoricalColor(fd.color_scheme, s.name);
    const seriesStyle = selecting && isTime ? selectionStyle(input.filterState, s.group) : {};
      const base: Record<string, any> = {
      name: s.name,
      type: kind === 'bar' ? 'bar' : kind === 'scatter' ? 'scatter' : 'line',
      data: selecting && !isTime ? s.points.map(([x, y]) => ({ value: oriented(x, y), itemStyle: selectionStyle(input.filterState, [x, ...s.group]) })) : horizontal ? s.points.map(([x, y]) => oriented(x, y)) : s.points,
      itemStyle: { color, ...seriesStyle },
      lineStyle: { color, width: 2, ...seriesStyle },
      // ECharts draws a line's value labels on its points only: 'Show value' shows the points (labels that would
      // overlap are hidden).
      showSymbol: kind === 'scatter' || !!fd.markerEnabled || !!fd.show_value || s.points.filter(([, y]) => y !== null).length < 2,
      labelLayout: fd.show_value ? { hideOverlap: true } : undefined,
      symbolSize: kind === 'scatter' || fd.markerEnabled ? Number(fd.markerSize ?? (kind === 'scatter' ? 8 : 6)) : 6,
      stack,
      emphasis: { focus: 'series' },
      label: { show: !!fd.show_value, position: kind === 'bar' ? (horizontal ? 'right' : 'top') : 'top', formatter: (p: any) => numberFormat(horizontal ? p.value[0] : p.value[1]), color: 'inherit' },
    };
    if (kind === 'smooth') base.smooth = true;
    if (kind === 'step') base.step = fd.seriesType === 'end' || fd.seriesType === 'middle' ? fd.seriesType : 'start';
    if (kind === 'area') base.areaStyle = { opacity: Number(fd.opacity ?? 0.2) * (seriesStyle.opacity ?? 1) };
    return base;
  });

  // 'Only Total' (on unless turned off): a stacked chart's values read once per x value, its total, over the stack.
  if (stacking && fd.show_value && fd.only_total !== false && echartsSeries.length) {
    const totals = xTotals();
    for (const s of echartsSeries) s.label = { ...s.label, show: false };
    const top = echartsSeries[echartsSeries.length - 1]!;
    top.label = { ...top.label, show: true, formatter: (p: { dataIndex: number }) => numberFormat(totals[p.dataIndex] ?? 0) };
  }
  // 'Stream': the stack stands on a hidden base of minus half each x value's total, so it flows around zero.
  if (stacking === 'Stream' && series.size) {
    const totals = xTotals();
    const base = xs.map((x, i) => oriented(x, -totals[i]! / 2));
    // Stacked on whatever sign (ECharts stacks positives and negatives apart by default), so the rest sits on the base.
    for (const s of echartsSeries) s.stackStrategy = 'all';
    echartsSeries.unshift({ id: STREAM_BASE, stackStrategy: 'all', name: '', type: kind === 'bar' ? 'bar' : 'line', data: base, stack, silent: true, showSymbol: false, lineStyle: { opacity: 0 }, itemStyle: { opacity: 0 }, tooltip: { show: false }, emphasis: { disabled: true } });
  }
  const yValues = [...series.values()].flatMap((s) => s.points.map(([, y]) => y)).filter((y): y is number => typeof y === 'number');
  const yLabelWidth = widestLabel([0, ...yValues].map((y) => numberFormat(y)));
  const yNameGap = Math.max(48, yLabelWidth + 16);
  const axis = axisStyle(theme);
  const xAxis: Record<string, any> = {
    ...axis,
    type: isTime ? 'time' : isNumericX ? 'value' : 'category',
    data: isTime || isNumericX ? undefined : categories,
    // About one time label per 90 px: ECharts' own count crowded a narrow chart, which then hid its years.
    splitNumber: isTime && !horizontal ? Math.max(2, Math.floor((input.width ?? 600) / 90)) : undefined,
    name: fd.x_axis_title || undefined,
    nameLocation: 'middle',
    nameGap: 28,
    // Adaptive dates are ECharts' own time labels, as Superset leaves them: years over months over days, the coarser
    // kept when labels crowd (a single adaptive formatter let ECharts hide the years first: 'July April October').
    axisLabel: { ...axis.axisLabel, formatter: isTime && !isSmartDate(fd.x_axis_time_format) ? (v: number) => timeFormat(v) : undefined, rotate: Number(fd.xAxisLabelRotation) || undefined },
    splitLine: { show: false },
    minorTick: { show: !!fd.minorTicks },
    ...(isNumericX ? xAxisRange(fd, opts.xRangeKind ?? kind) : {}),
  };
  const yAxis: Record<string, any> = {
    ...axis,
    type: fd.logAxis ? 'log' : 'value',
    name: fd.y_axis_title || undefined,
    nameLocation: 'middle',
    // The title stands clear of the widest tick label (a fixed 48 px put it among '$600,000.00' and the like).
    nameGap: yNameGap,
    axisLabel: { ...axis.axisLabel, formatter: (v: number) => numberFormat(v) },
    // 'Minor ticks' and 'Minor Split Line' are apart, as Superset's (ECharts places the minor lines by the minor ticks, shown or not).
    minorTick: { show: !!fd.minorTicks },
    minorSplitLine: fd.minorSplitLine ? { show: true, lineStyle: { opacity: 0.4 } } : undefined,
    // Shares stacked to the whole (Expand, or row contributions stacked) fill exactly 0–100%, as Superset's axis.
    ...(!fd.logAxis && (stacking === 'Expand' || (stacking && contributionOf(fd) === 'row')) ? { min: 0, max: 1 } : yAxisRange(fd)),
  };
  const richTooltip = fd.rich_tooltip !== false && kind !== 'scatter';
  const frame = timeseriesFrame(fd, theme, { names: [...series.keys()], width: input.width ?? 600, horizontal, yNameGap, yLabelWidth, stacked: !!stacking });
  const option = {
    ...echartsBase(theme),
    // Times are UTC throughout (the answers' and the formatters'): ticks fall on UTC months and days.
    useUTC: true,
    animation: false,
    grid: frame.grid,
    legend: frame.legend,
    tooltip: {
      ...echartsBase(theme).tooltip,
      trigger: richTooltip ? 'axis' : 'item',
      valueFormatter: (v: number) => numberFormat(v),
      formatter: richTooltip ? timeseriesRichTooltip(fd, isTime, horizontal, numberFormat) : undefined,
      axisPointer: { type: kind === 'bar' ? 'shadow' : 'line' },
    },
    xAxis: horizontal ? yAxis : xAxis,
    yAxis: horizontal ? { ...xAxis, inverse: true } : yAxis,
    dataZoom: frame.dataZoom,
    toolbox: frame.toolbox,
    series: echartsSeries,
  };
  const layers = Array.isArray(fd.annotation_layers) ? fd.annotation_layers : [];
  const annotations: AnnotationInput | null =
    isTime && !horizontal && layers.length
      ? {
          layers,
          data: (result as { annotation_data?: Record<string, unknown> }).annotation_data ?? {},
          xValues: xs.map(Number),
          colorScheme: fd.color_scheme,
          textColor: chartTheme(theme).text,
          seriesNames: [...series.keys()],
          legendAllowed: fd.show_legend !== false,
        }
      : null;
  return { option, xColumn, groupby, seriesGroups: Object.fromEntries([...series.values()].map((s) => [s.name, s.group])), isTime, horizontal, annotations, yLabelRoom: { labelWidth: yLabelWidth, nameGap: yNameGap } };
}

/**
 * The series columns of a pivoted answer (advanced analytics): each column but the x-axis, read as its first level
 * (a metric, 'SUM(num)__1 year ago', 'difference__SUM(num)__SUM(num)__1 year ago') and its group values. Null when
 * the answer is not pivoted (no advanced analytics, or a query that sent no pivot and kept its group-by columns).
 */
function pivotedColumns(fd: TransformInput['formData'], colnames: readonly string[], xColumn: string, groupby: string[]) {
  if (!usesAdvancedAnalytics(fd) || groupby.some((g) => colnames.includes(g))) return null;
  const labels = seriesLabels(fd).sort((a, b) => b.length - a.length);
  return colnames
    .filter((c) => c !== xColumn)
    .map((column) => {
      const label = labels.find((l) => column === l || column.startsWith(`${l}, `)) ?? column;
      return { column, label, group: column === label ? [] : column.slice(label.length + 2).split(', ') };
    });
}

/**
 * The y-axis' range: from zero unless 'Truncate Y Axis', then fitted to the data and widened (never narrowed) to the
 * bounds given, as Superset's 'Y Axis Bounds' say.
 */
function yAxisRange(fd: TransformInput['formData']): Record<string, unknown> {
  if (!fd.truncateYAxis) return {};
  const [lo, hi] = axisBounds(fd.y_axis_bounds);
  return {
    scale: true,
    ...(lo !== null ? { min: (extent: { min: number }) => Math.min(extent.min, lo) } : {}),
    ...(hi !== null ? { max: (extent: { max: number }) => Math.max(extent.max, hi) } : {}),
  };
}

/**
 * A number x-axis' range (Superset's getMinAndMaxFromBounds): with 'Truncate X Axis' (on unless turned off) it spans
 * the data, from its least to its greatest x, widened (never narrowed, as the control's description says) to 'X Axis
 * Bounds' where given; bars keep ECharts' own ends (room for the first and last bar). Off, ECharts' rounded range.
 */
function xAxisRange(fd: TransformInput['formData'], kind: SeriesKind): Record<string, unknown> {
  if (fd.truncateXAxis === false) return {};
  const [lo, hi] = axisBounds(fd.xAxisBounds);
  const bar = kind === 'bar';
  return {
    ...(bar ? { scale: true } : {}),
    ...(lo !== null ? { min: (extent: { min: number }) => Math.min(extent.min, lo) } : bar ? {} : { min: 'dataMin' }),
    ...(hi !== null ? { max: (extent: { max: number }) => Math.max(extent.max, hi) } : bar ? {} : { max: 'dataMax' }),
  };
}

/**
 * The value format of a time-series chart's values, labels, tooltips and y-axis: a percentage comparison in a percent
 * format (spec 01 §5), contributions and expanded stacks as whole percents (Superset's), else the y-axis format with
 * the currency format (Superset's getValueFormatter), which shares and ratios do not carry.
 */
export function valueFormatOf(fd: TransformInput['formData']): (value: number | null | undefined) => string {
  if (contributionOf(fd) || stackModeOf(fd.stack) === 'Expand') return getNumberFormatter(',.0%');
  if (activeComparison(fd) === 'percentage') return getNumberFormatter(formatForComparison('percentage', fd.y_axis_format));
  return getValueFormatter(fd.y_axis_format, fd.currency_format);
}

/** The rich tooltip of a time-series chart; `numberFormat` is told each value's series (the mixed chart formats by query). */
export function timeseriesRichTooltip(fd: TransformInput['formData'], isTime: boolean, horizontal: boolean, numberFormat: (value: number, seriesName?: string) => string) {
  return richTooltipFormatter({
    numberFormat,
    heading: (x) => (isTime ? smartDateOr(fd.tooltipTimeFormat, x) : String(x ?? '')),
    total: fd.showTooltipTotal !== false,
    percentage: fd.showTooltipPercentage !== false && !contributionOf(fd),
    sortByMetric: !!fd.tooltipSortByMetric,
    horizontal,
  });
}

/** The tooltip's time: in its own format, Superset's detailed adaptive one unless set ('2004-02-01' where the axis reads 'February'). */
const smartDateOr = (format: unknown, x: unknown): string => (typeof format === 'string' && !isSmartDate(format) ? getTimeFormatter(format)(x as number) : smartDateDetailed(Number(x)));

/**
 * Superset's series order ('Sort Series By'): by name, or by the total, least, greatest or mean of the values, largest
 * first unless ascending. The legend and the stacking follow it. Reorders the map in place.
 */
function sortSeries<T extends { name: string; points: Array<[unknown, number | null]> }>(series: Map<string, T>, by: unknown, ascending: boolean): void {
  const type = by === 'name' || by === 'min' || by === 'max' || by === 'avg' ? by : 'sum';
  const stat = (points: Array<[unknown, number | null]>) => {
    const ys = points.map(([, y]) => y).filter((y): y is number => y !== null);
    if (!ys.length) return 0;
    if (type === 'min') return Math.min(...ys);
    if (type === 'max') return Math.max(...ys);
    const sum = ys.reduce((a, b) => a + b, 0);
    return type === 'avg' ? sum / ys.length : sum;
  };
  const keyed = [...series].map(([key, s]) => ({ key, s, value: type === 'name' ? 0 : stat(s.points) }));
  keyed.sort((a, b) => {
    const order = type === 'name' ? compareNatural(a.s.name, b.s.name) : a.value - b.value;
    return ascending ? order : -order;
  });
  series.clear();
  for (const { key, s } of keyed) series.set(key, s);
}

/** Superset's 'Stacked Style': 'Stack', 'Stream' or (areas) 'Expand'; an earlier checkbox's true stacks. */
const stackModeOf = (value: unknown): 'Stack' | 'Stream' | 'Expand' | null => (value === 'Stream' || value === 'Expand' ? value : value ? 'Stack' : null);
