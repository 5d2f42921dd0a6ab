import { describe, expect, it } from 'vitest';
import heatmap from './index';
import { columnLabels, marginPixels, percentRanks, scaleInterval, sortAxisValues } from './transform-props';
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
    const out = heatmap.transformProps(input({ y_axis_format: ',d', show_values: true, show_percentage: false, currency_format: { symbol: 'USD', symbolPosition: 'prefix' } }));
    expect(out.option.series[0].label.formatter({ value: [0, 0, 10] })).toBe('$ 10');
    expect(out.option.visualMap.formatter(30)).toBe('$ 30');
    expect(out.option.tooltip.formatter({ value: [0, 1, 20] })).toBe('CA · girl<br/>n: $ 20');
    expect(heatmap.transformProps(input({ normalized: true, currency_format: { symbol: 'USD', symbolPosition: 'prefix' } })).option.visualMap.formatter(0.5)).toBe('50%');
  });

  it("'Normalized' colours by each cell's percentile rank within its column, row or the heatmap (Superset's rank post-processing)", () => {
    const out = heatmap.transformProps(input({ normalized: true, normalize_across: 'x' }));
    // CA: 10 and 20 rank 1/2 and 2/2; NY's only cell ranks 1. The metric stays third, shown in labels and tooltip.
    expect(out.option.series[0].data).toEqual([[0, 0, 10, 0.5], [0, 1, 20, 1], [1, 0, 30, 1]]);
    expect(out.option.visualMap).toMatchObject({ dimension: 3, min: 0.5, max: 1 });
    expect(out.option.tooltip.formatter({ value: [0, 1, 20, 1] })).toBe('CA · girl<br/>n: 20 · 66.67% (CA)');
    const across = heatmap.transformProps(input({ normalized: true, normalize_across: 'heatmap' }));
    expect(across.option.series[0].data.map((d: number[]) => d[3])).toEqual([1 / 3, 2 / 3, 1]);
    expect(heatmap.transformProps(input()).option.visualMap.dimension).toBe(2);
  });

  it('ranks as pandas rank(pct=True): ties share their average place, missing values have none', () => {
    expect(percentRanks([10, 30, 20, 20])).toEqual([0.25, 1, 0.625, 0.625]);
    expect(percentRanks([5, null, 5])).toEqual([0.75, null, 0.75]);
    expect(percentRanks([])).toEqual([]);
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
  it("'Sort X/Y Axis' as Superset's: the axis ascending by default (numbers as numbers), or by the metric summed per value", () => {
    const cells = [
      { x: 'b', y: 10, n: 1 },
      { x: 'a', y: 9, n: 5 },
      { x: 'b', y: 9, n: 2 },
      { x: 'c10', y: 10, n: 0 },
      { x: 'c9', y: 10, n: 0 },
    ];
    expect(sortAxisValues(['b', 'a', 'c10', 'c9'], cells, 'alpha_asc', 'x', 'n')).toEqual(['a', 'b', 'c9', 'c10']);
    expect(sortAxisValues([10, 9], cells, 'alpha_desc', 'y', 'n')).toEqual([10, 9]);
    // 'b' sums to 3, 'a' to 5: metric descending puts 'a' first.
    expect(sortAxisValues(['b', 'a'], cells, 'value_desc', 'x', 'n')).toEqual(['a', 'b']);
    expect(sortAxisValues(['b', 'a'], cells, 'value_asc', 'x', 'n')).toEqual(['b', 'a']);
    const out = heatmap.transformProps(input({ sort_x_axis: 'value_desc', sort_y_axis: 'alpha_desc' }));
    expect(out.option.xAxis.data).toEqual(['CA', 'NY']); // CA 30, NY 30: a tie keeps the answer's order
    expect(out.option.yAxis.data).toEqual(['girl', 'boy']);
    expect(heatmap.transformProps(input({ sort_x_axis: 'alpha_desc' })).option.xAxis.data).toEqual(['NY', 'CA']);
  });

  it('orders the query by an axis sorted by its values (so the row limit keeps its first), never by one sorted by the metric', () => {
    const q = (extra: object) => heatmap.buildQuery({ viz_type: 'heatmap_v2', datasource: '1__table', x_axis: 'state', groupby: ['gender'], metric: 'sum__num', ...extra } as any).queries[0]!;
    expect(q({ sort_x_axis: 'alpha_desc', sort_y_axis: 'alpha_asc' }).orderby).toEqual([[expect.objectContaining({ label: 'state' }), false], ['gender', true]]);
    expect(q({ sort_x_axis: 'value_asc', sort_y_axis: 'value_desc' }).orderby).toEqual([]);
  });

  it("'Show percentage' adds the cell's share of its column, row or the heatmap to the tooltip, as 'Normalize Across' says", () => {
    expect(heatmap.transformProps(input()).option.tooltip.formatter({ value: [0, 1, 20] })).toBe('CA · girl<br/>n: 20 · 33.33% (heatmap)');
    expect(heatmap.transformProps(input({ normalize_across: 'x' })).option.tooltip.formatter({ value: [0, 1, 20] })).toBe('CA · girl<br/>n: 20 · 66.67% (CA)');
    expect(heatmap.transformProps(input({ normalize_across: 'y' })).option.tooltip.formatter({ value: [0, 0, 10] })).toBe('CA · boy<br/>n: 10 · 25.00% (boy)');
  });

  it("'Value bounds' fix the colour scale's ends; 'Legend' off hides it and gives its room back; 'Piecewise' draws pieces", () => {
    expect(heatmap.transformProps(input({ value_bounds: [0, null] })).option.visualMap).toMatchObject({ min: 0, max: 30 });
    expect(heatmap.transformProps(input({ value_bounds: [null, 100] })).option.visualMap).toMatchObject({ min: 10, max: 100 });
    const hidden = heatmap.transformProps(input({ show_legend: false })).option;
    expect(hidden.visualMap.show).toBe(false);
    expect(hidden.grid.right).toBeLessThan(heatmap.transformProps(input()).option.grid.right);
    const pieces = heatmap.transformProps(input({ legend_type: 'piecewise' })).option.visualMap;
    expect(pieces.type).toBe('piecewise');
    expect(pieces.formatter(10, 20)).toBe('10 - 20');
  });

  it("'Left/Bottom Margin' in pixels ('auto' keeps the usual), 'XScale/YScale Interval' shows every n-th label (-1 automatic)", () => {
    expect([marginPixels('auto'), marginPixels(150), marginPixels('75'), marginPixels('')]).toEqual([undefined, 150, 75, undefined]);
    const out = heatmap.transformProps(input({ left_margin: 100, bottom_margin: '75', xscale_interval: 2, yscale_interval: -1 })).option;
    expect([out.grid.left, out.grid.bottom]).toEqual([100, 75]);
    expect(out.xAxis.axisLabel.interval).toBe(1);
    expect(out.yAxis.axisLabel.interval).toBe('auto');
    expect([scaleInterval(1), scaleInterval(-1), scaleInterval(undefined)]).toEqual([0, 'auto', 'auto']);
  });
});
