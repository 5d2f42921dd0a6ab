import * as echarts from 'echarts';
import { describe, expect, it } from 'vitest';
import graph from './index';
import { edgeSymbols, spreadSize } from './transform-props';

describe('graph chart type', () => {
  it('queries the metric per (source, target) and makes nodes and weighted edges', () => {
    const fd = { viz_type: 'graph_chart', datasource: '1__table', source: 'from', target: 'to', metric: 'n' };
    expect(graph.buildQuery(fd).queries[0]!.columns).toEqual(['from', 'to']);
    const out = graph.transformProps({ formData: fd, queriesData: [{ data: [{ from: 'a', to: 'b', n: 3 }, { from: 'b', to: 'c', n: 1 }] } as any], datasource: null, theme: 'light', width: 400, height: 300 });
    const series = out.option.series[0];
    expect(series.data.map((n: any) => [n.name, n.value])).toEqual([['a', 3], ['b', 4], ['c', 1]]);
    expect(series.links.map((l: any) => [l.source, l.target, l.value])).toEqual([['a', 'b', 3], ['b', 'c', 1]]);
  });

  it('is drawn with its force layout settled: what is pictured once drawn does not move afterwards', async () => {
    const fd = { viz_type: 'graph_chart', source: 'from', target: 'to', metric: 'n' };
    const rows = ['CA', 'TX', 'NY', 'FL', 'IL'].flatMap((s) => [{ from: s, to: 'boy', n: 3 }, { from: s, to: 'girl', n: 2 }]);
    const out = graph.transformProps({ formData: fd, queriesData: [{ data: rows } as any], datasource: null, theme: 'light', width: 400, height: 300 });
    const chart = echarts.init(null, null, { renderer: 'svg', ssr: true, width: 400, height: 300 });
    chart.setOption(out.option);
    // What is drawn, without the hover styles' class names (numbered afresh by each rendering).
    const picture = () => chart.renderToSVGString().replace(/<style[\s\S]*<\/style>/, '').replace(/ class="[^"]*"/g, '');
    const drawn = picture();
    // A layout shown settling moves its nodes for a while after the first drawing (steps every 16 ms).
    await new Promise((r) => setTimeout(r, 200));
    expect(picture()).toBe(drawn);
    chart.dispose();
  });

  it('keeps the nodes inside a small box (a dashboard cell a third wide), the same way each time', () => {
    const fd = { viz_type: 'graph_chart', source: 'from', target: 'to', metric: 'n' };
    const states = ['CA', 'TX', 'NY', 'FL', 'IL', 'PA', 'OH', 'MI', 'NJ', 'MA', 'other'];
    const rows = states.flatMap((s, i) => [{ from: s, to: 'boy', n: 30 - i }, { from: s, to: 'girl', n: 20 - i }]);
    const [width, height] = [280, 300];
    const positions = () => {
      const out = graph.transformProps({ formData: fd, queriesData: [{ data: rows } as any], datasource: null, theme: 'light', width, height });
      const chart = echarts.init(null, null, { renderer: 'svg', ssr: true, width, height });
      chart.setOption(out.option);
      const data = (chart as any).getModel().getSeriesByIndex(0).getData();
      const at = Array.from({ length: data.count() }, (_, i) => data.getItemLayout(i) as [number, number]);
      chart.dispose();
      return at;
    };
    const at = positions();
    expect(at).toHaveLength(states.length + 2);
    for (const [x, y] of at) {
      expect(x).toBeGreaterThan(10);
      expect(x).toBeLessThan(width - 10);
      expect(y).toBeGreaterThan(10);
      expect(y).toBeLessThan(height - 10);
    }
    expect(positions()).toEqual(at);
  });

  it('sets two hubs joined to the same nodes apart, so neither label is drawn over the other hub (births: boy and girl)', () => {
    const fd = { viz_type: 'graph_chart', source: 'from', target: 'to', metric: 'n' };
    // The examples' births by state and gender, in millions: every state joins both hubs.
    const births: Array<[string, number, number]> = [['other', 20.9, 13], ['CA', 6.35, 4.2], ['TX', 4.36, 2.9], ['NY', 3.05, 2.0], ['FL', 2.52, 1.63], ['IL', 2.23, 1.43], ['PA', 1.76, 1.2], ['OH', 1.8, 1.19], ['MI', 1.56, 0.99], ['NJ', 1.29, 0.86], ['MA', 0.93, 0.55]];
    const rows = births.flatMap(([s, boys, girls]) => [{ from: s, to: 'boy', n: boys }, { from: s, to: 'girl', n: girls }]);
    const [width, height] = [720, 600];
    const out = graph.transformProps({ formData: fd, queriesData: [{ data: rows } as any], datasource: null, theme: 'light', width, height });
    const chart = echarts.init(null, null, { renderer: 'svg', ssr: true, width, height });
    chart.setOption(out.option);
    const data = (chart as any).getModel().getSeriesByIndex(0).getData();
    const node = (name: string) => {
      const i = data.indexOfName(name);
      return { at: data.getItemLayout(i) as [number, number], radius: (out.option.series[0].data[i].symbolSize as number) / 2 };
    };
    chart.dispose();
    const [boy, girl] = [node('boy'), node('girl')];
    const apart = Math.hypot(boy.at[0] - girl.at[0], boy.at[1] - girl.at[1]) - boy.radius - girl.radius;
    // Room for a label beside a hub ('girl' at 11 px is about 20 px wide, set 5 px off its node).
    expect(apart, `${apart} px between the hubs`).toBeGreaterThan(25);
  });
});

