import type { TransformInput } from '../types';
import { getCategoricalColor } from '../shared/colors';
import { rowsOf, type EChartsTransformed } from '../shared/echarts-chart';
import { getNumberFormatter } from '../shared/format';
import { columnLabel, metricLabel, toNumber, type ColumnEntry, type MetricEntry } from '../shared/metrics';
import { chartTheme, echartsBase } from '../shared/theme';

/** The box size Superset's default force settings suit. */
const FORCE_BOX_PX = 500;

/** Nodes from the source and target values, edges weighted by the metric; node size by total edge weight. */
export function transformGraph({ formData: fd, queriesData, theme, width, height }: TransformInput): EChartsTransformed {
  const source = columnLabel(fd.source as ColumnEntry);
  const target = columnLabel(fd.target as ColumnEntry);
  const metric = metricLabel(fd.metric as MetricEntry);
  const format = getNumberFormatter(fd.number_format);
  const weight = new Map<string, number>();
  const links = rowsOf(queriesData).map((row) => {
    const s = String(row[source] ?? 'NULL');
    const t = String(row[target] ?? 'NULL');
    const v = toNumber(row[metric]) ?? 0;
    weight.set(s, (weight.get(s) ?? 0) + v);
    weight.set(t, (weight.get(t) ?? 0) + v);
    return { source: s, target: t, value: v };
  });
  const largest = Math.max(1e-9, ...weight.values());
  const maxLink = Math.max(1e-9, ...links.map((l) => l.value));
  // The force settings are Superset's, for a chart about 500 px across: a smaller box gets shorter edges and a weaker
  // push, so the nodes stay inside it (in a dashboard cell a third wide they were pushed past its edges). The layout
  // starts from a circle, not random places, so the same data is drawn the same way each time (reports, thumbnails).
  // The push grows with a node's weight (ECharts maps a [least, most] repulsion over the node values): two hubs joined
  // to the same nodes were pulled onto each other with an even push, a hub's label drawn over the other hub.
  const scale = Math.min(Math.max(Math.min(width, height) / FORCE_BOX_PX, 0.3), 2);
  const repulsion = Number(fd.repulsion ?? 1000) * scale;
  const nodes = [...weight.entries()].map(([name, w]) => ({ name, value: w, symbolSize: 8 + Math.sqrt(w / largest) * 30, itemStyle: { color: getCategoricalColor(fd.color_scheme, name) } }));
  const th = chartTheme(theme);
  return {
    groupby: [source],
    groups: Object.fromEntries(nodes.map((n) => [n.name, [n.name]])),
    option: {
      ...echartsBase(theme),
      animation: false,
      tooltip: { ...echartsBase(theme).tooltip, formatter: (p: any) => (p.dataType === 'edge' ? `${p.data.source} → ${p.data.target}: ${format(p.data.value)}` : `${p.name}: ${format(p.value)}`) },
      series: [
        {
          type: 'graph',
          layout: fd.layout === 'circular' ? 'circular' : 'force',
          roam: fd.roam !== false,
          draggable: fd.draggable !== false,
          // The layout is worked out before the first paint, not shown settling frame by frame: the chart reads
          // 'rendered' once (a report pictures it then), and a settling layout was pictured mid-way.
          force: { initLayout: 'circular', repulsion: [repulsion * 0.8, repulsion * 2.2], edgeLength: (Number(fd.edgeLength ?? 400) / 4) * scale, gravity: Number(fd.gravity ?? 0.3), layoutAnimation: false },
          circular: { rotateLabel: true },
          label: { show: fd.show_symbol_threshold !== false, position: 'right', color: th.text, fontSize: 11 },
          edgeSymbol: fd.edgeSymbol === 'arrow' ? ['none', 'arrow'] : ['none', 'none'],
          lineStyle: { color: th.axisLine, curveness: fd.layout === 'circular' ? 0.2 : 0, opacity: 0.8 },
          data: nodes,
          links: links.map((l) => ({ ...l, lineStyle: { width: 1 + (l.value / maxLink) * 5 } })),
          emphasis: { focus: 'adjacency' },
        },
      ],
    },
  };
}
