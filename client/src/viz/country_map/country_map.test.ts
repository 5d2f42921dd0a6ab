import { describe, expect, it } from 'vitest';
import { usStateCode } from '../shared/geo-codes';
import countryMap from './index';

describe('country map chart type', () => {
  it('reads states as postal codes, ISO 3166-2 codes or names', () => {
    expect([usStateCode('CA'), usStateCode('US-NY'), usStateCode('texas'), usStateCode('ZZ')]).toEqual(['CA', 'NY', 'TX', null]);
  });

  it('colours each state by the metric, and says plainly when a country has no shapes', () => {
    const input = (fd: Record<string, unknown>) => ({ formData: { viz_type: 'country_map', entity: 'state', metric: 'n', ...fd }, queriesData: [{ data: [{ state: 'CA', n: 5 }, { state: 'other', n: 1 }] } as any], datasource: null, theme: 'light' as const, width: 400, height: 300 });
    expect(countryMap.transformProps(input({ select_country: 'usa' })).option.series[0].data).toEqual([{ name: 'CA', value: 5 }]);
    expect(() => countryMap.transformProps(input({ select_country: 'france' }))).toThrow(/No shapes for france/);
  });

  it("keeps the state of its own cross-filter drawn in full and fades every other state", () => {
    const series = (filterState?: { selectedValues?: unknown }) =>
      countryMap.transformProps({ formData: { viz_type: 'country_map', entity: 'state', metric: 'n' }, queriesData: [{ data: [{ state: 'CA', n: 5 }, { state: 'TX', n: 2 }] } as any], datasource: null, theme: 'light', width: 400, height: 300, filterState }).option.series[0];
    const selected = series({ selectedValues: ['CA'] });
    // States without data are faded too: the series' style, which the selected state's own overrides.
    expect(selected.itemStyle.opacity).toBe(0.3);
    expect(selected.data.map((d: any) => [d.name, d.itemStyle.opacity])).toEqual([['CA', 1], ['TX', 0.3]]);
    expect(series().itemStyle.opacity).toBeUndefined();
    expect(series().data).toEqual([{ name: 'CA', value: 5 }, { name: 'TX', value: 2 }]);
  });

  it('lays the colour scale along the bottom, under the map, not over its states', () => {
    const out = countryMap.transformProps({ formData: { viz_type: 'country_map', entity: 'state', metric: 'n' }, queriesData: [{ data: [{ state: 'CA', n: 5 }, { state: 'TX', n: 2 }] } as any], datasource: null, theme: 'light', width: 400, height: 300 });
    const { visualMap, series } = out.option;
    expect(visualMap).toMatchObject({ orient: 'horizontal', min: 2, max: 5, bottom: 8 });
    // The map's box ends above the scale's bar and its handles' labels.
    expect(series[0].bottom).toBeGreaterThanOrEqual(visualMap.bottom + visualMap.itemWidth + 20);
  });
});
