import { describe, expect, it } from 'vitest';
import gauge from './index';

describe('gauge chart type', () => {
  it('draws one pointer for the total, the dial running to a rounded max above the value', () => {
    const out = gauge.transformProps({ formData: { viz_type: 'gauge_chart', metric: 'count' }, queriesData: [{ data: [{ count: 830 }] } as any], datasource: null, theme: 'dark', width: 400, height: 300 });
    const series = out.option.series[0];
    expect(series.data).toHaveLength(1);
    expect(series.data[0].value).toBe(830);
    expect(series.min).toBe(0);
    expect(series.max).toBe(910);
    expect(out.option.series[0].startAngle).toBe(225);
  });

  it('keeps the configured min and max', () => {
    const out = gauge.transformProps({ formData: { viz_type: 'gauge_chart', metric: 'count', min_val: '10', max_val: '2000' }, queriesData: [{ data: [{ count: 5 }] } as any], datasource: null, theme: 'light', width: 400, height: 300 });
    expect([out.option.series[0].min, out.option.series[0].max]).toEqual([10, 2000]);
  });
});

describe("gauge: 'Currency format'", () => {
  it('puts the symbol on the value shown, the axis labels and the tooltip', () => {
    const out = gauge.transformProps({ formData: { viz_type: 'gauge_chart', metric: 'count', number_format: ',d', currency_format: { symbol: 'USD', symbolPosition: 'prefix' } }, queriesData: [{ data: [{ count: 830 }] } as any], datasource: null, theme: 'light', width: 400, height: 300 });
    const series = out.option.series[0];
    expect(series.detail.formatter(830)).toBe('$ 830');
    expect(series.axisLabel.formatter(910)).toBe('$ 910');
    expect(out.option.tooltip.formatter({ name: 'count', value: 830 })).toBe('count: $ 830');
  });
});
