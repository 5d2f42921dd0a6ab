import { describe, expect, it } from 'vitest';
import worldMap from './index';
import { countryCode } from './transform-props';

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
});
