import { describe, expect, it } from 'vitest';
import radar from './index';

describe('radar chart type', () => {
  it('makes one axis per metric and one polygon per group', () => {
    const out = radar.transformProps({
      formData: { viz_type: 'radar', groupby: ['gender'], metrics: ['a', 'b'], column_config: { b: { radarMetricMaxValue: 100 } } },
      queriesData: [{ data: [{ gender: 'boy', a: 10, b: 20 }, { gender: 'girl', a: 5, b: 40 }] } as any],
      datasource: null,
      theme: 'light',
      width: 400,
      height: 300,
    });
    expect(out.option.radar.indicator).toEqual([{ name: 'a', max: 11 }, { name: 'b', max: 100 }]);
    expect(out.option.series[0].data.map((d: any) => [d.name, d.value])).toEqual([['boy', [10, 20]], ['girl', [5, 40]]]);
  });
});
