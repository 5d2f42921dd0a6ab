import { describe, expect, it } from 'vitest';
import waterfall from './index';
import { tickLayoutRotate } from '../shared/label-room';
import { pickerColor, toPickerValue } from '../shared/colors';

/** Each series' drawn values: assist, increase, decrease, total. */
const values = (out: { option: Record<string, any> }) => out.option.series.map((s: any) => s.data.map((d: any) => d.value));

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
    expect(out.option.xAxis.data).toEqual(['Q1', 'Q2', 'Q3', 'Total']);
    expect(values(out)).toEqual([
      [0, 70, 70, '-'],
      [100, '-', 50, '-'],
      ['-', 30, '-', '-'],
      ['-', '-', '-', 120],
    ]);
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
    expect(out.option.series[1].label.formatter({ data: out.option.series[1].data[0] })).toBe('£ 100');
    expect(out.option.series[2].label.formatter({ data: out.option.series[2].data[1] })).toBe('£ −30');
    expect(out.option.tooltip.formatter([{ name: 'Q2', seriesName: 'Decrease', data: out.option.series[2].data[1] }])).toBe('<b>Q2</b><br/>Decrease: £ −30<br/>Total: £ 70');
  });
});

describe("waterfall: Superset's series settings", () => {
  const draw = (extra: Record<string, unknown>) =>
    waterfall.transformProps({
      formData: { viz_type: 'waterfall', x_axis: 'quarter', metric: 'delta', ...extra },
      queriesData: [{ data: [{ quarter: 'Q1', delta: 100 }, { quarter: 'Q2', delta: -30 }], colnames: ['quarter', 'delta'], coltypes: [1, 0] } as any],
      datasource: null,
      theme: 'light',
      width: 400,
      height: 300,
    }).option;

  it("colours the series with the picked { r, g, b, a } colours, Superset's green, red and grey when none is picked", () => {
    const plain = draw({});
    expect(plain.series.slice(1).map((s: any) => s.itemStyle.color)).toEqual(['rgba(90, 193, 137, 1)', 'rgba(224, 67, 85, 1)', 'rgba(102, 102, 102, 1)']);
    const picked = draw({ increase_color: { r: 0, g: 0, b: 255, a: 0.5 }, decrease_color: { r: 255, g: 165, b: 0, a: 1 }, total_color: { r: 1, g: 2, b: 3, a: 1 } });
    expect(picked.series.slice(1).map((s: any) => s.itemStyle.color)).toEqual(['rgba(0, 0, 255, 0.5)', 'rgba(255, 165, 0, 1)', 'rgba(1, 2, 3, 1)']);
  });

  it("'Increase/Decrease/Total label' name the series in the legend and tooltip, the total also on the axis; empty reads as the default", () => {
    const out = draw({ increase_label: 'Up', decrease_label: 'Down', total_label: 'Net', show_legend: true });
    expect(out.legend.data).toEqual(['Up', 'Down', 'Net']);
    expect(out.xAxis.data).toEqual(['Q1', 'Q2', 'Net']);
    expect(out.tooltip.formatter([{ name: 'Q2', seriesName: 'Down', data: out.series[2].data[1] }])).toBe('<b>Q2</b><br/>Down: −30<br/>Net: 70');
    expect(out.tooltip.formatter([{ name: 'Net', seriesName: 'Net', data: out.series[3].data[2] }])).toBe('Net: 70');
    expect(draw({ total_label: '' }).xAxis.data).toEqual(['Q1', 'Q2', 'Total']);
  });

  it("'Show total' off drops the total bar; 'Show legend' is off unless ticked (Superset's default)", () => {
    const out = draw({ show_total: false });
    expect(out.xAxis.data).toEqual(['Q1', 'Q2']);
    expect(out.series[3].data.map((d: any) => d.value)).toEqual(['-', '-']);
    expect(out.legend.show).toBe(false);
    expect(draw({ show_legend: true }).legend.show).toBe(true);
  });

  it("'X/Y Axis Label' name the axes (an earlier x_axis_title still reads); 'X Tick Layout' turns the labels", () => {
    const out = draw({ x_axis_label: 'Quarter', y_axis_label: 'Change', x_ticks_layout: '45°' });
    expect([out.xAxis.name, out.yAxis.name, out.xAxis.axisLabel.rotate]).toEqual(['Quarter', 'Change', -45]);
    expect(draw({ x_axis_title: 'Old' }).xAxis.name).toBe('Old');
    expect([tickLayoutRotate('auto'), tickLayoutRotate('flat'), tickLayoutRotate('90°'), tickLayoutRotate('staggered')]).toEqual([undefined, 0, -90, -45]);
  });

  it('reads and writes picker colours as Superset stores them', () => {
    expect(pickerColor({ r: 90, g: 193, b: 137, a: 1 }, '#000')).toBe('rgba(90, 193, 137, 1)');
    expect(pickerColor({ hex: '#fff' }, '#000')).toBe('#000');
    expect(pickerColor('#abcdef', '#000')).toBe('#abcdef');
    expect(toPickerValue('rgba(1, 2, 3, 0.4)')).toEqual({ r: 1, g: 2, b: 3, a: 0.4 });
    expect(toPickerValue('#5ac189')).toEqual({ r: 90, g: 193, b: 137, a: 1 });
    expect(toPickerValue('nonsense')).toBeNull();
  });
});

