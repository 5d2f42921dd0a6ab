import type { TransformInput } from '../types';
import { pickerColor } from '../shared/colors';
import { tickLayoutRotate } from '../shared/label-room';
import { rowsOf, type EChartsTransformed } from '../shared/echarts-chart';
import { escapeHtml, getValueFormatter, groupValueFormatter } from '../shared/format';
import { asList, columnLabel, metricLabel, temporalColumns, toNumber, type ColumnEntry, type MetricEntry } from '../shared/metrics';
import { axisStyle, echartsBase, legendStyle } from '../shared/theme';

/** Superset's series colours when none is picked (its increase, decrease and total defaults). */
const WATERFALL_COLORS = { increase: 'rgba(90, 193, 137, 1)', decrease: 'rgba(224, 67, 85, 1)', total: 'rgba(102, 102, 102, 1)' };
/** What Superset writes for a missing x or breakdown value. */
const NULL_LABEL = '<NULL>';
/** ECharts' empty value: no bar at this category in this series. */
const NONE = '-';

/** One bar of the waterfall: a change (a step) or a total, in the order drawn. */
interface WaterfallBar {
  label: string;
  /** The change, or for a total the running total. */
  value: number;
  isTotal: boolean;
  /** The breakdown value a change stands for (a click filters on it); absent without breakdowns and for totals. */
  breakdown?: unknown;
  /** The x value (a click filters on it when it is not temporal). */
  x: unknown;
}

/** A bar's data item: what is drawn, and what the label and tooltip show. */
type BarItem = { value: number | string; change?: number; total?: number; itemStyle?: { color: string } };

/**
 * The bars in order, as Superset's waterfall lays them out. Without a breakdown: one change per x value (its rows
 * added up), then the total. With a breakdown (the first 'Breakdowns' column): each x value's rows as changes named
 * by their breakdown value, then (with 'Show total') a bar named by the x value with the running total so far.
 */
export function waterfallBars(rows: Record<string, unknown>[], opts: { x: string; breakdown?: string; metric: string; showTotal: boolean; xLabel: (raw: unknown) => string; breakdownLabel: (raw: unknown) => string; totalLabel: string }): WaterfallBar[] {
  const byX = new Map<string, { x: unknown; rows: Record<string, unknown>[] }>();
  for (const row of rows) {
    const label = opts.xLabel(row[opts.x]);
    const entry = byX.get(label) ?? { x: row[opts.x], rows: [] };
    entry.rows.push(row);
    byX.set(label, entry);
  }
  const bars: WaterfallBar[] = [];
  let running = 0;
  for (const [label, { x, rows: ofX }] of byX) {
    const changes = ofX.map((row) => toNumber(row[opts.metric]) ?? 0);
    const sum = changes.reduce((a, b) => a + b, 0);
    running += sum;
    if (opts.breakdown === undefined) {
      bars.push({ label, value: sum, isTotal: false, x });
      continue;
    }
    ofX.forEach((row, i) => bars.push({ label: opts.breakdownLabel(row[opts.breakdown!]), value: changes[i]!, isTotal: false, breakdown: row[opts.breakdown!], x }));
    if (opts.showTotal) bars.push({ label, value: running, isTotal: true, x });
  }
  if (opts.breakdown === undefined && opts.showTotal) bars.push({ label: opts.totalLabel, value: running, isTotal: true, x: undefined });
  return bars;
}

/**
 * Each change as a floating bar from the running total (increase or decrease colour), totals from zero. An invisible
 * stacked 'assist' series lifts each bar to where the last one ended; ECharts stacks positive and negative values
 * apart, so a change that takes the running total across zero is drawn as two parts, the one on the far side of
 * zero by the assist series in the change's colour (as Superset draws it).
 */
