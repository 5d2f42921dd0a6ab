import { GenericDataType } from '@meridian/contracts/rules/constants';
import type { TransformInput } from '../types';
import { getSequentialColors } from '../shared/colors';
import { rowsOf, type EChartsTransformed } from '../shared/echarts-chart';
import { getNumberFormatter, getTimeFormatter, getValueFormatter } from '../shared/format';
import { extent } from '../shared/extent';
import { widestLabel } from '../shared/label-room';
import { columnLabel, displayNames, metricLabel, toNumber, type ColumnEntry, type MetricEntry } from '../shared/metrics';
import { axisStyle, chartTheme, echartsBase } from '../shared/theme';

/** The colour scale's offset from the right edge, its bar's width, and its drag handles with their gap to the labels. */
const VISUAL_MAP_RIGHT = 28;
const VISUAL_MAP_BAR = 20;
const VISUAL_MAP_HANDLE = 34;
const GRID_LEFT = 16;

/**
 * The x-axis labels of columns `columnWidth` pixels wide: level while the widest fits its column, else turned 45°, and
 * then each shown while a turned label (about a line high across) has room, rather than every other one hidden.
 */
export function columnLabels(labels: string[], columnWidth: number): { rotate: number; interval: number | 'auto' } {
  if (widestLabel(labels) <= columnWidth - 4) return { rotate: 0, interval: 'auto' };
  return { rotate: 45, interval: columnWidth >= 14 ? 0 : 'auto' };
}

/** A cell per (x, y) coloured by the metric on a sequential scale; normalised across x, y or the heatmap. */
export function transformHeatmap({ formData: fd, queriesData, datasource, theme, width }: TransformInput): EChartsTransformed {
  const names = displayNames(datasource);
  const result = queriesData[0] ?? {};
  const xCol = columnLabel(fd.x_axis as ColumnEntry);
  const yCol = columnLabel((Array.isArray(fd.groupby) ? fd.groupby[0] : fd.groupby) as ColumnEntry);
  const metric = metricLabel(fd.metric as MetricEntry);
  const xTime = result.coltypes?.[result.colnames?.indexOf(xCol) ?? -1] === GenericDataType.TEMPORAL;
  const timeFormat = getTimeFormatter(fd.x_axis_time_format);
  const format = getValueFormatter(fd.y_axis_format, fd.currency_format);
  const label = (v: unknown, time: boolean) => (v === null || v === undefined ? 'NULL' : time ? timeFormat(Number(v)) : String(v));
  const rows = rowsOf(queriesData);
  const sortKey = (v: unknown) => (typeof v === 'number' ? v : String(v ?? ''));
  const uniq = (col: string, time: boolean) => [...new Map(rows.map((r) => [label(r[col], time), sortKey(r[col])])).entries()].sort((a, b) => (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0)).map(([l]) => l);
  const xs = uniq(xCol, xTime);
  const ys = uniq(yCol, false);
  const values = rows.map((r) => toNumber(r[metric]));
  // Superset's normalize_across: each cell's rank within its x column, y row or the whole heatmap (0..1).
  const across = String(fd.normalize_across ?? 'heatmap');
  const peersOf = (r: Record<string, unknown>) => (across === 'x' ? label(r[xCol], xTime) : across === 'y' ? label(r[yCol], false) : '');
  // Each group's lowest and highest value, found in one pass (not a pass over all rows for every cell).
  const ranges = new Map<string, [number, number]>();
  for (const r of rows) {
    const v = toNumber(r[metric]) ?? 0;
    const range = ranges.get(peersOf(r));
    if (!range) ranges.set(peersOf(r), [v, v]);
    else {
      if (v < range[0]) range[0] = v;
      if (v > range[1]) range[1] = v;
    }
  }
  const scaleOf = (r: Record<string, unknown>) => {
    const [lo, hi] = ranges.get(peersOf(r))!;
    return hi === lo ? 1 : ((toNumber(r[metric]) ?? 0) - lo) / (hi - lo);
  };
  const data = rows.map((r, i) => [xs.indexOf(label(r[xCol], xTime)), ys.indexOf(label(r[yCol], false)), fd.normalized ? scaleOf(r) : values[i]]);
  const [min, max] = extent(data.map((d) => Number(d[2] ?? 0)), [0, 1]);
  const scaleLabel = (v: number) => (fd.normalized ? getNumberFormatter('.0%')(v) : format(v));
  // The colour scale's labels stand left of its bar and handles: the grid ends before the longest of them.
  const scaleRoom = VISUAL_MAP_RIGHT + VISUAL_MAP_BAR + VISUAL_MAP_HANDLE + widestLabel([scaleLabel(min), scaleLabel(max)]) + 8;
  const axis = axisStyle(theme);
  const t = chartTheme(theme);
  const groups: Record<string, unknown[]> = {};
  return {
    groupby: [],
    groups,
    option: {
      ...echartsBase(theme),
      animation: false,
      // The colour scale stands at the right, clear of the rotated x-axis labels.
      grid: { top: 24, right: scaleRoom, bottom: 16, left: GRID_LEFT, containLabel: true },
      tooltip: { ...echartsBase(theme).tooltip, formatter: (p: any) => `${xs[p.value[0]]} · ${ys[p.value[1]]}<br/>${names(metric)}: ${fd.normalized ? getNumberFormatter('.1%')(p.value[2]) : format(p.value[2])}` },
      xAxis: { ...axis, type: 'category', data: xs, splitArea: { show: false }, axisLabel: { ...axis.axisLabel, ...columnLabels(xs, (width - GRID_LEFT - widestLabel(ys) - scaleRoom) / Math.max(xs.length, 1)) } },
      yAxis: { ...axis, type: 'category', data: ys, splitArea: { show: false } },
      visualMap: {
        min,
        max,
        calculable: true,
        orient: 'vertical',
        right: VISUAL_MAP_RIGHT,
        itemWidth: VISUAL_MAP_BAR,
        top: 'middle',
        itemHeight: 140,
        textStyle: { color: t.subtleText },
        formatter: scaleLabel,
        inRange: { color: getSequentialColors(fd.linear_color_scheme, 9, theme) },
      },
      series: [{ type: 'heatmap', data, label: { show: !!fd.show_values, formatter: (p: any) => format(p.value[2]) }, itemStyle: { borderColor: t.tooltipBackground, borderWidth: 1 } }],
    },
  };
}
