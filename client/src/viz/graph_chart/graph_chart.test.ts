import * as echarts from 'echarts';
import { describe, expect, it } from 'vitest';
import graph from './index';

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
