import type { TransformInput } from '../types';
import { getCategoricalColor } from '../shared/colors';
import type { EChartsTransformed } from '../shared/echarts-chart';
import { rowsOf } from '../shared/echarts-chart';
import { escapeHtml, getNumberFormatter, getValueFormatter } from '../shared/format';
import { asList, columnLabel, displayNames, metricLabel, toNumber, type ColumnEntry, type MetricEntry } from '../shared/metrics';
import { extent } from '../shared/extent';
import { labelWidth, legendRoom } from '../shared/label-room';
import { LABEL_TYPES, labelOfType, type LabelType } from '../shared/label-type';
import { chartTheme, echartsBase, legendPlace, legendStyle } from '../shared/theme';

/** Superset's funnel label contents, stored as its enum's numbers (Key 0 … Value and Percentage 6). */
export const FUNNEL_LABEL_TYPES = [[0, 'Category Name'], [1, 'Value'], [2, 'Percentage'], [3, 'Category and Value'], [4, 'Category and Percentage'], [5, 'Category, Value and Percentage'], [6, 'Value and Percentage']] as const;

/** A stored label type as Superset's number: an earlier Meridian stored the names ('key_percent'), read as theirs. */
export function funnelLabelType(value: unknown, fallback: number): number {
  if (typeof value === 'number' && value >= 0 && value <= 6) return value;
  if (typeof value === 'string' && LABEL_TYPES.includes(value as LabelType)) return LABEL_TYPES.indexOf(value as LabelType);
  if (typeof value === 'string' && /^[0-6]$/.test(value)) return Number(value);
  return fallback;
}

/**
 * Each stage's percentage as Superset's '% calculation' says, in the answer's order: of the first stage ('first_step',
 * the default), of the stage before it ('prev_step', the first being 100%), or of the total ('total').
 */
export function funnelPercents(values: number[], calculation: unknown): number[] {
  const total = values.reduce((s, v) => s + v, 0);
  return values.map((v, i) => {
    const base = calculation === 'total' ? total : calculation === 'prev_step' ? (i === 0 ? v : values[i - 1]!) : values[0]!;
    return base ? v / base : 0;
  });
}

/** A funnel label or tooltip line from its parts, as the label type (Superset's numbers) says. */
export function funnelLabel(type: number, name: string, value: string, percent: string): string {
  return labelOfType(LABEL_TYPES[type], { name, value, percent });
}

/** One funnel stage per group, widest first, labelled as the label type says. */
export function transformFunnel({ formData: fd, queriesData, datasource, theme, width: chartWidth }: TransformInput): EChartsTransformed {
  const names = displayNames(datasource);
  const groupby = asList<ColumnEntry>(fd.groupby).map(columnLabel);
  const metric = metricLabel(fd.metric as MetricEntry);
  const format = getValueFormatter(fd.number_format, fd.currency_format);
  const groups: Record<string, unknown[]> = {};
  const data = rowsOf(queriesData).map((row) => {
    const name = groupby.map((g) => String(row[g] ?? 'NULL')).join(', ') || names(metric);
    groups[name] = groupby.map((g) => row[g]);
    return { name, value: toNumber(row[metric]) ?? 0, itemStyle: { color: getCategoricalColor(fd.color_scheme, name) } };
  });
  const percentFormat = getNumberFormatter('.2%');
  const percents = new Map(funnelPercents(data.map((d) => d.value), fd.percent_calculation_type ?? 'first_step').map((p, i) => [data[i]!.name, percentFormat(p)]));
  const labelType = funnelLabelType(fd.label_type, 0);
  const tooltipType = funnelLabelType(fd.tooltip_label_type, 5);
  const labelOf = (name: string, value: number) => funnelLabel(labelType, name, format(value), percents.get(name) ?? '');
  const showLegend = fd.show_legend !== false;
  // The legend where 'Orientation' puts it, with its room ('Margin' adds to it); the funnel takes the rest.
  const legendAt = legendRoom(fd, data.map((d) => d.name), chartWidth);
  const width = Math.max(0, chartWidth - legendAt.left - legendAt.right);
  // A stage is as wide as its share of the largest. A label wider than its stage (a sliver beside a large first
  // stage) is put beside the funnel, in the text colour, and the funnel moves left to give those labels room;
  // inside a sliver it read as a few white letters over the background.
  const largest = Math.max(0, extent(data.map((d) => d.value), [0, 0])[1]);
  const showLabels = fd.show_labels !== false;
  // Measured against the narrower funnel the labels beside it leave.
  // A stage narrows to the next one's width, so its label (at its middle) has the mean of the two; the last narrows to
  // a point. The first stage's long label ('other: 33.9M (100.00%)') ran past its sides when its top width was used.
  const drawnOrder = fd.sort_by_metric === false ? data : [...data].sort((a, b) => b.value - a.value);
  const nextValue = new Map(drawnOrder.map((d, i) => [d.name, drawnOrder[i + 1]?.value ?? 0]));
  const fitsInside = (d: { name: string; value: number }) => largest > 0 && ((d.value + (nextValue.get(d.name) ?? 0)) / 2 / largest) * width * 0.6 >= labelWidth(labelOf(d.name, d.value)) + 8;
  const outside = new Set(showLabels && width > 0 ? data.filter((d) => !fitsInside(d)).map((d) => d.name) : []);
  const room = Math.floor(width * 0.35) - 16;
  const textColor = chartTheme(theme).text;
  return {
    groupby,
    groups,
    option: {
      ...echartsBase(theme),
      animation: false,
      // Superset's funnel offers no legend 'Type' but reads one stored (scroll unless 'plain').
      legend: { ...legendStyle(theme, { show: showLegend, orientation: legendPlace(fd.legendOrientation), type: fd.legendType === 'plain' ? 'plain' : 'scroll' }), data: data.map((d) => d.name) },
      // 'Tooltip Contents' (Superset's default: category, value and percentage); 'Show Tooltip Labels' off shows none.
      tooltip: { ...echartsBase(theme).tooltip, show: fd.show_tooltip_labels !== false, trigger: 'item', formatter: (p: any) => escapeHtml(funnelLabel(tooltipType, p.name, format(p.value), percents.get(p.name) ?? '')) },
      series: [
        {
          type: 'funnel',
          top: 10 + legendAt.top,
          bottom: 10 + legendAt.bottom,
          // In pixels of the room the legend leaves; as shares of the chart when its width is not known.
          left: width > 0 ? legendAt.left + width * (outside.size ? 0.05 : 0.1) : outside.size ? '5%' : '10%',
          width: width > 0 ? width * (outside.size ? 0.6 : 0.8) : outside.size ? '60%' : '80%',
          sort: fd.sort_by_metric === false ? 'none' : 'descending',
          gap: 2,
          data: data.map((d) => (outside.has(d.name) ? { ...d, label: { position: 'right', color: textColor, overflow: 'truncate', width: room }, labelLine: { show: true } } : d)),
          label: { show: showLabels, position: 'inside', color: '#fff', formatter: (p: any) => labelOf(p.name, p.value) },
        },
      ],
    },
  };
}
