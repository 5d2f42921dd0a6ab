import type { TransformInput } from '../types';
import { getCategoricalColor } from '../shared/colors';
import { rowsOf, type EChartsTransformed } from '../shared/echarts-chart';
import { extent } from '../shared/extent';
import { getNumberFormatter } from '../shared/format';
import { legendSideRoom } from '../shared/label-room';
import { columnLabel, metricLabel, toNumber, type ColumnEntry, type MetricEntry } from '../shared/metrics';
import { chartTheme, echartsBase, legendPlace, legendStyle } from '../shared/theme';

/** The box size Superset's default force settings suit. */
const FORCE_BOX_PX = 500;

/** Superset's 'Edge symbols': 'start,end', each 'none', 'circle' or 'arrow'; an earlier Meridian stored 'arrow' or 'none' for the end. */
export function edgeSymbols(value: unknown): [string, string] {
  const known = (s: string | undefined) => (s === 'circle' || s === 'arrow' ? s : 'none');
  if (value === 'arrow' || value === 'none') return ['none', value];
  const [start, end] = (typeof value === 'string' ? value : 'none,arrow').split(',');
  return [known(start), known(end)];
}

/**
 * A node's size or an edge's width from its value, as Superset spreads them around 'Node size' / 'Edge width' (the
 * base): from half the base for the smallest value up to two and a half times it for the largest (a node), or up to
 * twice it (an edge, whose smallest is half the base).
 */
export function spreadSize(value: number, [min, max]: [number, number], base: number, kind: 'node' | 'edge'): number {
  const share = max > min ? (value - min) / (max - min) : 0;
  return kind === 'node' ? share * base * 2 + base * 0.5 : share * base * 2 || base * 0.5;
}

/** Superset's 'Enable graph roaming' choices (false, 'scale', 'move', true), as stored; an earlier checkbox stored true or false. */
const roamOf = (value: unknown): boolean | 'scale' | 'move' => (value === 'scale' || value === 'move' ? value : value !== false && value !== 'false');

