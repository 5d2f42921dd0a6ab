import type { TransformInput } from '../types';
import { getCategoricalColor } from '../shared/colors';
import { rowsOf, type EChartsTransformed } from '../shared/echarts-chart';
import { getNumberFormatter } from '../shared/format';
import { asList, columnLabel, toNumber, type ColumnEntry } from '../shared/metrics';
import { axisStyle, echartsBase, legendStyle } from '../shared/theme';

/** A bin's label: the server names bins by their raw edges ('64.71180000000001 - 69.5491'); shown formatted. */
export function binLabel(bin: string, format: (n: number) => string): string {
  const m = /^(-?\d[\d.e+-]*) - (-?\d[\d.e+-]*)$/.exec(bin);
  return m ? `${format(Number(m[1]))} – ${format(Number(m[2]))}` : bin;
}

/** Bars per bin from the server's histogram (one row per group, one column per bin label). */
export function transformHistogram({ formData: fd, queriesData, theme }: TransformInput): EChartsTransformed {
  const groupby = asList<ColumnEntry>(fd.groupby).map(columnLabel);
  const rows = rowsOf(queriesData);
  const colnames: string[] = queriesData[0]?.colnames ?? Object.keys(rows[0] ?? {});
  const bins = colnames.filter((c) => !groupby.includes(c));
  const format = getNumberFormatter(fd.normalize ? '.1%' : fd.y_axis_format);
  const xFormat = getNumberFormatter(fd.x_axis_format);
  const axis = axisStyle(theme);
  const series = rows.map((row) => {
    const name = groupby.map((g) => String(row[g] ?? 'NULL')).join(', ') || columnLabel(fd.column as ColumnEntry);
    const color = getCategoricalColor(fd.color_scheme, name);
    return { name, type: 'bar', barGap: '5%', barCategoryGap: '5%', itemStyle: { color }, data: bins.map((b) => toNumber(row[b]) ?? 0), label: { show: !!fd.show_value, position: 'top', formatter: (p: any) => format(p.value) } };
  });
  return {
    groupby: [],
    groups: {},
    option: {
      ...echartsBase(theme),
      animation: false,
      grid: { top: series.length > 1 ? 40 : 20, right: 20, bottom: fd.x_axis_title ? 44 : 28, left: fd.y_axis_title ? 56 : 16, containLabel: true },
      legend: { ...legendStyle(theme, { show: fd.show_legend !== false && series.length > 1 }), data: series.map((s) => s.name) },
      tooltip: { ...echartsBase(theme).tooltip, trigger: 'axis', axisPointer: { type: 'shadow' }, valueFormatter: (v: number) => format(v) },
      xAxis: { ...axis, type: 'category', data: bins.map((b) => binLabel(b, xFormat)), name: fd.x_axis_title || undefined, nameLocation: 'middle', nameGap: 28, splitLine: { show: false } },
      yAxis: { ...axis, type: 'value', name: fd.y_axis_title || undefined, nameLocation: 'middle', nameGap: 44, axisLabel: { ...axis.axisLabel, formatter: (v: number) => format(v) } },
      series,
    },
  };
}
