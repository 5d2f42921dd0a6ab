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
});
