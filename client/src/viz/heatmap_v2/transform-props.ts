import type { TransformInput } from '../types';
import { getSequentialColors } from '../shared/colors';
import { rowsOf, type EChartsTransformed } from '../shared/echarts-chart';
import { getNumberFormatter, getTimeFormatter } from '../shared/format';
import { columnLabel, metricLabel, toNumber, type ColumnEntry, type MetricEntry } from '../shared/metrics';
import { axisStyle, chartTheme, echartsBase } from '../shared/theme';

const TEMPORAL = 2;

/** A cell per (x, y) coloured by the metric on a sequential scale; normalised across x, y or the heatmap. */
export function transformHeatmap({ formData: fd, queriesData, theme }: TransformInput): EChartsTransformed {
  const result = queriesData[0] ?? {};
  const xCol = columnLabel(fd.x_axis as ColumnEntry);
  const yCol = columnLabel((Array.isArray(fd.groupby) ? fd.groupby[0] : fd.groupby) as ColumnEntry);
  const metric = metricLabel(fd.metric as MetricEntry);
  const xTime = result.coltypes?.[result.colnames?.indexOf(xCol) ?? -1] === TEMPORAL;
  const timeFormat = getTimeFormatter(fd.x_axis_time_format);
  const format = getNumberFormatter(fd.y_axis_format);
  const label = (v: unknown, time: boolean) => (v === null || v === undefined ? 'NULL' : time ? timeFormat(Number(v)) : String(v));
  const rows = rowsOf(queriesData);
  const sortKey = (v: unknown) => (typeof v === 'number' ? v : String(v ?? ''));
  const uniq = (col: string, time: boolean) => [...new Map(rows.map((r) => [label(r[col], time), sortKey(r[col])])).entries()].sort((a, b) => (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0)).map(([l]) => l);
  const xs = uniq(xCol, xTime);
  const ys = uniq(yCol, false);
  const values = rows.map((r) => toNumber(r[metric]));
  // Superset's normalize_across: each cell's rank within its x column, y row or the whole heatmap (0..1).
  const across = String(fd.normalize_across ?? 'heatmap');
  const scaleOf = (r: Record<string, unknown>) => {
    const peers = rows.filter((p) => (across === 'x' ? label(p[xCol], xTime) === label(r[xCol], xTime) : across === 'y' ? label(p[yCol], false) === label(r[yCol], false) : true));
    const vs = peers.map((p) => toNumber(p[metric]) ?? 0);
    const lo = Math.min(...vs);
    const hi = Math.max(...vs);
    return hi === lo ? 1 : ((toNumber(r[metric]) ?? 0) - lo) / (hi - lo);
  };
  const data = rows.map((r, i) => [xs.indexOf(label(r[xCol], xTime)), ys.indexOf(label(r[yCol], false)), fd.normalized ? scaleOf(r) : values[i]]);
  const numeric = data.map((d) => Number(d[2] ?? 0));
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
      grid: { top: 24, right: 100, bottom: 16, left: 16, containLabel: true },
      tooltip: { ...echartsBase(theme).tooltip, formatter: (p: any) => `${xs[p.value[0]]} · ${ys[p.value[1]]}<br/>${metric}: ${fd.normalized ? getNumberFormatter('.1%')(p.value[2]) : format(p.value[2])}` },
      xAxis: { ...axis, type: 'category', data: xs, splitArea: { show: false }, axisLabel: { ...axis.axisLabel, rotate: xs.length > 12 ? 45 : 0 } },
      yAxis: { ...axis, type: 'category', data: ys, splitArea: { show: false } },
      visualMap: {
        min: numeric.length ? Math.min(...numeric) : 0,
        max: numeric.length ? Math.max(...numeric) : 1,
        calculable: true,
        orient: 'vertical',
        right: 28,
        top: 'middle',
        itemHeight: 140,
        textStyle: { color: t.subtleText },
        formatter: (v: number) => (fd.normalized ? getNumberFormatter('.0%')(v) : format(v)),
        inRange: { color: getSequentialColors(fd.linear_color_scheme, 9) },
      },
      series: [{ type: 'heatmap', data, label: { show: !!fd.show_values, formatter: (p: any) => format(p.value[2]) }, itemStyle: { borderColor: t.tooltipBackground, borderWidth: 1 } }],
    },
  };
}