describe("waterfall: 'Breakdowns'", () => {
  const rows = [
    { year: '2019', name: 'Sylvester', sum: 10 },
    { year: '2019', name: 'Arnold', sum: 3 },
    { year: '2020', name: 'Sylvester', sum: -10 },
    { year: '2020', name: 'Arnold', sum: 5 },
  ];
  const draw = (extra: Record<string, unknown>, data: Record<string, unknown>[] = rows, coltypes = [1, 1, 0]) =>
    waterfall.transformProps({
      formData: { viz_type: 'waterfall', x_axis: 'year', metric: 'sum', ...extra },
      queriesData: [{ data, colnames: ['year', 'name', 'sum'], coltypes } as any],
      datasource: null,
      theme: 'light',
      width: 400,
      height: 300,
    });

  it("draws each x value's rows as steps named by their breakdown value, then the running total named by the x value", () => {
    const out = draw({ groupby: ['name'] });
    expect(out.option.xAxis.data).toEqual(['Sylvester', 'Arnold', '2019', 'Sylvester', 'Arnold', '2020']);
    // Superset's own expectation for these rows.
    expect(values(out)).toEqual([
      [0, 10, '-', 3, 3, '-'],
      [10, 3, '-', '-', 5, '-'],
      ['-', '-', '-', 10, '-', '-'],
      ['-', '-', 13, '-', '-', 8],
    ]);
    // The x value's total titles its tooltip (without breakdowns the grand total has no title).
    expect(out.option.tooltip.formatter([{ name: '2019', seriesName: 'Total', data: out.option.series[3].data[2] }])).toBe('<b>2019</b><br/>Total: 13');
  });

  it("reads the breakdown stored as one column or a list, and without 'Show total' draws no totals", () => {
    expect(draw({ groupby: 'name' }).option.xAxis.data).toEqual(draw({ groupby: ['name'] }).option.xAxis.data);
    const out = draw({ groupby: ['name'], show_total: false });
    expect(out.option.xAxis.data).toEqual(['Sylvester', 'Arnold', 'Sylvester', 'Arnold']);
    expect(values(out)[3]).toEqual(['-', '-', '-', '-']);
  });

  it('a click on a step filters on its breakdown value', () => {
    const out = draw({ groupby: ['name'] });
    expect(out.groupby).toEqual(['name']);
    expect(out.groups).toEqual({ Sylvester: ['Sylvester'], Arnold: ['Arnold'] });
  });

  it("writes temporal breakdown values in the 'Time format', missing ones as <NULL>", () => {
    const out = draw({ groupby: ['name'], x_axis_time_format: '%Y-%m' }, [
      { year: 'a', name: Date.UTC(2020, 1, 1), sum: 1 },
      { year: 'a', name: null, sum: 2 },
    ], [1, 2, 0]);
    expect(out.option.xAxis.data).toEqual(['2020-02', '<NULL>', 'a']);
  });
});

describe('waterfall: the running total across zero', () => {
  const draw = (deltas: number[]) =>
    waterfall.transformProps({
      formData: { viz_type: 'waterfall', x_axis: 'step', metric: 'delta' },
      queriesData: [{ data: deltas.map((delta, i) => ({ step: `S${i}`, delta })), colnames: ['step', 'delta'], coltypes: [1, 0] } as any],
      datasource: null,
      theme: 'light',
      width: 400,
      height: 300,
    }).option;

  it('draws below zero with negative stacks, and a step across zero in two parts, both in its colour', () => {
    // 50, then −80 (to −30), −20 (to −50), +20 (to −30), +40 (to 10).
    const out = draw([50, -80, -20, 20, 40]);
    expect(out.series.map((s: any) => s.data.map((d: any) => d.value))).toEqual([
      [0, 50, -30, -30, -30, '-'],
      [50, '-', '-', -20, 10, '-'],
      ['-', -30, -20, '-', '-', '-'],
      ['-', '-', '-', '-', '-', 10],
    ]);
    // The assist's part of a step across zero takes the step's colour; other assist parts stay unseen.
    expect(out.series[0].data[1].itemStyle.color).toBe('rgba(224, 67, 85, 1)');
    expect(out.series[0].data[4].itemStyle.color).toBe('rgba(90, 193, 137, 1)');
    expect(out.series[0].data[2].itemStyle).toBeUndefined();
    // Labels and tooltips show the step's own change, not the part drawn.
    expect(out.series[2].label.formatter({ data: out.series[2].data[1] })).toBe('−80');
    expect(out.tooltip.formatter([{ name: 'S4', seriesName: 'Increase', data: out.series[1].data[4] }])).toBe('<b>S4</b><br/>Increase: 40<br/>Total: 10');
  });
});

describe('waterfall: query', () => {
  it("orders the rows by the x-axis, then the breakdown, ascending (Superset's order, which the bars follow)", () => {
    const context = waterfall.buildQuery({ viz_type: 'waterfall', datasource: '1__table', x_axis: 'ds', time_grain_sqla: 'P1Y', groupby: ['gender'], metric: 'sum__num' });
    expect(context.queries[0]!.orderby).toEqual([['ds', true], ['gender', true]]);
    expect(waterfall.buildQuery({ viz_type: 'waterfall', datasource: '1__table', x_axis: 'ds', metric: 'sum__num' }).queries[0]!.orderby).toEqual([['ds', true]]);
    const adhoc = { expressionType: 'SQL', sqlExpression: 'DATE(ds)', label: 'day' };
    expect(waterfall.buildQuery({ viz_type: 'waterfall', datasource: '1__table', x_axis: adhoc, groupby: 'gender', metric: 'sum__num' }).queries[0]!.orderby).toEqual([['day', true], ['gender', true]]);
  });
});
