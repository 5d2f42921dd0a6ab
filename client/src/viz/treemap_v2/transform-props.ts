import type { TransformInput } from '../types';
import { getCategoricalColor } from '../shared/colors';
import { rowsOf, type EChartsTransformed } from '../shared/echarts-chart';
import { getValueFormatter, groupValueFormatter } from '../shared/format';
import { labelOfType } from '../shared/label-type';
import { buildTree, walkTree, type TreeNode } from '../shared/hierarchy';
import { asList, columnLabel, metricLabel, type ColumnEntry, type MetricEntry } from '../shared/metrics';
import { chartTheme, echartsBase } from '../shared/theme';

/** Nested rectangles by the group-by columns in order, sized by the metric; top-level groups keep their colour. */
export function transformTreemap({ formData: fd, queriesData, theme }: TransformInput): EChartsTransformed {
  const levels = asList<ColumnEntry>(fd.groupby).map(columnLabel);
  const metric = metricLabel(fd.metric as MetricEntry);
  const format = getValueFormatter(fd.number_format, fd.currency_format);
  // 'Date format' writes a temporal level's values (Superset's date_format, adaptive by default).
  const tree = buildTree(rowsOf(queriesData), levels, metric, undefined, groupValueFormatter(queriesData[0], fd.date_format));
  const groups: Record<string, unknown[]> = {};
  for (const node of walkTree(tree)) groups[node.name] ??= node.path;
  const toData = (nodes: TreeNode[]): any[] => nodes.map((n) => ({ name: n.name, value: n.value, children: n.children ? toData(n.children) : undefined }));
  // Top-level groups take the scheme's colours; their children shade them (levels' colorSaturation).
  const data = toData(tree).map((n) => ({ ...n, itemStyle: { color: getCategoricalColor(fd.color_scheme, n.name) } }));
  const t = chartTheme(theme);
  // Superset's label types: the value, category and value (its default), else ('key', its choice 'Key') the category.
  const labelType = fd.label_type ?? 'key_value';
  const label = (p: { name: string; value: number }) => labelOfType(labelType, { name: p.name, value: format(p.value) }, ['key', 'value', 'key_value']);
  // 'Show Upper Labels': a group with children names itself in a band above them (on unless unticked).
  const upper = levels.length > 1 && fd.show_upper_labels !== false;
  return {
    groupby: levels,
    groups,
    option: {
      ...echartsBase(theme),
      animation: false,
      tooltip: { ...echartsBase(theme).tooltip, formatter: (p: any) => `${(p.treePathInfo ?? []).slice(1).map((x: any) => x.name).join(' › ')}: ${format(p.value)}` },
      series: [
        {
          type: 'treemap',
          // The treemap series sets its own animation (ECharts' default for it is on), so the option's does not
          // reach it: it grew in for a second and read 'rendered' only then.
          animation: false,
          data,
          top: 8,
          bottom: 8,
          left: 8,
          right: 8,
          roam: false,
          nodeClick: false,
          leafDepth: levels.length > 1 ? undefined : 1,
          // Nothing zooms (nodeClick off), so a breadcrumb would only echo the hovered path over the chart.
          breadcrumb: { show: false },
          // One line, as Superset's ('CA: 6.35M'), truncated to its rectangle. The line height is given: ECharts
          // otherwise takes the width of a CJK character, narrower than a line where no CJK font is installed (as
          // on Debian), so labels fitted rectangles too short for them and ran over their neighbours. A label
          // whose rectangle cannot hold its line is dropped (ECharts' lineOverflow 'truncate').
          label: { show: fd.show_labels !== false, color: '#fff', textBorderWidth: 0, fontSize: 11, lineHeight: 14, overflow: 'truncate', formatter: label },
          itemStyle: { borderColor: t.tooltipBackground, borderWidth: 1, gapWidth: 1 },
          // Top-level groups carry their name in a band above their children ('Show Upper Labels').
          levels: [
            { itemStyle: { borderWidth: 0, gapWidth: 3 } },
            { itemStyle: { borderWidth: levels.length > 1 ? 2 : 1, gapWidth: 1, borderColor: t.tooltipBackground }, upperLabel: { show: upper, height: 20, color: t.text, fontWeight: 'bold', textBorderWidth: 0, fontSize: 11, lineHeight: 14, formatter: label } },
            { itemStyle: { gapWidth: 1 }, colorSaturation: [0.35, 0.6] },
          ],
        },
      ],
    },
  };
}
