import { describe, expect, it } from 'vitest';
import { clickFilters } from '../shared/echarts-chart';
import sunburst from './index';
import { labelShown, sunburstLabel } from './transform-props';

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

describe("sunburst: Superset's label options and total", () => {
  const rows = [{ region: 'West', state: 'CA', n: 90 }, { region: 'West', state: 'OR', n: 6 }, { region: 'East', state: 'NY', n: 4 }];
  const draw = (extra: Record<string, unknown>) => sunburst.transformProps({ formData: { viz_type: 'sunburst_v2', columns: ['region', 'state'], metric: 'n', ...extra }, queriesData: [{ data: rows } as any], datasource: null, theme: 'light', width: 400, height: 400 }).option;

  it("'Label Type': the category (default), the value, or both", () => {
    expect([sunburstLabel(undefined, 'CA', '90'), sunburstLabel('value', 'CA', '90'), sunburstLabel('key_value', 'CA', '90')]).toEqual(['CA', '90', 'CA: 90']);
    expect(draw({ label_type: 'key_value' }).series[0].label.formatter({ name: 'CA', value: 90 })).toBe('CA: 90');
  });

  it("'Percentage threshold' labels only arcs of at least that share of the whole (5 points unless set)", () => {
    expect([labelShown(5, 100, undefined), labelShown(4, 100, undefined), labelShown(4, 100, 2), labelShown(4, 100, '')]).toEqual([true, false, true, false]);
    const west = draw({}).series[0].data[0];
    expect(west.children.map((c: any) => [c.name, c.label.show])).toEqual([['CA', true], ['OR', true]]);
    const east = draw({}).series[0].data[1];
    expect([east.label.show, east.children[0].label.show]).toEqual([false, false]);
    expect(draw({ show_labels: false }).series[0].data[0].label.show).toBe(false);
  });

  it("'Show Total' writes the whole's value in the centre and widens the hole to hold it", () => {
    expect(draw({}).graphic).toBeUndefined();
    const out = draw({ show_total: true });
    expect(out.graphic.style.text).toBe('Total: 100');
    expect(parseFloat(out.series[0].radius[0])).toBeGreaterThanOrEqual(12);
  });

  it("'Sort by metric' unticked leaves the database's order; a secondary metric equal to the primary colours by category", () => {
    expect(sunburst.buildQuery({ viz_type: 'sunburst_v2', datasource: '1__table', columns: ['region'], metric: 'n', sort_by_metric: false }).queries[0]!.orderby).toEqual([]);
    const same = draw({ secondary_metric: 'n' }).series[0].data.map((d: any) => d.itemStyle.color);
    const plain = draw({}).series[0].data.map((d: any) => d.itemStyle.color);
    expect(same).toEqual(plain);
  });
});

describe("sunburst: 'Date format'", () => {
  const rows = [
    { ds: Date.UTC(2004, 0, 1), state: 'CA', sum: 10 },
    { ds: Date.UTC(2005, 0, 1), state: 'CA', sum: 5 },
    { ds: null, state: 'NY', sum: 1 },
  ];
  const draw = (extra: Record<string, unknown>) =>
    sunburst.transformProps({ formData: { viz_type: 'sunburst_v2', columns: ['ds', 'state'], metric: 'sum', ...extra }, queriesData: [{ data: rows, colnames: ['ds', 'state', 'sum'], coltypes: [2, 1, 0] } as any], datasource: null, theme: 'light', width: 400, height: 300 });

  it('writes a temporal level in the date format, adaptive when none is set; a click still filters on the stored value', () => {
    expect(draw({ date_format: '%Y-%m-%d' }).option.series[0].data.map((n: any) => n.name)).toEqual(['2004-01-01', '2005-01-01', 'NULL']);
    const out = draw({});
    expect(out.option.series[0].data.map((n: any) => n.name)).toEqual(['2004', '2005', 'NULL']);
    expect(clickFilters(out, '2004')).toEqual([{ col: 'ds', op: '==', val: Date.UTC(2004, 0, 1) }]);
  });

  it("offers Superset's 'Date format' control, adaptive by default", () => {
    const controls = sunburst.controlPanel.sections.flatMap((s) => s.controlSetRows.flat());
    expect(controls).toContain('date_format');
  });
});
