import type { TransformInput } from '../types';
import { getCategoricalColor } from '../shared/colors';
import { rowsOf, type EChartsTransformed } from '../shared/echarts-chart';
import { getNumberFormatter } from '../shared/format';
import { columnLabel, metricLabel, toNumber, type ColumnEntry, type MetricEntry } from '../shared/metrics';
import { chartTheme, echartsBase } from '../shared/theme';

/**
 * Flows from source to target values, widths by the metric. ECharts' Sankey refuses cycles, so a link
 * that would close one (including a value flowing to itself) is left out.
 */
export function transformSankey({ formData: fd, queriesData, theme }: TransformInput): EChartsTransformed {
  const source = columnLabel(fd.source as ColumnEntry);
  const target = columnLabel(fd.target as ColumnEntry);
  const metric = metricLabel(fd.metric as MetricEntry);
  const format = getNumberFormatter(fd.number_format);
  const edges = new Map<string, Set<string>>();
  const reaches = (from: string, to: string, seen = new Set<string>()): boolean => {
    if (from === to) return true;
    if (seen.has(from)) return false;
    seen.add(from);
    return [...(edges.get(from) ?? [])].some((n) => reaches(n, to, seen));
  };
  const links: Array<{ source: string; target: string; value: number }> = [];
  for (const row of rowsOf(queriesData)) {
    const s = String(row[source] ?? 'NULL');
    const t = String(row[target] ?? 'NULL');
    if (reaches(t, s)) continue;
    edges.set(s, (edges.get(s) ?? new Set()).add(t));
    links.push({ source: s, target: t, value: toNumber(row[metric]) ?? 0 });
  }
  const names = [...new Set(links.flatMap((l) => [l.source, l.target]))];
  const th = chartTheme(theme);
  return {
    groupby: [source],
    groups: Object.fromEntries(names.map((n) => [n, [n]])),
    option: {
      ...echartsBase(theme),
      animation: false,
      tooltip: { ...echartsBase(theme).tooltip, trigger: 'item', formatter: (p: any) => (p.dataType === 'edge' ? `${p.data.source} → ${p.data.target}: ${format(p.data.value)}` : `${p.name}: ${format(p.value)}`) },
      series: [
        {
          type: 'sankey',
          left: 8,
          right: 80,
          top: 12,
          bottom: 12,
          nodeGap: 10,
          data: names.map((name) => ({ name, itemStyle: { color: getCategoricalColor(fd.color_scheme, name) } })),
          links,
          label: { color: th.text, fontSize: 11 },
          lineStyle: { color: 'gradient', opacity: 0.35, curveness: 0.5 },
          emphasis: { focus: 'adjacency' },
        },
      ],
    },
  };
}
