import * as echarts from 'echarts';
import { describe, expect, it } from 'vitest';
import { registerCountry, registerUsa } from '../shared/geo';
import { regionName, usStateCode } from '../shared/geo-codes';
import { getSequentialColors } from '../shared/colors';
import { chartTheme } from '../shared/theme';
import countryMap from './index';
import { compactCountry, countryKeys } from './country-shapes.build';
import { COUNTRY_MAP_COUNTRIES, COUNTRY_MAP_KEYS, countryKey, regionCodeOf } from './countries';

/** A colour as ECharts writes it after its visuals: rgba(r,g,b,a). */
const rgba = (c: string) => echarts.color.stringify(echarts.color.parse(c), 'rgba');

describe('country map chart type', () => {
  it('reads states as postal codes, ISO 3166-2 codes or names', () => {
    expect([usStateCode('CA'), usStateCode('US-NY'), usStateCode('texas'), usStateCode('ZZ')]).toEqual(['CA', 'NY', 'TX', null]);
  });

  it('colours each state by the metric, and says plainly when a country has no shapes', () => {
    const input = (fd: Record<string, unknown>) => ({ formData: { viz_type: 'country_map', entity: 'state', metric: 'n', ...fd }, queriesData: [{ data: [{ state: 'CA', n: 5 }, { state: 'other', n: 1 }] } as any], datasource: null, theme: 'light' as const, width: 400, height: 300 });
    expect(countryMap.transformProps(input({ select_country: 'usa' })).option.series[0].data).toEqual([{ name: 'CA', value: 5 }]);
    expect(() => countryMap.transformProps(input({ select_country: 'atlantis' }))).toThrow(/No shapes for atlantis/);
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

  it("offers every country of Superset's Country Map, by its key, with a readable label; 'usa' by default", () => {
    expect([...COUNTRY_MAP_KEYS]).toEqual(countryKeys());
    expect(COUNTRY_MAP_KEYS.length).toBeGreaterThan(190);
    const labels = Object.fromEntries(COUNTRY_MAP_COUNTRIES);
    expect([labels.usa, labels.uk, labels.france, labels.germany, labels.south_africa, labels.italy_regions, labels.democratic_republic_of_the_congo]).toEqual(['USA', 'UK', 'France', 'Germany', 'South Africa', 'Italy (regions)', 'Democratic Republic of the Congo']);
    expect(countryMap.defaultFormData?.select_country).toBe('usa');
  });

  it('reads select_country as any Superset version stored it', () => {
    expect(['france', 'France', 'USA', 'france_overseas', 'srilanka', 'south_africa', 'atlantis', undefined].map(countryKey)).toEqual(['france', 'france', 'usa', 'france', 'sri_lanka', 'south_africa', null, 'usa']);
    // Explore opens such a chart on the Country control's own choice.
    const control = countryMap.controlPanel.sections.flatMap((sec) => sec.controlSetRows.flat()).find((c): c is any => typeof c === 'object' && (c as any).name === 'select_country');
    expect(['France', 'USA', 'srilanka', 'atlantis'].map(control.fromStored)).toEqual(['france', 'usa', 'sri_lanka', 'atlantis']);
  });

  it("matches a row's ISO 3166-2 code to its country's region: FR-75 is Paris, DE-BY Bayern, US-CA California", async () => {
    await Promise.all(['france', 'germany', 'poland', 'india'].map(registerCountry));
    const region = (country: string, value: string) => {
      const code = regionCodeOf(country, value);
      return code && regionName(country === 'usa' ? 'usa' : `country:${country}`, code);
    };
    expect(region('france', 'FR-75')).toBe('Paris');
    expect(region('france', ' fr-2a')).toBe('Corse-du-Sud');
    expect(region('germany', 'DE-BY')).toBe('Bayern');
    expect(region('usa', 'US-CA')).toBe('California');
    // Codes ISO has changed since Superset's shapes were made match by either: Paris, Poland's Silesia, India's Telangana.
    expect([region('france', 'FR-75C'), region('france', 'FR-974'), region('poland', 'PL-24'), region('poland', 'PL-SL'), region('india', 'IN-TS'), region('india', 'IN-TG')]).toEqual(['Paris', 'La Réunion', 'Silesian', 'Silesian', 'Telangana', 'Telangana']);
    // Unknown codes, another country's code and a value that is no code match nothing.
    expect([region('france', 'FR-99'), region('germany', 'FR-75'), region('france', 'other'), region('usa', 'US-ZZ')]).toEqual([undefined, undefined, null, null]);
    await expect(registerCountry('atlantis')).rejects.toThrow(/No shapes for atlantis/);
  });

  it("colours France's departments from their codes, leaves the others grey, and names the region in the tooltip", async () => {
    await registerCountry('france');
    const out = countryMap.transformProps({ formData: { viz_type: 'country_map', select_country: 'france', entity: 'dept', metric: 'n' }, queriesData: [{ data: [{ dept: 'FR-75', n: 5 }, { dept: 'FR-13', n: 2 }, { dept: 'FR-99', n: 1 }, { dept: 'nowhere', n: 9 }] } as any], datasource: null, theme: 'light', width: 400, height: 300 });
    expect(out.map).toBe('country:france');
    const chart = echarts.init(null, null, { renderer: 'svg', ssr: true, width: 400, height: 300 });
    chart.setOption(out.option);
    const data = (chart as any).getModel().getSeriesByIndex(0).getData();
    const fill = (code: string) => rgba(data.getItemVisual(data.indexOfName(code), 'style').fill ?? out.option.series[0].itemStyle.areaColor);
    const scale = getSequentialColors(undefined, 9, 'light').map(rgba);
    expect(scale).toContain(fill('FR-75'));
    expect(scale).toContain(fill('FR-13'));
    expect(fill('FR-75')).not.toBe(fill('FR-13'));
    expect(fill('FR-69')).toBe(rgba(chartTheme('light').noData));
    // 'nowhere' is no code; FR-99 has no region but still counts on the scale (as in Superset).
    expect(out.option.series[0].data.map((d: any) => d.name)).toEqual(['FR-75', 'FR-13', 'FR-99']);
    expect(out.option.tooltip.formatter({ name: 'FR-75', data: { value: 5 } })).toBe('Paris: 5');
    expect(out.option.tooltip.formatter({ name: 'FR-69' })).toBe('Rhône');
    chart.dispose();
  });

  it("keeps a country's proportions and joins regions that share a code, also across the antimeridian", () => {
    const square = (x: number, y: number) => [[[x, y], [x + 1, y], [x + 1, y + 1], [x, y + 1], [x, y]]];
    const { step, regions } = compactCountry({
      features: [
        { properties: { ISO: 'XX-A', NAME_1: 'East' }, geometry: { type: 'Polygon', coordinates: square(178, 60) } },
        { properties: { ISO: 'XX-A', NAME_1: 'West' }, geometry: { type: 'Polygon', coordinates: square(-179.5, 60) } },
        { properties: { ISO: 'xx-b', NAME_1: 'B' }, geometry: { type: 'Polygon', coordinates: square(176, 60) } },
      ],
    });
    expect(regions.map((r) => [r.code, r.name, r.polygons.length])).toEqual([['XX-A', 'East / West', 2], ['XX-B', 'B', 1]]);
    // Decoded: 'West' continues past 180° beside 'East', and a degree of longitude at 60.5°N is about half a degree of latitude.
    const decode = (ring: number[]) => ring.reduce<number[][]>((pts, d, i) => (i % 2 ? pts : [...pts, [(pts.at(-1)?.[0] ?? 0) + d, (pts.at(-1)?.[1] ?? 0) + ring[i + 1]!]]), []).map(([x, y]) => [x! * step, y! * step]);
    const west = decode(regions[0]!.polygons[1]![0]!);
    const xs = west.map((p) => p[0]!);
    const width = Math.max(...xs) - Math.min(...xs);
    const height = Math.max(...west.map((p) => p[1]!)) - Math.min(...west.map((p) => p[1]!));
    expect(width / height).toBeCloseTo(Math.cos((60.5 * Math.PI) / 180), 2);
    expect(Math.min(...xs)).toBeCloseTo(180.5 * Math.cos((60.5 * Math.PI) / 180), 1);
  });

  it('draws a tall country tall in a wide chart: its proportions kept, not stretched to the box', async () => {
    await registerCountry('italy');
    const out = countryMap.transformProps({ formData: { viz_type: 'country_map', select_country: 'italy', entity: 'r', metric: 'n' }, queriesData: [{ data: [{ r: 'IT-RM', n: 5 }] } as any], datasource: null, theme: 'light', width: 800, height: 300 });
    const chart = echarts.init(null, null, { renderer: 'svg', ssr: true, width: 800, height: 300 });
    chart.setOption(out.option);
    const geo = (chart as any).getModel().getSeriesByIndex(0).coordinateSystem;
    const shape = geo.getBoundingRect();
    const drawn = geo.getViewRect();
    expect(shape.width / shape.height).toBeLessThan(1);
    expect(drawn.width / drawn.height).toBeCloseTo(shape.width / shape.height, 2);
    expect(drawn.height).toBeGreaterThan(200);
    chart.dispose();
  });
});
