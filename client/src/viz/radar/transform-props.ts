import type { TransformInput } from '../types';
import { getCategoricalColor } from '../shared/colors';
import { rowsOf, type EChartsTransformed } from '../shared/echarts-chart';
import { getNumberFormatter } from '../shared/format';
import { asList, columnLabel, displayNames, metricLabel, toNumber, type ColumnEntry, type MetricEntry } from '../shared/metrics';
import { LABEL_CHAR_PX, widestLabel } from '../shared/label-room';
import { chartTheme, echartsBase, legendStyle } from '../shared/theme';

/** ECharts' default gap between an axis's end and its name. */
const NAME_GAP = 15;

/**
 * The radar's radius in pixels, and how many characters of an axis name fit beside it. At its usual size (68% of
 * half the shorter side) a side axis's name ran off a narrow dashboard cell ('um_girls'): the radius shrinks to
 * leave the longest name room (not below 40%), and a name longer than the room left is shortened.
 */
export function radarFit(width: number, height: number, names: string[]): { radius: number; maxChars: number } {
  const half = Math.max(0, Math.min(width, height) / 2);
  const longest = widestLabel(names) + NAME_GAP;
  const radius = Math.floor(Math.max(Math.min(half * 0.68, width / 2 - longest), half * 0.4));
  return { radius, maxChars: Math.max(3, Math.floor((width / 2 - radius - NAME_GAP) / LABEL_CHAR_PX)) };
}

/** A radar point's label as Superset's 'Label Type' says: the value (its default), or the group and the value. */
export function radarLabel(type: unknown, name: string, value: string): string {
  return type === 'key_value' ? `${name}: ${value}` : value;
}

/** One axis per metric, one polygon per group; each axis runs to its largest value (or its configured max). */
export function transformRadar({ formData: fd, queriesData, datasource, theme, width, height }: TransformInput): EChartsTransformed {
  const groupby = asList<ColumnEntry>(fd.groupby).map(columnLabel);
  const metrics = asList<MetricEntry>(fd.metrics).map(metricLabel);
  const shown = metrics.map(displayNames(datasource));
  const format = getNumberFormatter(fd.number_format);
  const rows = rowsOf(queriesData);
  const config = (fd.column_config ?? {}) as Record<string, { radarMetricMinValue?: number; radarMetricMaxValue?: number }>;
  const t = chartTheme(theme);
  const indicator = metrics.map((m, i) => {
    const largest = Math.max(0, ...rows.map((r) => toNumber(r[m]) ?? 0));
    // 'Customize Metrics': a metric's own Min and Max; without them its axis runs from 0 to a little past the largest.
    const min = toNumber(config[m]?.radarMetricMinValue);
    return { name: shown[i], max: toNumber(config[m]?.radarMetricMaxValue) ?? (largest ? largest * 1.1 : 1), ...(min === null ? {} : { min }) };
  });
  const groups: Record<string, unknown[]> = {};
  const data = rows.map((row) => {
    const name = groupby.map((g) => String(row[g] ?? 'NULL')).join(', ') || 'Total';
    groups[name] = groupby.map((g) => row[g]);
    const color = getCategoricalColor(fd.color_scheme, name);
    return { name, value: metrics.map((m) => toNumber(row[m]) ?? 0), itemStyle: { color }, lineStyle: { color, width: 2 }, areaStyle: fd.is_area ? { color, opacity: 0.2 } : undefined };
  });
  const showLegend = fd.show_legend !== false && data.length > 1;
  // The legend takes ~40px at the top; the radar is centred below it.
  const fit = radarFit(width, height - (showLegend ? 40 : 0), shown);
  return {
    groupby,
    groups,
    option: {
      ...echartsBase(theme),
      animation: false,
      legend: { ...legendStyle(theme, { show: showLegend }), data: data.map((d) => d.name) },
      tooltip: { ...echartsBase(theme).tooltip, trigger: 'item', formatter: (p: any) => [p.name, ...shown.map((name, i) => `${name}: ${format(p.value[i])}`)].join('<br/>') },
      radar: {
        indicator,
        shape: fd.is_circle ? 'circle' : 'polygon',
        center: ['50%', showLegend ? '55%' : '50%'],
        radius: fit.radius,
        axisName: { color: t.text, formatter: (name: string) => (name.length > fit.maxChars ? `${name.slice(0, fit.maxChars - 1)}…` : name) },
        splitLine: { lineStyle: { color: t.splitLine } },
        splitArea: { show: false },
        axisLine: { lineStyle: { color: t.axisLine } },
      },
      // 'Label Type' (Superset's default: the value) and 'Label position' (its default: top).
      series: [{ type: 'radar', data, symbolSize: 4, label: { show: !!fd.show_labels, position: typeof fd.label_position === 'string' ? fd.label_position : 'top', color: t.text, formatter: (p: any) => radarLabel(fd.label_type, p.name, format(p.value)) } }],
    },
  };
}
