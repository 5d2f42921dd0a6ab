import type { TransformInput } from '../types';
import { getCategoricalColor } from '../shared/colors';
import { rowsOf, type EChartsTransformed } from '../shared/echarts-chart';
import { getNumberFormatter } from '../shared/format';
import { columnLabel, displayNames, metricLabel, toNumber, type ColumnEntry, type MetricEntry } from '../shared/metrics';
import { axisStyle, echartsBase, legendStyle } from '../shared/theme';

/** One bubble per entity at (x, y), its area by the size metric up to max_bubble_size; one colour per series. */
export function transformBubble({ formData: fd, queriesData, datasource, theme }: TransformInput): EChartsTransformed {
  const names = displayNames(datasource);
  const entity = columnLabel(fd.entity as ColumnEntry);
  const seriesCol = fd.series ? columnLabel(fd.series as ColumnEntry) : null;
  const [x, y, size] = [fd.x, fd.y, fd.size].map((m) => metricLabel(m as MetricEntry));
  const rows = rowsOf(queriesData);
  const largest = Math.max(1e-9, ...rows.map((r) => Math.abs(toNumber(r[size!]) ?? 0)));
  const maxSize = Number(fd.max_bubble_size ?? 25) * 2;
  const xFormat = getNumberFormatter(fd.x_axis_format);
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
      tooltip: { ...echartsBase(theme).tooltip, trigger: 'item', formatter: (p: any) => `${p.name}<br/>${names(x)}: ${xFormat(p.value[0])}<br/>${names(y)}: ${yFormat(p.value[1])}<br/>${names(size)}: ${getNumberFormatter(null)(p.value[2])}` },
      xAxis: { ...axis, type: fd.logXAxis ? 'log' : 'value', scale: true, name: fd.x_axis_label || undefined, nameLocation: 'middle', nameGap: 28, axisLabel: { ...axis.axisLabel, formatter: (v: number) => xFormat(v) } },
      yAxis: { ...axis, type: fd.logYAxis ? 'log' : 'value', scale: true, name: fd.y_axis_label || undefined, nameLocation: 'middle', nameGap: 48, axisLabel: { ...axis.axisLabel, formatter: (v: number) => yFormat(v) } },
      series,
    },
  };
}
