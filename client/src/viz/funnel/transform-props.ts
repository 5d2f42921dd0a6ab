import type { TransformInput } from '../types';
import { getCategoricalColor } from '../shared/colors';
import type { EChartsTransformed } from '../shared/echarts-chart';
import { rowsOf } from '../shared/echarts-chart';
import { getNumberFormatter, getValueFormatter } from '../shared/format';
import { asList, columnLabel, displayNames, metricLabel, toNumber, type ColumnEntry, type MetricEntry } from '../shared/metrics';
import { extent } from '../shared/extent';
import { labelWidth } from '../shared/label-room';
import { chartTheme, echartsBase, legendStyle } from '../shared/theme';

/** One funnel stage per group, widest first, labelled as the label type says. */
export function transformFunnel({ formData: fd, queriesData, datasource, theme, width }: TransformInput): EChartsTransformed {
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
  const total = data.reduce((s, d) => s + d.value, 0) || 1;
  const labelOf = (name: string, value: number) => {
    const pct = getNumberFormatter('.1%')(value / total);
    return ({ key: name, value: format(value), percent: pct, key_value: `${name}: ${format(value)}`, key_percent: `${name}: ${pct}`, key_value_percent: `${name}: ${format(value)} (${pct})` } as Record<string, string>)[String(fd.label_type ?? 'key')] ?? name;
  };
  const showLegend = fd.show_legend !== false;
  // A stage is as wide as its share of the largest. A label wider than its stage (a sliver beside a large first
  // stage) is put beside the funnel, in the text colour, and the funnel moves left to give those labels room;
  // inside a sliver it read as a few white letters over the background.
  const largest = Math.max(0, extent(data.map((d) => d.value), [0, 0])[1]);
  const showLabels = fd.show_labels !== false;
  // Measured against the narrower funnel the labels beside it leave.
  const fitsInside = (d: { name: string; value: number }) => largest > 0 && (d.value / largest) * width * 0.6 >= labelWidth(labelOf(d.name, d.value)) + 8;
  const outside = new Set(showLabels && width > 0 ? data.filter((d) => !fitsInside(d)).map((d) => d.name) : []);
  const room = Math.floor(width * 0.35) - 16;
  const textColor = chartTheme(theme).text;
  return {
    groupby,
    groups,
    option: {
      ...echartsBase(theme),
      animation: false,
      legend: { ...legendStyle(theme, { show: showLegend }), data: data.map((d) => d.name) },
      tooltip: { ...echartsBase(theme).tooltip, trigger: 'item', formatter: (p: any) => `${p.name}: ${format(p.value)}` },
      series: [
        {
          type: 'funnel',
          top: showLegend ? 40 : 10,
          bottom: 10,
          left: outside.size ? '5%' : '10%',
          width: outside.size ? '60%' : '80%',
          sort: fd.sort_by_metric === false ? 'none' : 'descending',
          gap: 2,
          data: data.map((d) => (outside.has(d.name) ? { ...d, label: { position: 'right', color: textColor, overflow: 'truncate', width: room }, labelLine: { show: true } } : d)),
          label: { show: showLabels, position: 'inside', color: '#fff', formatter: (p: any) => labelOf(p.name, p.value) },
        },
      ],
    },
  };
}