export function transformWaterfall({ formData: fd, queriesData, theme }: TransformInput): EChartsTransformed {
  const result = queriesData[0] ?? {};
  const x = columnLabel(fd.x_axis as ColumnEntry);
  const breakdownColumn = asList(fd.groupby as ColumnEntry | ColumnEntry[])[0];
  const breakdown = breakdownColumn === undefined ? undefined : columnLabel(breakdownColumn);
  const metric = metricLabel(fd.metric as MetricEntry);
  const xIsTemporal = temporalColumns(result).has(x);
  // Temporal x and breakdown values in the 'Time format' (as Superset's axis formatter writes them).
  const groupValue = groupValueFormatter(result, fd.x_axis_time_format, NULL_LABEL);
  const labelOf = (column: string) => (raw: unknown) => groupValue(column, raw);
  const format = getValueFormatter(fd.y_axis_format, fd.currency_format);
  // Superset's series labels: an empty one reads as its default, in the legend, the tooltip and (the total) the axis.
  const totalLabel = String(fd.total_label || 'Total');
  const increaseLabel = String(fd.increase_label || 'Increase');
  const decreaseLabel = String(fd.decrease_label || 'Decrease');
  const showTotal = fd.show_total !== false;
  const colors = {
    increase: pickerColor(fd.increase_color, WATERFALL_COLORS.increase),
    decrease: pickerColor(fd.decrease_color, WATERFALL_COLORS.decrease),
    total: pickerColor(fd.total_color, WATERFALL_COLORS.total),
  };
  const bars = waterfallBars(rowsOf(queriesData), { x, breakdown, metric, showTotal, xLabel: labelOf(x), breakdownLabel: breakdown === undefined ? labelOf(x) : labelOf(breakdown), totalLabel });

  const assist: BarItem[] = [];
  const increase: BarItem[] = [];
  const decrease: BarItem[] = [];
  const total: BarItem[] = [];
  let before = 0;
  bars.forEach((bar, index) => {
    if (bar.isTotal) {
      assist.push({ value: NONE });
      increase.push({ value: NONE });
      decrease.push({ value: NONE });
      total.push({ value: bar.value, total: bar.value });
      return;
    }
    const after = before + bar.value;
    const crosses = Math.sign(before) !== Math.sign(after);
    // Across zero, the series draws only the part beyond zero; the assist draws the rest.
    const drawn = crosses ? Math.sign(bar.value) * (Math.abs(bar.value) - Math.abs(before)) : bar.value;
    const item = { change: bar.value, total: after };
    if (drawn < 0) {
      increase.push({ value: NONE });
      decrease.push({ ...item, value: after < 0 ? drawn : -drawn });
    } else {
      increase.push({ ...item, value: after > 0 ? drawn : -drawn });
      decrease.push({ value: NONE });
    }
    total.push({ value: NONE });
    if (index === 0) assist.push({ value: 0 });
    else if (crosses) assist.push({ value: before, itemStyle: { color: drawn > 0 ? colors.increase : colors.decrease } });
    else assist.push({ value: Math.abs(after) > Math.abs(before) ? before : after });
    before = after;
  });

  const groups: Record<string, unknown[]> = {};
  for (const bar of bars) {
    if (bar.isTotal) continue;
    if (breakdown !== undefined) groups[bar.label] = [bar.breakdown];
    else if (!xIsTemporal) groups[bar.label] = [bar.x];
  }
  const axis = axisStyle(theme);
  // Superset's keys are x_axis_label / y_axis_label; an earlier Meridian panel stored the x one as x_axis_title.
  const xName = String(fd.x_axis_label || fd.x_axis_title || '');
  const yName = String(fd.y_axis_label || '');
  const rotate = tickLayoutRotate(fd.x_ticks_layout);
  const label = (position: 'top' | 'bottom') => ({ show: !!fd.show_value, position, formatter: (p: { data: BarItem }) => format(p.data.change ?? p.data.total) });
  const series = (name: string, data: BarItem[], color: string, position: 'top' | 'bottom') => ({ name, type: 'bar', stack: 'waterfall', data, itemStyle: { color }, emphasis: { disabled: true }, label: label(position) });
  return {
    // A click on a change filters on its breakdown value, or without breakdowns on its x value (not a temporal one).
    groupby: breakdown !== undefined ? [breakdown] : xIsTemporal ? [] : [x],
    groups,
    option: {
      ...echartsBase(theme),
      animation: false,
      grid: { top: fd.show_legend === true ? 40 : 20, right: 20, bottom: xName ? 44 : 28, left: yName ? 56 : 16, containLabel: true },
      // Superset's waterfall shows no legend unless 'Show legend' is ticked.
      legend: { ...legendStyle(theme, { show: fd.show_legend === true }), data: [increaseLabel, decreaseLabel, totalLabel] },
      tooltip: { ...echartsBase(theme).tooltip, trigger: 'axis', axisPointer: { type: 'shadow' }, formatter: (ps: Array<{ seriesName: string; name: string; data: BarItem }>) => waterfallTooltip(ps, { totalLabel, hasBreakdown: breakdown !== undefined, format }) },
      // Every label shown: with breakdowns, the same breakdown value is written under each x value.
      xAxis: { ...axis, type: 'category', data: bars.map((b) => b.label), name: xName || undefined, nameLocation: 'middle', nameGap: 28, splitLine: { show: false }, axisLabel: { ...axis.axisLabel, hideOverlap: false, ...(rotate === undefined ? {} : { rotate, interval: 0 }) } },
      yAxis: { ...axis, type: 'value', name: yName || undefined, nameLocation: 'middle', nameGap: 52, axisLabel: { ...axis.axisLabel, formatter: (v: number) => format(v) } },
      series: [
        { name: 'assist', type: 'bar', stack: 'waterfall', data: assist, itemStyle: { color: 'transparent' }, emphasis: { disabled: true }, tooltip: { show: false } },
        series(increaseLabel, increase, colors.increase, 'top'),
        series(decreaseLabel, decrease, colors.decrease, 'bottom'),
        series(totalLabel, total, colors.total, 'top'),
      ],
    },
  };
}

/**
 * Superset's waterfall tooltip: the bar's name (a total without breakdowns has none), the change, and the running
 * total after it.
 */
function waterfallTooltip(ps: Array<{ seriesName: string; name: string; data: BarItem }>, opts: { totalLabel: string; hasBreakdown: boolean; format: (n: number) => string }): string {
  const p = ps.find((s) => s.seriesName !== 'assist' && s.data?.value !== NONE);
  if (!p) return '';
  const isTotal = p.seriesName === opts.totalLabel;
  const lines = [
    ...(!isTotal || opts.hasBreakdown ? [`<b>${escapeHtml(p.name)}</b>`] : []),
    ...(isTotal ? [] : [`${escapeHtml(p.seriesName)}: ${opts.format(p.data.change ?? 0)}`]),
    `${escapeHtml(opts.totalLabel)}: ${opts.format(p.data.total ?? 0)}`,
  ];
  return lines.join('<br/>');
}
