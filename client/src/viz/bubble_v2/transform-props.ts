import type { TransformInput } from '../types';
import { getCategoricalColor } from '../shared/colors';
import { rowsOf, type EChartsTransformed } from '../shared/echarts-chart';
import { axisBounds } from '../shared/axis-bounds';
import { getNumberFormatter } from '../shared/format';
import { columnLabel, displayNames, metricLabel, toNumber, type ColumnEntry, type MetricEntry } from '../shared/metrics';
import { axisStyle, echartsBase, legendStyle } from '../shared/theme';

/** An axis's ends from its bounds when its 'Truncate' box is ticked; an empty side is left to the data. */
function axisEnds(truncate: boolean, bounds: unknown): { min?: number; max?: number } {
  if (!truncate) return {};
  const [min, max] = axisBounds(bounds);
  return { ...(min === null ? {} : { min }), ...(max === null ? {} : { max }) };
}

/** One bubble per entity at (x, y), its area by the size metric up to max_bubble_size; one colour per series. */
export function transformBubble({ formData: fd, queriesData, datasource, theme }: TransformInput): EChartsTransformed {
  const names = displayNames(datasource);
  const entity = columnLabel(fd.entity as ColumnEntry);
  const seriesCol = fd.series ? columnLabel(fd.series as ColumnEntry) : null;
  const [x, y, size] = [fd.x, fd.y, fd.size].map((m) => metricLabel(m as MetricEntry));
  const rows = rowsOf(queriesData);
  const largest = Math.max(1e-9, ...rows.map((r) => Math.abs(toNumber(r[size!]) ?? 0)));
  const maxSize = Number(fd.max_bubble_size ?? 25) * 2;
  // Superset's key is xAxisFormat; an earlier Meridian panel stored x_axis_format.
  const xFormat = getNumberFormatter(fd.xAxisFormat ?? fd.x_axis_format);
  const sizeFormat = getNumberFormatter(fd.tooltipSizeFormat);
  const yFormat = getNumberFormatter(fd.y_axis_format);
  const bySeries = new Map<string, any[]>();
  const groups: Record<string, unknown[]> = {};
  for (const row of rows) {
    const name = seriesCol ? String(row[seriesCol] ?? 'NULL') : String(row[entity] ?? 'NULL');
    const list = bySeries.get(name) ?? [];
    const s = Math.abs(toNumber(row[size!]) ?? 0);
    list.push({ name: String(row[entity] ?? 'NULL'), value: [toNumber(row[x!]), toNumber(row[y!]), toNumber(row[size!])], symbolSize: Math.max(4, Math.sqrt(s / largest) * maxSize) });
    groups[String(row[entity] ?? 'NULL')] = [row[entity]];
    bySeries.set(name, list);
  }
  const axis = axisStyle(theme);
  // 'Truncate X/Y Axis' with bounds: the axis runs to them (an empty side follows the data); Superset's default
  // truncates the x-axis and not the y-axis.
  const xBounds = axisEnds(fd.truncateXAxis !== false, fd.xAxisBounds);
  const yBounds = axisEnds(!!fd.truncateYAxis, fd.y_axis_bounds);
  const xTurn = Number(fd.xAxisLabelRotation) || 0;
  const series = [...bySeries.entries()].map(([name, data]) => {
    const color = getCategoricalColor(fd.color_scheme, name);
    return { name, type: 'scatter', data, itemStyle: { color, opacity: Number(fd.opacity ?? 0.6), borderColor: color }, emphasis: { focus: 'series' } };
  });
  return {
    groupby: [entity],
    groups,
    option: {
      ...echartsBase(theme),
      animation: false,
      grid: { top: 44, right: 24, bottom: fd.x_axis_label ? 44 : 28, left: fd.y_axis_label ? 60 : 16, containLabel: true },
      legend: { ...legendStyle(theme, { show: fd.show_legend !== false && series.length > 1 }), data: series.map((s) => s.name) },
      tooltip: { ...echartsBase(theme).tooltip, trigger: 'item', formatter: (p: any) => `${p.name}<br/>${names(x)}: ${xFormat(p.value[0])}<br/>${names(y)}: ${yFormat(p.value[1])}<br/>${names(size)}: ${sizeFormat(p.value[2])}` },
      xAxis: { ...axis, type: fd.logXAxis ? 'log' : 'value', scale: true, ...xBounds, name: fd.x_axis_label || undefined, nameLocation: 'middle', nameGap: 28 + xTurn / 2, axisLabel: { ...axis.axisLabel, rotate: xTurn, formatter: (v: number) => xFormat(v) } },
      yAxis: { ...axis, type: fd.logYAxis ? 'log' : 'value', scale: true, ...yBounds, name: fd.y_axis_label || undefined, nameLocation: 'middle', nameGap: 48, axisLabel: { ...axis.axisLabel, rotate: Number(fd.yAxisLabelRotation) || 0, formatter: (v: number) => yFormat(v) } },
      series,
    },
  };
}
