import type { TransformInput } from '../types';
import { getCategoricalColor } from '../shared/colors';
import { rowsOf, type EChartsTransformed } from '../shared/echarts-chart';
import { getNumberFormatter } from '../shared/format';
import { asList, columnLabel, metricLabel, toNumber, type ColumnEntry, type MetricEntry } from '../shared/metrics';
import { chartTheme, echartsBase, legendStyle } from '../shared/theme';

/** One axis per metric, one polygon per group; each axis runs to its largest value (or its configured max). */
export function transformRadar({ formData: fd, queriesData, theme }: TransformInput): EChartsTransformed {
  const groupby = asList<ColumnEntry>(fd.groupby).map(columnLabel);
  const metrics = asList<MetricEntry>(fd.metrics).map(metricLabel);
  const format = getNumberFormatter(fd.number_format);
  const rows = rowsOf(queriesData);
  const config = (fd.column_config ?? {}) as Record<string, { radarMetricMaxValue?: number }>;
  const t = chartTheme(theme);
  const indicator = metrics.map((m) => {
    const largest = Math.max(0, ...rows.map((r) => toNumber(r[m]) ?? 0));
    return { name: m, max: config[m]?.radarMetricMaxValue ?? (largest ? largest * 1.1 : 1) };
  });
  const groups: Record<string, unknown[]> = {};
  const data = rows.map((row) => {
    const name = groupby.map((g) => String(row[g] ?? 'NULL')).join(', ') || 'Total';
    groups[name] = groupby.map((g) => row[g]);
    const color = getCategoricalColor(fd.color_scheme, name);
    return { name, value: metrics.map((m) => toNumber(row[m]) ?? 0), itemStyle: { color }, lineStyle: { color, width: 2 }, areaStyle: fd.is_area ? { color, opacity: 0.2 } : undefined };
  });
  const showLegend = fd.show_legend !== false && data.length > 1;
  return {
    groupby,
    groups,
    option: {
      ...echartsBase(theme),
      animation: false,
      legend: { ...legendStyle(theme, { show: showLegend }), data: data.map((d) => d.name) },
      tooltip: { ...echartsBase(theme).tooltip, trigger: 'item', formatter: (p: any) => [p.name, ...metrics.map((m, i) => `${m}: ${format(p.value[i])}`)].join('<br/>') },
      radar: {
        indicator,
        shape: fd.is_circle ? 'circle' : 'polygon',
        center: ['50%', showLegend ? '55%' : '50%'],
        radius: '68%',
        axisName: { color: t.text },
        splitLine: { lineStyle: { color: t.splitLine } },
        splitArea: { show: false },
        axisLine: { lineStyle: { color: t.axisLine } },
      },
      series: [{ type: 'radar', data, symbolSize: 4, label: { show: !!fd.show_labels, formatter: (p: any) => format(p.value) } }],
    },
  };
}
