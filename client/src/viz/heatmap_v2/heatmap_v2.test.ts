import { describe, expect, it } from 'vitest';
import heatmap from './index';
import { columnLabels } from './transform-props';
import { labelWidth } from '../shared/label-room';

describe('heatmap chart type', () => {
  const rows = [
    { state: 'CA', gender: 'boy', n: 10 },
    { state: 'CA', gender: 'girl', n: 20 },
    { state: 'NY', gender: 'boy', n: 30 },
  ];
  const input = (extra = {}) => ({ formData: { viz_type: 'heatmap_v2', x_axis: 'state', groupby: ['gender'], metric: 'n', ...extra }, queriesData: [{ data: rows, colnames: ['state', 'gender', 'n'], coltypes: [1, 1, 0] } as any], datasource: null, theme: 'light' as const, width: 400, height: 300 });

  it('asks for the x axis and one y column (a list of several keeps the first; a single column is wrapped), with the metric', () => {
    const queryOf = (groupby: unknown) => heatmap.buildQuery({ viz_type: 'heatmap_v2', datasource: '1__table', x_axis: 'state', groupby, metric: 'sum__num', row_limit: 100 } as any).queries[0]!;
    const query = queryOf('gender');
    expect(query.columns).toEqual([expect.objectContaining({ label: 'state', columnType: 'BASE_AXIS' }), 'gender']);
    expect(query.metrics).toEqual(['sum__num']);
    expect(query.row_limit).toBe(100);
    expect(heatmap.buildQuery({ viz_type: 'heatmap_v2', datasource: '1__table', x_axis: 'state', groupby: ['gender', 'name'], metric: 'sum__num' } as any).queries[0]!.columns).toEqual(query.columns);
    expect(queryOf(['gender'])).toEqual(query);
  });

  it('places each row on its (x, y) cell with the metric as the value', () => {
    const out = heatmap.transformProps(input());
    expect(out.option.xAxis.data).toEqual(['CA', 'NY']);
    expect(out.option.yAxis.data).toEqual(['boy', 'girl']);
    expect(out.option.series[0].data).toEqual([[0, 0, 10], [0, 1, 20], [1, 0, 30]]);
    expect([out.option.visualMap.min, out.option.visualMap.max]).toEqual([10, 30]);
  });

  it("'Currency format' puts the symbol on the cell values, the scale's labels and the tooltip; normalised shares take none", () => {
    const out = heatmap.transformProps(input({ y_axis_format: ',d', show_values: true, currency_format: { symbol: 'USD', symbolPosition: 'prefix' } }));
    expect(out.option.series[0].label.formatter({ value: [0, 0, 10] })).toBe('$ 10');
    expect(out.option.visualMap.formatter(30)).toBe('$ 30');
    expect(out.option.tooltip.formatter({ value: [0, 1, 20] })).toBe('CA · girl<br/>n: $ 20');
    expect(heatmap.transformProps(input({ normalized: true, currency_format: { symbol: 'USD', symbolPosition: 'prefix' } })).option.visualMap.formatter(0.5)).toBe('50%');
  });

  it('normalises across x when asked', () => {
    const out = heatmap.transformProps(input({ normalized: true, normalize_across: 'x' }));
    expect(out.option.series[0].data.map((d: number[]) => d[2])).toEqual([0, 1, 1]);
    const across = heatmap.transformProps(input({ normalized: true, normalize_across: 'heatmap' }));
    expect(across.option.series[0].data.map((d: number[]) => d[2])).toEqual([0, 0.5, 1]);
  });

  it('ends the grid before the colour scale and its longest label, so the label does not cover the last column', () => {
    const short = heatmap.transformProps(input());
    const long = heatmap.transformProps(input({ y_axis_format: ',.2f' }));
    // The sales dashboard's '1.61M' stood over the last column when the grid kept a fixed 100 px.
    expect(short.option.grid.right).toBeGreaterThanOrEqual(short.option.visualMap.right + 20 + 30 + labelWidth('30'));
    expect(long.option.grid.right - short.option.grid.right).toBeCloseTo(labelWidth('30.00') - labelWidth('30'));
  });

  it('turns the x labels when the widest does not fit its column, and then shows each while there is room', () => {
    expect(columnLabels(['CA', 'NY'], 150)).toEqual({ rotate: 0, interval: 'auto' });
    // The sales dashboard's seven product lines in a third of the width: only 'Classic Cars' was left showing.
    expect(columnLabels(['Classic Cars', 'Motorcycles', 'Planes'], 40)).toEqual({ rotate: 45, interval: 0 });
    expect(columnLabels(Array.from({ length: 200 }, (_, i) => `day ${i}`), 3)).toEqual({ rotate: 45, interval: 'auto' });
    const narrow = heatmap.transformProps({ ...input(), width: 120 });
    expect(narrow.option.xAxis.axisLabel).toMatchObject({ rotate: 45 });
  });
});
