import * as echarts from 'echarts';
import { describe, expect, it } from 'vitest';
import { registerWorld } from '../shared/geo';
import { chartTheme } from '../shared/theme';
import worldMap from './index';
import { countryCode } from './transform-props';

/** A colour as ECharts writes it after its visuals: rgba(r,g,b,a). */
const rgba = (c: string) => echarts.color.stringify(echarts.color.parse(c), 'rgba');

describe('world map chart type', () => {
  it('reads countries by alpha-3, alpha-2 or English name as the ISO numeric code of the shapes', () => {
    expect(countryCode('USA', 'cca3')).toBe('840');
    expect(countryCode('FR', 'cca2')).toBe('250');
    expect(countryCode('Fiji', 'name')).toBe('242');
    expect(countryCode('XXX', 'cca3')).toBeNull();
  });

  it('colours each country by the metric and keeps its own label for the tooltip', () => {
    const q = worldMap.buildQuery({ viz_type: 'world_map', datasource: '1__table', entity: 'country_code', metric: 'sum__SP_POP_TOTL' }).queries[0]!;
    expect(q.columns).toEqual(['country_code']);
    const out = worldMap.transformProps({ formData: { viz_type: 'world_map', entity: 'country_code', metric: 'pop' }, queriesData: [{ data: [{ country_code: 'USA', pop: 320 }, { country_code: 'CHN', pop: 1364 }, { country_code: 'WLD', pop: 7000 }] } as any], datasource: null, theme: 'light', width: 400, height: 300 });
    expect(out.option.series[0].data.map((d: any) => [d.name, d.label, d.value])).toEqual([['840', 'USA', 320], ['156', 'CHN', 1364]]);
    expect([out.option.visualMap.min, out.option.visualMap.max]).toEqual([320, 1364]);
  });

  it("draws the countries without a value in the theme's 'no data' grey, and those with values on the scale", async () => {
    await registerWorld();
    const fills = (rows: Array<{ country_code: string; pop: number }>, theme: 'light' | 'dark') => {
      const out = worldMap.transformProps({ formData: { viz_type: 'world_map', entity: 'country_code', metric: 'pop' }, queriesData: [{ data: rows } as any], datasource: null, theme, width: 400, height: 300 });
      const chart = echarts.init(null, null, { renderer: 'svg', ssr: true, width: 400, height: 300 });
      chart.setOption(out.option);
      // The colour ECharts' map draws each country with: its visual from the visualMap, else the series' areaColor.
      const data = (chart as any).getModel().getSeriesByIndex(0).getData();
      const fill = (code: string) => rgba(data.getItemVisual(data.indexOfName(code), 'style').fill ?? out.option.series[0].itemStyle.areaColor);
      const result = { usa: fill('840'), chn: fill('156'), fra: fill('250'), bra: fill('076') };
      chart.dispose();
      return result;
    };
    for (const theme of ['light', 'dark'] as const) {
      const noData = rgba(chartTheme(theme).noData);
      // France (250) and Brazil (076) have no row.
      const two = fills([{ country_code: 'USA', pop: 320 }, { country_code: 'CHN', pop: 1364 }], theme);
      expect([two.fra, two.bra]).toEqual([noData, noData]);
      expect(two.usa).not.toBe(noData);
      expect(two.chn).not.toBe(two.usa);
      // A dashboard filtered to one country: the others stay grey, not the colour of its one value.
      const one = fills([{ country_code: 'USA', pop: 320 }], theme);
      expect([one.chn, one.fra, one.bra]).toEqual([noData, noData, noData]);
      expect(one.usa).not.toBe(noData);
    }
  });
});
