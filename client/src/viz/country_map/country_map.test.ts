import * as echarts from 'echarts';
import { describe, expect, it } from 'vitest';
import { registerUsa } from '../shared/geo';
import { usStateCode } from '../shared/geo-codes';
import { getSequentialColors } from '../shared/colors';
import { chartTheme } from '../shared/theme';
import countryMap from './index';

/** A colour as ECharts writes it after its visuals: rgba(r,g,b,a). */
const rgba = (c: string) => echarts.color.stringify(echarts.color.parse(c), 'rgba');

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

  it("draws the states without a value in the theme's 'no data' grey, and only the states with values on the scale", async () => {
    await registerUsa();
    for (const theme of ['light', 'dark'] as const) {
      // A dashboard filtered to CA: one row.
      const out = countryMap.transformProps({ formData: { viz_type: 'country_map', entity: 'state', metric: 'n' }, queriesData: [{ data: [{ state: 'CA', n: 5 }] } as any], datasource: null, theme, width: 400, height: 300 });
      const chart = echarts.init(null, null, { renderer: 'svg', ssr: true, width: 400, height: 300 });
      chart.setOption(out.option);
      // The colour ECharts' map draws each state with: the visual its visualMap gave the state's data item.
      const data = (chart as any).getModel().getSeriesByIndex(0).getData();
      const fill = (code: string) => rgba(data.getItemVisual(data.indexOfName(code), 'style').fill ?? out.option.series[0].itemStyle.areaColor);
      const noData = rgba(chartTheme(theme).noData);
      expect([fill('TX'), fill('NY')]).toEqual([noData, noData]);
      // CA's one value is the scale's own colour (its lowest end).
      expect(getSequentialColors(undefined, 9, theme).map(rgba)).toContain(fill('CA'));
      chart.dispose();
    }
    expect(chartTheme('light').noData).not.toBe(chartTheme('dark').noData);
  });
});
