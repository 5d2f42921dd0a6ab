import type { TransformInput } from '../types';
import { getCategoricalColor } from '../shared/colors';
import { rowsOf, type EChartsTransformed } from '../shared/echarts-chart';
import { getNumberFormatter, groupValueFormatter } from '../shared/format';
import { asList, columnLabel, displayNames, metricLabel, toNumber, type ColumnEntry, type MetricEntry } from '../shared/metrics';
import { LABEL_CHAR_PX, legendRoom, widestLabel } from '../shared/label-room';
import { labelOfType } from '../shared/label-type';
import { chartTheme, echartsBase, legendPlace, legendStyle } from '../shared/theme';

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
  return labelOfType(type, { name, value }, ['value', 'key_value']);
}

/**
 * A metric axis's bounds from 'Customize Metrics': its Max, else a little past the largest value; its Min, else 0,
 * and a Min cleared to empty (null) the smallest value (Superset's rule).
 */
function axisBounds(setting: { radarMetricMinValue?: unknown; radarMetricMaxValue?: unknown } | undefined, values: number[]): { max: number; min?: number } {
  const largest = Math.max(0, ...values);
  const max = toNumber(setting?.radarMetricMaxValue) ?? (largest ? largest * 1.1 : 1);
  if (setting && 'radarMetricMinValue' in setting && setting.radarMetricMinValue === null) return { max, min: values.length ? Math.min(...values) : 0 };
  const min = toNumber(setting?.radarMetricMinValue);
  return { max, ...(min === null ? {} : { min }) };
}

/**
 * One axis per metric, one polygon per group (its values in 'Date format' when temporal); each axis runs to its
 * largest value (or its configured max). 'Normalize Values' divides each group's values by its largest (axes
 * from 0 to a little past 1), while labels and tooltips show the values themselves.
 */
export function transformRadar({ formData: fd, queriesData, datasource, theme, width, height }: TransformInput): EChartsTransformed {
  const groupby = asList<ColumnEntry>(fd.groupby).map(columnLabel);
  const metrics = asList<MetricEntry>(fd.metrics).map(metricLabel);
  const shown = metrics.map(displayNames(datasource));
  const format = getNumberFormatter(fd.number_format);
  const rows = rowsOf(queriesData);
  const groupValue = groupValueFormatter(queriesData[0], fd.date_format);
  const normalized = fd.is_normalized === true;
  const config = (fd.column_config ?? {}) as Record<string, { radarMetricMinValue?: unknown; radarMetricMaxValue?: unknown }>;
  const t = chartTheme(theme);
  // Normalised axes run a little past 1, as the others run past their largest value: a vertex at 1 put its label
  // over the axis name.
  const indicator = metrics.map((m, i) => ({ name: shown[i], ...(normalized ? { max: 1.1, min: 0 } : axisBounds(config[m], rows.map((r) => toNumber(r[m]) ?? 0))) }));
  const groups: Record<string, unknown[]> = {};
  // A normalised polygon's drawn values back to its own (one value per ratio, as ratios of one largest value are
  // equal only when the values are), for the labels and tooltip.
  const actual = new Map<string, Map<number, number>>();
  const data = rows.map((row) => {
    const name = groupby.map((g) => groupValue(g, row[g])).join(', ') || 'Total';
    groups[name] = groupby.map((g) => row[g]);
    const color = getCategoricalColor(fd.color_scheme, name);
    const values = metrics.map((m) => toNumber(row[m]) ?? 0);
    const largest = Math.max(...values);
    const drawn = normalized ? values.map((v) => (largest ? v / largest : 0)) : values;
    actual.set(name, new Map(drawn.map((d, i) => [d, values[i]!])));
    return { name, value: drawn, itemStyle: { color }, lineStyle: { color, width: 2 }, areaStyle: fd.is_area ? { color, opacity: 0.2 } : undefined };
  });
  const valueOf = (name: string, drawn: number) => (normalized ? (actual.get(name)?.get(drawn) ?? drawn) : drawn);
  const showLegend = fd.show_legend !== false && data.length > 1;
  // The legend where 'Orientation' puts it, with its room ('Margin' adds to it); the radar is centred in the rest.
  const room = legendRoom({ ...fd, show_legend: showLegend }, data.map((d) => d.name), width);
  const boxWidth = Math.max(0, width - room.left - room.right);
  const boxHeight = Math.max(0, height - room.top - room.bottom);
  const fit = radarFit(boxWidth, boxHeight, shown);
  return {
    groupby,
    groups,
    option: {
      ...echartsBase(theme),
      animation: false,
      legend: { ...legendStyle(theme, { show: showLegend, orientation: legendPlace(fd.legendOrientation), type: fd.legendType === 'plain' ? 'plain' : 'scroll' }), data: data.map((d) => d.name) },
      tooltip: { ...echartsBase(theme).tooltip, trigger: 'item', formatter: (p: any) => [p.name, ...shown.map((name, i) => `${name}: ${format(valueOf(p.name, p.value[i]))}`)].join('<br/>') },
      radar: {
        indicator,
        shape: fd.is_circle ? 'circle' : 'polygon',
        center: [room.left + boxWidth / 2, room.top + boxHeight / 2],
        radius: fit.radius,
        axisName: { color: t.text, formatter: (name: string) => (name.length > fit.maxChars ? `${name.slice(0, fit.maxChars - 1)}…` : name) },
        splitLine: { lineStyle: { color: t.splitLine } },
        splitArea: { show: false },
        axisLine: { lineStyle: { color: t.axisLine } },
      },
      // 'Label Type' (Superset's default: the value) and 'Label position' (its default: top).
      series: [{ type: 'radar', data, symbolSize: 4, label: { show: !!fd.show_labels, position: typeof fd.label_position === 'string' ? fd.label_position : 'top', color: t.text, formatter: (p: any) => radarLabel(fd.label_type, p.name, format(valueOf(p.name, p.value))) } }],
    },
  };
}
