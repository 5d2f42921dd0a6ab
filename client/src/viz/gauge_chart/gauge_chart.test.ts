import { describe, expect, it } from 'vitest';
import gauge from './index';
import { gaugeRange, intervalStops, numbersList } from './transform-props';

describe('gauge chart type', () => {
  it("draws one pointer for the total on a dial from 0 to twice the value (Superset's calculateMax: 2 × the largest)", () => {
    const out = gauge.transformProps({ formData: { viz_type: 'gauge_chart', metric: 'count' }, queriesData: [{ data: [{ count: 830 }] } as any], datasource: null, theme: 'dark', width: 400, height: 300 });
    const series = out.option.series[0];
    expect(series.data).toHaveLength(1);
    expect(series.data[0].value).toBe(830);
    expect(series.min).toBe(0);
    expect(series.max).toBe(1660);
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

describe('gauge: Superset\'s intervals, progress and axis options', () => {
  const draw = (formData: Record<string, unknown>, rows: Array<Record<string, unknown>> = [{ count: 40 }]) =>
    gauge.transformProps({ formData: { viz_type: 'gauge_chart', metric: 'count', ...formData }, queriesData: [{ data: rows } as any], datasource: null, theme: 'light', width: 400, height: 300 }).option.series[0];
  const scheme = ['#1FA8C9', '#454E7C', '#5AC189', '#FF7F44'];

  it("'Interval bounds' band the dial; 'Interval colors' pick 1-based from the scheme, else each band takes the scheme's next colour", () => {
    // Superset: '2,4,5 for intervals 0-2, 2-4 and 4-5', colours '1,2,4' from the chosen scheme.
    expect(intervalStops({ intervals: '2,4,5', interval_color_indices: '1,2,4' }, 0, 5, scheme)).toEqual([[0.4, '#1FA8C9'], [0.8, '#454E7C'], [1, '#FF7F44']]);
    expect(intervalStops({ intervals: '2,4,5', interval_color_indices: '3' }, 0, 5, scheme)).toEqual([[0.4, '#5AC189'], [0.8, '#454E7C'], [1, '#5AC189']]);
    // A pick past the scheme's end wraps round it ((ind - 1) % colours).
    expect(intervalStops({ intervals: '5', interval_color_indices: '6' }, 0, 5, scheme)).toEqual([[1, '#454E7C']]);
    expect(intervalStops({ intervals: '2,x' }, 0, 5, scheme)).toEqual([]);
    expect(numbersList(' 1, 2.5 ,3')).toEqual([1, 2.5, 3]);
    const series = draw({ intervals: '50,80,100', interval_color_indices: '3,4,2', max_val: 100 });
    expect(series.axisLine.lineStyle.color).toHaveLength(3);
    expect(series.axisLine.lineStyle.color[2][0]).toBe(1);
    expect([series.pointer.itemStyle.color, series.axisTick.lineStyle.color, series.splitLine.lineStyle.color]).toEqual(['auto', 'auto', 'auto']);
    // The labels stay in the text colour, legible on a dark page whatever the band's colour.
    expect(series.axisLabel.color).not.toBe('auto');
    expect(draw({}).axisLine.lineStyle.color).toHaveLength(1);
  });

  it("'Round cap', 'Show axis line ticks', 'Show split lines' are off unless ticked; 'Overlap' and 'Show progress' on unless unticked", () => {
    const plain = draw({});
    expect([plain.progress.roundCap, plain.axisLine.roundCap, plain.axisTick.show, plain.splitLine.show, plain.progress.overlap, plain.progress.show]).toEqual([false, false, false, false, true, true]);
    const ticked = draw({ round_cap: true, show_axis_tick: true, show_split_line: true, overlap: false, show_progress: false, split_number: 5 });
    expect([ticked.progress.roundCap, ticked.axisLine.roundCap, ticked.axisTick.show, ticked.splitLine.show, ticked.progress.overlap, ticked.progress.show, ticked.splitNumber]).toEqual([true, true, true, true, false, false, 5]);
  });

  it("'Value format' wraps the number ('{value} km'); the axis labels keep the bare number", () => {
    const series = draw({ value_formatter: '{value} km' });
    expect(series.detail.formatter(40)).toBe('40 km');
    expect(series.axisLabel.formatter(40)).toBe('40');
  });

  it('runs the dial from twice the smallest negative value when no Min is set', () => {
    expect(gaugeRange([-5, 10], null, null)).toEqual([-10, 20]);
    expect(gaugeRange([3], '1', '')).toEqual([1, 6]);
  });

  it("'Sort by metric' orders the groups by the metric, largest first", () => {
    const q = (extra: object) => gauge.buildQuery({ viz_type: 'gauge_chart', datasource: '1__table', metric: 'count', groupby: ['g'], ...extra } as any).queries[0]!;
    expect(q({ sort_by_metric: true }).orderby).toEqual([['count', false]]);
    expect(q({}).orderby).toEqual([]);
  });
});

describe("gauge: 'Font size'", () => {
  it('sizes the labels, the bars (as wide as the font is high) and the value (1.2 times); unset, they follow the chart', () => {
    const draw = (extra: Record<string, unknown>) => gauge.transformProps({ formData: { viz_type: 'gauge_chart', metric: 'count', ...extra }, queriesData: [{ data: [{ count: 40 }] } as any], datasource: null, theme: 'light', width: 400, height: 300 }).option.series[0];
    const set = draw({ font_size: 12 });
    expect([set.axisLabel.fontSize, set.progress.width, set.axisLine.lineStyle.width]).toEqual([12, 12, 12]);
    expect(set.detail.fontSize).toBeCloseTo(14.4);
    const auto = draw({});
    expect([auto.axisLabel.fontSize, auto.progress.width]).toEqual([9, 10]);
  });
});
