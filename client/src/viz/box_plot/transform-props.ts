import type { TransformInput } from '../types';
import { getCategoricalColor } from '../shared/colors';
import { rowsOf, type EChartsTransformed } from '../shared/echarts-chart';
import { getNumberFormatter, groupValueFormatter } from '../shared/format';
import { tickLayoutRotate, widestLabel } from '../shared/label-room';
import { asList, columnLabel, displayNames, metricLabel, toNumber, type ColumnEntry, type MetricEntry } from '../shared/metrics';
import { axisStyle, echartsBase, legendStyle } from '../shared/theme';

/** Boxes per group from the server's boxplot statistics (`metric__min/q1/median/q3/max/outliers`), outliers as points. */
export function transformBoxPlot({ formData: fd, queriesData, datasource, theme, width }: TransformInput): EChartsTransformed {
  const names = displayNames(datasource);
  const groupby = asList<ColumnEntry>(fd.groupby).map(columnLabel);
  const metrics = asList<MetricEntry>(fd.metrics).map(metricLabel);
  const rows = rowsOf(queriesData);
  const format = getNumberFormatter(fd.number_format);
  // 'Date format' shows a time dimension's values (Superset's date_format, adaptive by default).
  const result = queriesData[0] ?? {};
  const groupValue = groupValueFormatter(result, fd.date_format);
  const categories = rows.map((r) => groupby.map((g) => groupValue(g, r[g])).join(', ') || 'All');
  const groups: Record<string, unknown[]> = Object.fromEntries(rows.map((r, i) => [categories[i], groupby.map((g) => r[g])]));
  const series = metrics.flatMap((m) => {
    const color = getCategoricalColor(fd.color_scheme, m);
    const stat = (r: Record<string, unknown>, s: string) => toNumber(r[`${m}__${s}`]) ?? 0;
    return [
      { name: names(m), type: 'boxplot', itemStyle: { color: `${color}55`, borderColor: color }, data: rows.map((r) => [stat(r, 'min'), stat(r, 'q1'), stat(r, 'median'), stat(r, 'q3'), stat(r, 'max')]) },
      {
        name: names(m),
        type: 'scatter',
        symbolSize: 5,
        itemStyle: { color },
        data: rows.flatMap((r, i) => asList<unknown>(r[`${m}__outliers`] as unknown[]).map((v) => [categories[i], toNumber(v)])),
      },
    ];
  });
  const axis = axisStyle(theme);
  return {
    groupby,
    groups,
    option: {
      ...echartsBase(theme),
      animation: false,
      grid: { top: 40, right: 20, bottom: 28, left: 16, containLabel: true },
      legend: { ...legendStyle(theme, { show: metrics.length > 1 }), data: metrics.map(names) },
      tooltip: {
        ...echartsBase(theme).tooltip,
        trigger: 'item',
        formatter: (p: any) =>
          p.seriesType === 'boxplot'
            ? [`${p.name} · ${p.seriesName}`, ...['Max', 'Q3', 'Median', 'Q1', 'Min'].map((l, i) => `${l}: ${format(p.value[5 - i])}`)].join('<br/>')
            : `${p.value[0]} · outlier: ${format(p.value[1])}`,
      },
      // Every box keeps its name: ECharts hid every other label once they crowded ('interval' auto), leaving boxes
      // nobody could tell apart; crowded labels turn instead ('X Tick Layout' auto), or as 'X Tick Layout' says.
      xAxis: { ...axis, type: 'category', data: categories, splitLine: { show: false }, axisLabel: { ...axis.axisLabel, interval: 0, rotate: tickLayoutRotate(fd.x_ticks_layout) ?? (categories.length > 12 || widestLabel(categories) * categories.length > width * 0.8 ? 45 : 0) } },
      yAxis: { ...axis, type: 'value', axisLabel: { ...axis.axisLabel, formatter: (v: number) => format(v) } },
      series,
    },
  };
}
