import { describe, expect, it } from 'vitest';
import bubble from './index';

describe('bubble chart type', () => {
  it('queries x, y and size per entity and series, largest first', () => {
    const q = bubble.buildQuery({ viz_type: 'bubble_v2', datasource: '1__table', entity: 'name', series: 'gender', x: 'a', y: 'b', size: 'c' }).queries[0]!;
    expect(q.columns).toEqual(['name', 'gender']);
    expect(q.metrics).toEqual(['a', 'b', 'c']);
    expect(q.orderby).toEqual([['c', false]]);
  });

  it('sizes bubbles by the square root of the size metric up to the max bubble size', () => {
    const rows = [
      { name: 'A', gender: 'boy', a: 1, b: 2, c: 100 },
      { name: 'B', gender: 'girl', a: 3, b: 4, c: 25 },
    ];
    const out = bubble.transformProps({ formData: { viz_type: 'bubble_v2', entity: 'name', series: 'gender', x: 'a', y: 'b', size: 'c', max_bubble_size: 25 }, queriesData: [{ data: rows } as any], datasource: null, theme: 'light', width: 400, height: 300 });
    const [boys, girls] = out.option.series;
    expect(boys.data[0]).toMatchObject({ name: 'A', value: [1, 2, 100], symbolSize: 50 });
    expect(girls.data[0].symbolSize).toBe(25);
  });
});

describe("bubble: Superset's axis options", () => {
  const rows = [{ country: 'A', x: 1.5, y: 70, pop: 1234567 }];
  const draw = (extra: Record<string, unknown>) => bubble.transformProps({ formData: { viz_type: 'bubble_v2', entity: 'country', x: 'x', y: 'y', size: 'pop', ...extra }, queriesData: [{ data: rows } as any], datasource: null, theme: 'light', width: 600, height: 400 }).option;

  it("formats the x-axis with Superset's xAxisFormat (an earlier x_axis_format still reads), the size in the tooltip with 'Bubble size number format'", () => {
    expect(draw({ xAxisFormat: '.2f' }).xAxis.axisLabel.formatter(1.5)).toBe('1.50');
    expect(draw({ x_axis_format: '.1f' }).xAxis.axisLabel.formatter(1.5)).toBe('1.5');
    expect(draw({ tooltipSizeFormat: ',d' }).tooltip.formatter({ name: 'A', value: [1.5, 70, 1234567] })).toContain('pop: 1,234,567');
  });

  it("'Rotate x/y axis label' turn the labels; bounds apply while the axis is truncated (x by default, y when ticked)", () => {
    const out = draw({ xAxisLabelRotation: 45, yAxisLabelRotation: 45 });
    expect([out.xAxis.axisLabel.rotate, out.yAxis.axisLabel.rotate]).toEqual([45, 45]);
    expect(draw({ xAxisBounds: [0, null] }).xAxis).toMatchObject({ min: 0 });
    expect(draw({ truncateXAxis: false, xAxisBounds: [0, 5] }).xAxis.min).toBeUndefined();
    expect(draw({ y_axis_bounds: [50, 90] }).yAxis.min).toBeUndefined();
    expect(draw({ truncateYAxis: true, y_axis_bounds: [50, 90] }).yAxis).toMatchObject({ min: 50, max: 90 });
  });
});