describe("graph: Superset's layout, edge and node options", () => {
  const rows = [{ from: 'a', to: 'b', n: 10 }, { from: 'b', to: 'c', n: 2 }, { from: 'c', to: 'a', n: 6 }];
  const draw = (extra: Record<string, unknown>) => graph.transformProps({ formData: { viz_type: 'graph_chart', source: 'from', target: 'to', metric: 'n', ...extra }, queriesData: [{ data: rows } as any], datasource: null, theme: 'light', width: 500, height: 400 }).option.series[0];

  it("'Edge symbols' as Superset stores them ('none,arrow' by default); an earlier 'arrow' reads as the end's", () => {
    expect(edgeSymbols(undefined)).toEqual(['none', 'arrow']);
    expect(edgeSymbols('circle,circle')).toEqual(['circle', 'circle']);
    expect(edgeSymbols('arrow')).toEqual(['none', 'arrow']);
    expect(edgeSymbols('bogus,x')).toEqual(['none', 'none']);
    expect(draw({ edgeSymbol: 'circle,arrow' }).edgeSymbol).toEqual(['circle', 'arrow']);
  });

  it("'Node size' and 'Edge width' spread the values around the base as Superset's normalizeStyles", () => {
    // Node weights: a 16, b 12, c 8; base 20: from 10 (smallest) to 50 (largest).
    expect(draw({}).data.map((d: any) => d.symbolSize)).toEqual([50, 30, 10]);
    expect(spreadSize(12, [8, 16], 40, 'node')).toBe(60);
    // Edges 10, 2, 6; base 3: the thinnest half the base, the thickest twice it.
    expect(draw({}).links.map((l: any) => l.lineStyle.width)).toEqual([6, 1.5, 3]);
    expect(draw({ baseEdgeWidth: 10 }).links[0].lineStyle.width).toBe(20);
  });

  it("'Label threshold' names only the nodes above it; roaming, dragging and select mode as chosen", () => {
    expect(draw({ showSymbolThreshold: 10 }).data.map((d: any) => d.label.show)).toEqual([true, true, false]);
    expect(draw({}).data.every((d: any) => d.label.show)).toBe(true);
    const plain = draw({});
    expect([plain.roam, plain.draggable, plain.selectedMode]).toEqual([true, false, 'single']);
    const set = draw({ roam: 'move', draggable: true, selectedMode: 'multiple', friction: 0.6 });
    expect([set.roam, set.draggable, set.selectedMode, set.force.friction]).toEqual(['move', true, 'multiple', 0.6]);
    expect(draw({ roam: false, selectedMode: false, draggable: true, layout: 'circular' })).toMatchObject({ roam: false, selectedMode: false, draggable: false });
  });
});

describe("graph: 'Source category' and 'Target category'", () => {
  const rows = [{ from: 'a', to: 'x', fc: 'letters', tc: 'ends', n: 1 }, { from: 'b', to: 'x', fc: 'vowels', tc: 'other', n: 2 }];
  const fd = { viz_type: 'graph_chart', datasource: '1__table', source: 'from', target: 'to', source_category: 'fc', target_category: 'tc', metric: 'n' };

  it('queries the categories with each edge, colours each node by its first category and names them in a legend', () => {
    expect(graph.buildQuery(fd).queries[0]!.columns).toEqual(['from', 'to', 'fc', 'tc']);
    const out = graph.transformProps({ formData: fd, queriesData: [{ data: rows } as any], datasource: null, theme: 'light', width: 500, height: 400 }).option;
    const series = out.series[0];
    expect(series.categories.map((c: any) => c.name)).toEqual(['letters', 'ends', 'vowels']);
    // 'x' is seen first as 'ends', then as 'other': the first category stands.
    expect(series.data.map((d: any) => [d.name, d.category])).toEqual([['a', 0], ['x', 1], ['b', 2]]);
    expect(out.legend).toMatchObject({ show: true, data: ['letters', 'ends', 'vowels'] });
    expect(series.top).toBe(40);
  });

  it('shows no legend without categories, or when the legend is turned off', () => {
    const plain = graph.transformProps({ formData: { ...fd, source_category: undefined, target_category: undefined }, queriesData: [{ data: rows } as any], datasource: null, theme: 'light', width: 500, height: 400 }).option;
    expect(plain.legend.show).toBe(false);
    expect(plain.series[0].data[0].itemStyle.color).toBeTruthy();
    const off = graph.transformProps({ formData: { ...fd, show_legend: false }, queriesData: [{ data: rows } as any], datasource: null, theme: 'light', width: 500, height: 400 }).option;
    expect(off.legend.show).toBe(false);
  });
});
