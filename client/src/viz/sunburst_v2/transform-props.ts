import type { TransformInput } from '../types';
import { getCategoricalColor, getSequentialColors } from '../shared/colors';
import { rowsOf, type EChartsTransformed } from '../shared/echarts-chart';
import { getValueFormatter, groupValueFormatter } from '../shared/format';
import { buildTree, walkTree, type TreeNode } from '../shared/hierarchy';
import { asList, columnLabel, metricLabel, type ColumnEntry, type MetricEntry } from '../shared/metrics';
import { labelWidth } from '../shared/label-room';
import { labelOfType } from '../shared/label-type';
import { chartTheme, echartsBase } from '../shared/theme';

/** The rings' inner and outer radius, in % of half the smaller side. */
const RADIUS = [12, 92] as const;

/** Superset's sunburst label: the category (its default), the value, or both ('CA: 6.35M'). */
export function sunburstLabel(type: unknown, name: string, value: string): string {
  return labelOfType(type, { name, value }, ['key', 'value', 'key_value']);
}

/**
 * Whether an arc is labelled under Superset's 'Percentage threshold': its share of the whole, in percentage points,
 * is at least the threshold (5 when none is set).
 */
export function labelShown(value: number, total: number, threshold: unknown): boolean {
  const min = threshold === null || threshold === undefined || threshold === '' ? 5 : Number(threshold);
  return !Number.isFinite(min) || (total ? (value / total) * 100 : 0) >= min;
}

/**
 * Rings by the hierarchy columns, sized by the metric. With a secondary metric, colours follow the
 * ratio of the two (a sequential scheme), as Superset's sunburst does; otherwise the first ring's colour.
 */
export function transformSunburst({ formData: fd, queriesData, theme, width, height }: TransformInput): EChartsTransformed {
  const levels = asList<ColumnEntry>(fd.columns).map(columnLabel);
  const metric = metricLabel(fd.metric as MetricEntry);
  // A secondary metric that is the primary one colours by the categories, as Superset's (a ratio of 1 everywhere).
  const secondaryLabel = fd.secondary_metric ? metricLabel(fd.secondary_metric as MetricEntry) : undefined;
  const secondary = secondaryLabel !== metric ? secondaryLabel : undefined;
  const format = getValueFormatter(fd.number_format, fd.currency_format);
  // 'Date format' writes a temporal level's values (Superset's date_format, adaptive by default).
  const tree = buildTree(rowsOf(queriesData), levels, metric, secondary, groupValueFormatter(queriesData[0], fd.date_format));
  const groups: Record<string, unknown[]> = {};
  for (const node of walkTree(tree)) groups[node.name] ??= node.path;
  const ratios = [...walkTree(tree)].map((n) => (n.secondary !== undefined && n.value ? n.secondary / n.value : 0));
  const lo = Math.min(...ratios, 0);
  const hi = Math.max(...ratios, 1e-9);
  const scale = getSequentialColors(fd.linear_color_scheme, 10, theme);
  const t = chartTheme(theme);
  const total = tree.reduce((sum, n) => sum + n.value, 0);
  // 'Show Total': the whole's value in the centre, whose hole grows to hold it.
  const totalText = fd.show_total ? `Total: ${format(total)}` : '';
  const half = Math.min(width, height) / 2;
  // The total's text is 13px bold, about a fifth wider than the 11px labels labelWidth measures.
  const inner = totalText && half > 0 ? Math.min(60, Math.max(RADIUS[0], (((labelWidth(totalText) * 1.2) / 2 + 8) / half) * 100)) : RADIUS[0];
  // A label runs along its ring (radial): it is cut to the ring's thickness, rather than running over the rings
  // inside it and the centre ('Sub-Saharan Africa' across 'Latin America & Caribbean').
  const ringThickness = ((RADIUS[1] - inner) / 100) * half / Math.max(levels.length, 1);
  const toData = (nodes: TreeNode[], top?: string): any[] =>
    nodes.map((n) => {
      const ratio = n.secondary !== undefined && n.value ? n.secondary / n.value : 0;
      const color = secondary ? scale[Math.min(9, Math.floor(((ratio - lo) / (hi - lo || 1)) * 9.999))] : getCategoricalColor(fd.color_scheme, top ?? n.name);
      return { name: n.name, value: n.value, itemStyle: { color }, label: { show: fd.show_labels !== false && labelShown(n.value, total, fd.show_labels_threshold) }, children: n.children ? toData(n.children, top ?? n.name) : undefined };
    });
  return {
    groupby: levels,
    groups,
    option: {
      ...echartsBase(theme),
      animation: false,
      ...(totalText ? { graphic: { type: 'text', left: 'center', top: 'middle', z: 10, style: { text: totalText, fontSize: 13, fontWeight: 'bold', fill: t.text } } } : {}),
      tooltip: { ...echartsBase(theme).tooltip, formatter: (p: any) => `${(p.treePathInfo ?? []).slice(1).map((x: any) => x.name).join(' › ')}: ${format(p.value)}` },
      series: [
        {
          type: 'sunburst',
          data: toData(tree),
          radius: [`${inner}%`, `${RADIUS[1]}%`],
          sort: undefined,
          nodeClick: false,
          itemStyle: { borderColor: t.tooltipBackground, borderWidth: 1 },
          label: { show: fd.show_labels !== false, rotate: 'radial', color: '#fff', fontSize: 11, minAngle: 8, width: Math.max(ringThickness - 8, 16), overflow: 'truncate', formatter: (p: any) => sunburstLabel(fd.label_type, p.name, format(p.value)) },
          emphasis: { focus: 'ancestor' },
        },
      ],
    },
  };
}