/** Nodes from the source and target values, edges weighted by the metric; node size by total edge weight. */
export function transformGraph({ formData: fd, queriesData, theme, width, height }: TransformInput): EChartsTransformed {
  const source = columnLabel(fd.source as ColumnEntry);
  const target = columnLabel(fd.target as ColumnEntry);
  const metric = metricLabel(fd.metric as MetricEntry);
  const format = getNumberFormatter(fd.number_format);
  const weight = new Map<string, number>();
  // 'Source category' / 'Target category': a node takes the first category it is seen with, which colours it and names
  // it in the legend (Superset's); without them each node has its own colour and there is no legend.
  const sourceCategory = fd.source_category ? columnLabel(fd.source_category as ColumnEntry) : null;
  const targetCategory = fd.target_category ? columnLabel(fd.target_category as ColumnEntry) : null;
  const categoryOf = new Map<string, string>();
  const links = rowsOf(queriesData).map((row) => {
    const s = String(row[source] ?? 'NULL');
    const t = String(row[target] ?? 'NULL');
    if (sourceCategory && !categoryOf.has(s)) categoryOf.set(s, String(row[sourceCategory] ?? 'NULL'));
    if (targetCategory && !categoryOf.has(t)) categoryOf.set(t, String(row[targetCategory] ?? 'NULL'));
    const v = toNumber(row[metric]) ?? 0;
    weight.set(s, (weight.get(s) ?? 0) + v);
    weight.set(t, (weight.get(t) ?? 0) + v);
    return { source: s, target: t, value: v };
  });
  const nodeRange = extent(weight.values(), [0, 0]);
  const linkRange = extent(links.map((l) => l.value), [0, 0]);
  const nodeBase = toNumber(fd.baseNodeSize) ?? 20;
  const edgeBase = toNumber(fd.baseEdgeWidth) ?? 3;
  // 'Label threshold': a node's name shows only when its value is above it (0, the default, shows all).
  const threshold = toNumber(fd.showSymbolThreshold) ?? 0;
  // The force settings are Superset's, for a chart about 500 px across: a smaller box gets shorter edges and a weaker
  // push, so the nodes stay inside it (in a dashboard cell a third wide they were pushed past its edges). The layout
  // starts from a circle, not random places, so the same data is drawn the same way each time (reports, thumbnails).
  // The push grows with a node's weight (ECharts maps a [least, most] repulsion over the node values): two hubs joined
  // to the same nodes were pulled onto each other with an even push, a hub's label drawn over the other hub (and Superset's
  // node sizes, up to 2.5 times the base, make hubs the largest nodes).
  const scale = Math.min(Math.max(Math.min(width, height) / FORCE_BOX_PX, 0.3), 2);
  const repulsion = Number(fd.repulsion ?? 1000) * scale;
  const categories = [...new Set(categoryOf.values())];
  const nodes = [...weight.entries()].map(([name, w]) => {
    const category = categoryOf.get(name);
    return {
      name,
      value: w,
      symbolSize: spreadSize(w, nodeRange, nodeBase, 'node'),
      label: { show: threshold ? w > threshold : true },
      ...(category === undefined ? { itemStyle: { color: getCategoricalColor(fd.color_scheme, name) } } : { category: categories.indexOf(category) }),
    };
  });
  const showLegend = categories.length > 0 && fd.show_legend !== false;
  const th = chartTheme(theme);
  return {
    groupby: [source],
    groups: Object.fromEntries(nodes.map((n) => [n.name, [n.name]])),
    option: {
      ...echartsBase(theme),
      animation: false,
      legend: { ...legendStyle(theme, { show: showLegend, orientation: legendPlace(fd.legendOrientation), type: fd.legendType === 'plain' ? 'plain' : 'scroll' }), data: categories },
      tooltip: { ...echartsBase(theme).tooltip, formatter: (p: any) => (p.dataType === 'edge' ? `${p.data.source} → ${p.data.target}: ${format(p.data.value)}` : `${p.name}: ${format(p.value)}`) },
      series: [
        {
          type: 'graph',
          layout: fd.layout === 'circular' ? 'circular' : 'force',
          roam: roamOf(fd.roam),
          // Superset's default: nodes stay put unless 'Enable node dragging' is ticked (force layout only).
          draggable: fd.draggable === true && fd.layout !== 'circular',
          selectedMode: fd.selectedMode === false || fd.selectedMode === 'false' ? false : fd.selectedMode === 'multiple' ? 'multiple' : 'single',
          // The layout is worked out before the first paint, not shown settling frame by frame: the chart reads
          // 'rendered' once (a report pictures it then), and a settling layout was pictured mid-way.
          force: { initLayout: 'circular', repulsion: [repulsion * 0.8, repulsion * 2.6], edgeLength: (Number(fd.edgeLength ?? 400) / 4) * scale, gravity: Number(fd.gravity ?? 0.3), friction: Number(fd.friction ?? 0.2), layoutAnimation: false },
          circular: { rotateLabel: true },
          label: { show: true, position: 'right', color: th.text, fontSize: 11 },
          edgeSymbol: edgeSymbols(fd.edgeSymbol),
          lineStyle: { color: th.axisLine, curveness: fd.layout === 'circular' ? 0.2 : 0, opacity: 0.8 },
          // The graph's box clear of the legend: ECharts' graph otherwise spreads under it.
          ...legendSideRoom(showLegend, fd.legendOrientation, { band: 40, column: 120 }),
          categories: categories.map((name) => ({ name, itemStyle: { color: getCategoricalColor(fd.color_scheme, name) } })),
          data: nodes,
          links: links.map((l) => ({ ...l, lineStyle: { width: spreadSize(l.value, linkRange, edgeBase, 'edge') } })),
          emphasis: { focus: 'adjacency' },
        },
      ],
    },
  };
}
