import { describe, expect, it } from 'vitest';
import treemap from './index';

describe('treemap chart type', () => {
  it('nests rows by the group-by columns, each node the sum of its leaves', () => {
    const rows = [
      { region: 'West', state: 'CA', sum: 10 },
      { region: 'West', state: 'OR', sum: 5 },
      { region: 'East', state: 'NY', sum: 7 },
    ];
    const out = treemap.transformProps({ formData: { viz_type: 'treemap_v2', groupby: ['region', 'state'], metric: 'sum' }, queriesData: [{ data: rows } as any], datasource: null, theme: 'light', width: 400, height: 300 });
    const data = out.option.series[0].data;
    expect(data.map((n: any) => [n.name, n.value])).toEqual([['West', 15], ['East', 7]]);
    expect(data[0].children.map((n: any) => n.name)).toEqual(['CA', 'OR']);
    expect(out.groups.OR).toEqual(['West', 'OR']);
    // ECharts' treemap series animates unless told so itself (the option's animation: false does not reach it).
    expect(out.option.series[0].animation).toBe(false);
  });
  it("labels a rectangle on one line, 'name: value' as Superset's, and its group's band the same way", () => {
    const rows = [{ region: 'West', state: 'CA', sum: 1500 }];
    const out = treemap.transformProps({ formData: { viz_type: 'treemap_v2', groupby: ['region', 'state'], metric: 'sum', label_type: 'key_value' }, queriesData: [{ data: rows } as any], datasource: null, theme: 'light', width: 400, height: 300 });
    const series = out.option.series[0];
    expect(series.label.formatter({ name: 'CA', value: 1500 })).toBe('CA: 1.5k');
    expect(series.levels[1].upperLabel.formatter({ name: 'West', value: 1500 })).toBe('West: 1.5k');
  });
});

describe("treemap: 'Currency format'", () => {
  it('puts the symbol on the labels and the tooltip', () => {
    const rows = [{ region: 'West', state: 'CA', sum: 1500 }];
    const out = treemap.transformProps({ formData: { viz_type: 'treemap_v2', groupby: ['region', 'state'], metric: 'sum', label_type: 'key_value', currency_format: { symbol: 'USD', symbolPosition: 'prefix' } }, queriesData: [{ data: rows } as any], datasource: null, theme: 'light', width: 400, height: 300 });
    expect(out.option.series[0].label.formatter({ name: 'CA', value: 1500 })).toBe('CA: $ 1.5k');
    expect(out.option.tooltip.formatter({ value: 1500, treePathInfo: [{ name: '' }, { name: 'West' }, { name: 'CA' }] })).toBe('West › CA: $ 1.5k');
  });
});

describe("treemap: Superset's label options", () => {
  const rows = [{ region: 'West', state: 'CA', sum: 1500 }];
  const draw = (extra: Record<string, unknown>) => treemap.transformProps({ formData: { viz_type: 'treemap_v2', groupby: ['region', 'state'], metric: 'sum', ...extra }, queriesData: [{ data: rows } as any], datasource: null, theme: 'light', width: 400, height: 300 }).option.series[0];

  it("'Label Type': the value, the category ('Key' as Superset's choice stores it), or both (the default)", () => {
    expect(draw({ label_type: 'value' }).label.formatter({ name: 'CA', value: 1500 })).toBe('1.5k');
    expect(draw({ label_type: 'Key' }).label.formatter({ name: 'CA', value: 1500 })).toBe('CA');
    expect(draw({}).label.formatter({ name: 'CA', value: 1500 })).toBe('CA: 1.5k');
  });

  it("'Show Upper Labels' off drops the band naming a group above its children", () => {
    expect(draw({}).levels[1].upperLabel.show).toBe(true);
    expect(draw({ show_upper_labels: false }).levels[1].upperLabel.show).toBe(false);
  });
});

describe("treemap: 'Date format'", () => {
  it('writes a temporal level in the date format, adaptive when none is set; a click still filters on the stored value', () => {
    const rows = [
      { ds: Date.UTC(2004, 2, 1), gender: 'boy', sum: 10 },
      { ds: Date.UTC(2004, 2, 1), gender: 'girl', sum: 5 },
    ];
    const draw = (extra: Record<string, unknown>) =>
      treemap.transformProps({ formData: { viz_type: 'treemap_v2', groupby: ['ds', 'gender'], metric: 'sum', ...extra }, queriesData: [{ data: rows, colnames: ['ds', 'gender', 'sum'], coltypes: [2, 1, 0] } as any], datasource: null, theme: 'light', width: 400, height: 300 });
    expect(draw({ date_format: '%d/%m/%Y' }).option.series[0].data[0].name).toBe('01/03/2004');
    const out = draw({});
    expect(out.option.series[0].data[0].name).toBe('March');
    expect(out.groups.March).toEqual([Date.UTC(2004, 2, 1)]);
  });
});
