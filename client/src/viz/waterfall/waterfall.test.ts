import { describe, expect, it } from 'vitest';
import waterfall from './index';

describe('waterfall chart type', () => {
  it('floats each change on the running total and ends with the total', () => {
    const out = waterfall.transformProps({
      formData: { viz_type: 'waterfall', x_axis: 'quarter', metric: 'delta' },
      queriesData: [{ data: [{ quarter: 'Q1', delta: 100 }, { quarter: 'Q2', delta: -30 }, { quarter: 'Q3', delta: 50 }], colnames: ['quarter', 'delta'], coltypes: [1, 0] } as any],
      datasource: null,
      theme: 'light',
      width: 400,
      height: 300,
    });
    const [assist, increase, decrease, total] = out.option.series;
    expect(out.option.xAxis.data).toEqual(['Q1', 'Q2', 'Q3', 'Total']);
    expect(assist.data).toEqual([0, 70, 70, 0]);
    expect(increase.data).toEqual([100, '-', 50, '-']);
    expect(decrease.data).toEqual(['-', 30, '-', '-']);
    expect(total.data).toEqual(['-', '-', '-', 120]);
  });
});

describe("waterfall: 'Currency format'", () => {
  it('puts the symbol on the y-axis labels, the values shown and the tooltip', () => {
    const out = waterfall.transformProps({
      formData: { viz_type: 'waterfall', x_axis: 'quarter', metric: 'delta', show_value: true, y_axis_format: ',d', currency_format: { symbol: 'GBP', symbolPosition: 'prefix' } },
      queriesData: [{ data: [{ quarter: 'Q1', delta: 100 }, { quarter: 'Q2', delta: -30 }], colnames: ['quarter', 'delta'], coltypes: [1, 0] } as any],
      datasource: null,
      theme: 'light',
      width: 400,
      height: 300,
    });
    expect(out.option.yAxis.axisLabel.formatter(100)).toBe('£ 100');
    expect(out.option.series[1].label.formatter({ value: 100 })).toBe('£ 100');
    expect(out.option.tooltip.formatter([{ name: 'Q2', seriesName: 'Decrease', value: 30 }])).toBe('Q2<br/>Decrease: £ −30');
  });
});
