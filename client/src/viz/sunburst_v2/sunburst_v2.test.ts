import { describe, expect, it } from 'vitest';
import { clickFilters } from '../shared/echarts-chart';
import sunburst from './index';

describe('sunburst chart type', () => {
  it('queries the primary and secondary metric by the hierarchy columns', () => {
    const q = sunburst.buildQuery({ viz_type: 'sunburst_v2', datasource: '1__table', columns: ['region', 'state'], metric: 'sum', secondary_metric: 'count' }).queries[0]!;
    expect(q.columns).toEqual(['region', 'state']);
    expect(q.metrics).toEqual(['sum', 'count']);
  });

  it('builds the rings, colouring by the ratio when a secondary metric is set', () => {
    const rows = [
      { region: 'West', state: 'CA', sum: 10, count: 1 },
      { region: 'East', state: 'NY', sum: 10, count: 10 },
    ];
    const out = sunburst.transformProps({ formData: { viz_type: 'sunburst_v2', columns: ['region', 'state'], metric: 'sum', secondary_metric: 'count' }, queriesData: [{ data: rows } as any], datasource: null, theme: 'light', width: 400, height: 300 });
    const [west, east] = out.option.series[0].data;
    expect(west.children[0].name).toBe('CA');
    expect(west.itemStyle.color).not.toBe(east.itemStyle.color);
    // Two rings between 12% and 92% of 150 px: each 60 px thick; a label is cut to the ring, less a margin.
    expect(out.option.series[0].label).toMatchObject({ rotate: 'radial', width: 52, overflow: 'truncate' });
  });

  it('a click on an inner ring filters on its own level only (a region), a leaf on the whole path', () => {
    const rows = [{ region: 'Latin America & Caribbean', country_name: 'Brazil', sum: 10 }];
    const out = sunburst.transformProps({ formData: { viz_type: 'sunburst_v2', columns: ['region', 'country_name'], metric: 'sum' }, queriesData: [{ data: rows } as any], datasource: null, theme: 'light', width: 400, height: 300 });
    expect(clickFilters(out, 'Latin America & Caribbean')).toEqual([{ col: 'region', op: '==', val: 'Latin America & Caribbean' }]);
    expect(clickFilters(out, 'Brazil')).toEqual([
      { col: 'region', op: '==', val: 'Latin America & Caribbean' },
      { col: 'country_name', op: '==', val: 'Brazil' },
    ]);
    expect(clickFilters(out, 'Atlantis')).toBeNull();
  });
});

describe("sunburst: 'Currency format'", () => {
  it('puts the symbol on the tooltip value', () => {
    const out = sunburst.transformProps({ formData: { viz_type: 'sunburst_v2', columns: ['region'], metric: 'sum', number_format: ',d', currency_format: { symbol: 'USD', symbolPosition: 'prefix' } }, queriesData: [{ data: [{ region: 'West', sum: 1200 }] } as any], datasource: null, theme: 'light', width: 400, height: 300 });
    expect(out.option.tooltip.formatter({ value: 1200, treePathInfo: [{ name: '' }, { name: 'West' }] })).toBe('West: $ 1,200');
  });
});
