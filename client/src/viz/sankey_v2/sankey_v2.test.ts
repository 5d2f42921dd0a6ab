import { describe, expect, it } from 'vitest';
import sankey from './index';

describe('sankey chart type', () => {
  it('makes flows from source to target and leaves out links that would close a cycle', () => {
    const rows = [
      { from: 'a', to: 'b', n: 5 },
      { from: 'b', to: 'c', n: 3 },
      { from: 'c', to: 'a', n: 1 },
      { from: 'd', to: 'd', n: 2 },
    ];
    const out = sankey.transformProps({ formData: { viz_type: 'sankey_v2', source: 'from', target: 'to', metric: 'n' }, queriesData: [{ data: rows } as any], datasource: null, theme: 'light', width: 400, height: 300 });
    expect(out.option.series[0].links).toEqual([{ source: 'a', target: 'b', value: 5 }, { source: 'b', target: 'c', value: 3 }]);
    expect(out.option.series[0].data.map((n: any) => n.name)).toEqual(['a', 'b', 'c']);
  });
});

describe("sankey: 'Sort by metric'", () => {
  it('orders the flows by the metric, largest first, then by source and target (Superset\'s buildQuery); unticked, by source and target only', () => {
    const q = (extra: object) => sankey.buildQuery({ viz_type: 'sankey_v2', datasource: '1__table', source: 'from', target: 'to', metric: 'n', ...extra }).queries[0]!;
    expect(q({ sort_by_metric: true }).orderby).toEqual([['n', false], ['from', true], ['to', true]]);
    expect(q({ sort_by_metric: false }).orderby).toEqual([['from', true], ['to', true]]);
    expect(q({}).columns).toEqual(['from', 'to']);
  });
});
