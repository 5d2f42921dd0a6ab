import type { TransformInput } from '../types';
import { getCategoricalColor, getSequentialColors } from '../shared/colors';
import { rowsOf, type EChartsTransformed } from '../shared/echarts-chart';
import { getValueFormatter } from '../shared/format';
import { buildTree, walkTree, type TreeNode } from '../shared/hierarchy';
import { asList, columnLabel, metricLabel, type ColumnEntry, type MetricEntry } from '../shared/metrics';
import { chartTheme, echartsBase } from '../shared/theme';

/** The rings' inner and outer radius, in % of half the smaller side. */
const RADIUS = [12, 92] as const;

/**
 * Rings by the hierarchy columns, sized by the metric. With a secondary metric, colours follow the
 * ratio of the two (a sequential scheme), as Superset's sunburst does; otherwise the first ring's colour.
 */
export function transformSunburst({ formData: fd, queriesData, theme, width, height }: TransformInput): EChartsTransformed {
  const levels = asList<ColumnEntry>(fd.columns).map(columnLabel);
  const metric = metricLabel(fd.metric as MetricEntry);
  const secondary = fd.secondary_metric ? metricLabel(fd.secondary_metric as MetricEntry) : undefined;
  const format = getValueFormatter(fd.number_format, fd.currency_format);
  const tree = buildTree(rowsOf(queriesData), levels, metric, secondary);
  const groups: Record<string, unknown[]> = {};
  for (const node of walkTree(tree)) groups[node.name] ??= node.path;
  const ratios = [...walkTree(tree)].map((n) => (n.secondary !== undefined && n.value ? n.secondary / n.value : 0));
  const lo = Math.min(...ratios, 0);
  const hi = Math.max(...ratios, 1e-9);
  const scale = getSequentialColors(fd.linear_color_scheme, 10, theme);
  const t = chartTheme(theme);
  // A label runs along its ring (radial): it is cut to the ring's thickness, rather than running over the rings
  // inside it and the centre ('Sub-Saharan Africa' across 'Latin America & Caribbean').
  const ringThickness = ((RADIUS[1] - RADIUS[0]) / 100) * (Math.min(width, height) / 2) / Math.max(levels.length, 1);
  const toData = (nodes: TreeNode[], top?: string): any[] =>
    nodes.map((n) => {
      const ratio = n.secondary !== undefined && n.value ? n.secondary / n.value : 0;
      const color = secondary ? scale[Math.min(9, Math.floor(((ratio - lo) / (hi - lo || 1)) * 9.999))] : getCategoricalColor(fd.color_scheme, top ?? n.name);
      return { name: n.name, value: n.value, itemStyle: { color }, children: n.children ? toData(n.children, top ?? n.name) : undefined };
    });
  return {
    groupby: levels,
    groups,
    option: {
      ...echartsBase(theme),
      animation: false,
      tooltip: { ...echartsBase(theme).tooltip, formatter: (p: any) => `${(p.treePathInfo ?? []).slice(1).map((x: any) => x.name).join(' › ')}: ${format(p.value)}` },
      series: [
        {
          type: 'sunburst',
          data: toData(tree),
          radius: RADIUS.map((r) => `${r}%`),
          sort: undefined,
          nodeClick: false,
          itemStyle: { borderColor: t.tooltipBackground, borderWidth: 1 },
          label: { show: fd.show_labels !== false, rotate: 'radial', color: '#fff', fontSize: 11, minAngle: 8, width: Math.max(ringThickness - 8, 16), overflow: 'truncate' },
          emphasis: { focus: 'ancestor' },
        },
      ],
    },
  };
}
