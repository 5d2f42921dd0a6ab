import { describe, expect, it } from 'vitest';
import waterfall from './index';
import { tickLayoutRotate } from '../shared/label-room';
import { pickerColor, toPickerValue } from '../shared/colors';

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
    expect(out.tooltip.formatter([{ name: 'Q2', seriesName: 'Down', value: 30 }])).toBe('Q2<br/>Down: −30');
    expect(draw({ total_label: '' }).xAxis.data).toEqual(['Q1', 'Q2', 'Total']);
  });

  it("'Show total' off drops the total bar; 'Show legend' is off unless ticked (Superset's default)", () => {
    const out = draw({ show_total: false });
    expect(out.xAxis.data).toEqual(['Q1', 'Q2']);
    expect(out.series).toHaveLength(3);
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
