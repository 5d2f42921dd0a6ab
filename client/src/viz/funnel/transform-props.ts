import type { TransformInput } from '../types';
import { getCategoricalColor } from '../shared/colors';
import type { EChartsTransformed } from '../shared/echarts-chart';
import { rowsOf } from '../shared/echarts-chart';
import { getNumberFormatter } from '../shared/format';
import { asList, columnLabel, metricLabel, toNumber, type ColumnEntry, type MetricEntry } from '../shared/metrics';
import { echartsBase, legendStyle } from '../shared/theme';

/** One funnel stage per group, widest first, labelled as the label type says. */
export function transformFunnel({ formData: fd, queriesData, theme }: TransformInput): EChartsTransformed {
  const groupby = asList<ColumnEntry>(fd.groupby).map(columnLabel);
  const metric = metricLabel(fd.metric as MetricEntry);
  const format = getNumberFormatter(fd.number_format);
  const groups: Record<string, unknown[]> = {};
  const data = rowsOf(queriesData).map((row) => {
    const name = groupby.map((g) => String(row[g] ?? 'NULL')).join(', ') || metric;
    groups[name] = groupby.map((g) => row[g]);
    return { name, value: toNumber(row[metric]) ?? 0, itemStyle: { color: getCategoricalColor(fd.color_scheme, name) } };
  });
  const total = data.reduce((s, d) => s + d.value, 0) || 1;
  const labelOf = (name: string, value: number) => {
    const pct = getNumberFormatter('.1%')(value / total);
    return ({ key: name, value: format(value), percent: pct, key_value: `${name}: ${format(value)}`, key_percent: `${name}: ${pct}`, key_value_percent: `${name}: ${format(value)} (${pct})` } as Record<string, string>)[String(fd.label_type ?? 'key')] ?? name;
  };
  const showLegend = fd.show_legend !== false;
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
          left: '10%',
          width: '80%',
          sort: fd.sort_by_metric === false ? 'none' : 'descending',
          gap: 2,
          data,
          label: { show: fd.show_labels !== false, position: 'inside', color: '#fff', formatter: (p: any) => labelOf(p.name, p.value) },
        },
      ],
    },
  };
}
