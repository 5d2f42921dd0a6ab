import { describe, expect, it } from 'vitest';
import funnel from './index';
import { widestLabel } from '../shared/label-room';
import { funnelLabel, funnelLabelType, funnelPercents } from './transform-props';

describe('funnel chart type', () => {
  it('orders stages by the metric and labels them by the label type', () => {
    const fd = { viz_type: 'funnel', datasource: '1__table', groupby: ['stage'], metric: 'count', label_type: 'key_percent', percent_calculation_type: 'total' };
    expect(funnel.buildQuery(fd).queries[0]!.orderby).toEqual([['count', false]]);
    const out = funnel.transformProps({ formData: fd, queriesData: [{ data: [{ stage: 'visit', count: 75 }, { stage: 'buy', count: 25 }] } as any], datasource: null, theme: 'light', width: 400, height: 300 });
    const series = out.option.series[0];
    expect(series.data.map((d: any) => d.value)).toEqual([75, 25]);
    expect(series.label.formatter({ name: 'buy', value: 25 })).toBe('buy: 25.00%');
    expect(out.groups).toEqual({ visit: ['visit'], buy: ['buy'] });
  });

  it("puts a label that does not fit its stage beside the funnel, and moves the funnel left for it", () => {
    const draw = (rows: Array<{ status: string; n: number }>, width: number) =>
      funnel.transformProps({ formData: { viz_type: 'funnel', groupby: ['status'], metric: 'n' }, queriesData: [{ data: rows } as any], datasource: null, theme: 'light', width, height: 300 }).option.series[0];
    // Stages of like size in a wide cell: every label inside, the funnel centred at 80%.
    const even = draw([{ status: 'Shipped', n: 100 }, { status: 'Resolved', n: 80 }, { status: 'On Hold', n: 60 }], 800);
    expect([even.left, even.width]).toEqual([80, 640]);
    expect(even.data.every((d: any) => !d.label)).toBe(true);
    // The sales dashboard's order status in a 315px cell: 'Shipped' fills its stage, the slivers' labels go beside.
    const sales = draw([{ status: 'Shipped', n: 300 }, { status: 'Resolved', n: 4 }, { status: 'In Process', n: 6 }], 315);
    expect([sales.left, sales.width]).toEqual([315 * 0.05, 315 * 0.6]);
    expect(sales.data.map((d: any) => [d.name, d.label?.position ?? 'inside'])).toEqual([['Shipped', 'inside'], ['Resolved', 'right'], ['In Process', 'right']]);
    expect(sales.data[1].label).toMatchObject({ color: '#212529', overflow: 'truncate', width: 94 });
  });
});

describe("funnel: 'Currency format'", () => {
  it('puts the symbol on the values of the labels and the tooltip', () => {
    const fd = { viz_type: 'funnel', groupby: ['stage'], metric: 'revenue', label_type: 'key_value', number_format: ',d', currency_format: { symbol: 'EUR', symbolPosition: 'suffix' } };
    const out = funnel.transformProps({ formData: fd, queriesData: [{ data: [{ stage: 'visit', revenue: 7500 }, { stage: 'buy', revenue: 2500 }] } as any], datasource: null, theme: 'light', width: 800, height: 300 });
    expect(out.option.series[0].label.formatter({ name: 'buy', value: 2500 })).toBe('buy: 2,500 €');
    expect(out.option.tooltip.formatter({ name: 'buy', value: 2500 })).toBe('buy: 2,500 € (33.33%)');
  });
});

describe("funnel: Superset's '% calculation', label and tooltip contents", () => {
  const rows = [{ stage: 'visit', n: 200 }, { stage: 'cart', n: 100 }, { stage: 'buy', n: 50 }];
  const draw = (extra: Record<string, unknown>) => funnel.transformProps({ formData: { viz_type: 'funnel', groupby: ['stage'], metric: 'n', ...extra }, queriesData: [{ data: rows } as any], datasource: null, theme: 'light', width: 800, height: 300 }).option;

  it('reckons percentages from the first step by default, from the previous step, or of the total', () => {
    expect(funnelPercents([200, 100, 50], 'first_step')).toEqual([1, 0.5, 0.25]);
    expect(funnelPercents([200, 100, 50], 'prev_step')).toEqual([1, 0.5, 0.5]);
    expect(funnelPercents([200, 100, 50], 'total')).toEqual([200 / 350, 100 / 350, 50 / 350]);
    expect(draw({ label_type: 2 }).series[0].label.formatter({ name: 'buy', value: 50 })).toBe('25.00%');
    expect(draw({ label_type: 2, percent_calculation_type: 'prev_step' }).series[0].label.formatter({ name: 'buy', value: 50 })).toBe('50.00%');
  });

  it("reads Superset's numbered label types (and the names an earlier Meridian stored)", () => {
    expect([funnelLabelType(4, 0), funnelLabelType('key_value', 0), funnelLabelType('6', 0), funnelLabelType(undefined, 5), funnelLabelType(9, 0)]).toEqual([4, 3, 6, 5, 0]);
    expect([0, 1, 2, 3, 4, 5, 6].map((t) => funnelLabel(t, 'buy', '50', '25.00%'))).toEqual(['buy', '50', '25.00%', 'buy: 50', 'buy: 25.00%', 'buy: 50 (25.00%)', '50 (25.00%)']);
    expect(draw({ label_type: 6 }).series[0].label.formatter({ name: 'cart', value: 100 })).toBe('100 (50.00%)');
  });

  it("'Tooltip Contents' shapes the tooltip (category, value and percentage unless set); 'Show Tooltip Labels' off hides it", () => {
    expect(draw({}).tooltip.formatter({ name: 'cart', value: 100 })).toBe('cart: 100 (50.00%)');
    expect(draw({ tooltip_label_type: 1 }).tooltip.formatter({ name: 'cart', value: 100 })).toBe('100');
    expect(draw({ show_tooltip_labels: false }).tooltip.show).toBe(false);
  });
});

describe('funnel: a label that fits its stage', () => {
  it("is measured at the stage's middle, where it has narrowed halfway to the next stage (the last narrows to a point)", () => {
    const draw = (rows: Array<{ s: string; n: number }>) =>
      funnel.transformProps({ formData: { viz_type: 'funnel', groupby: ['s'], metric: 'n', label_type: 5 }, queriesData: [{ data: rows } as any], datasource: null, theme: 'light', width: 400, height: 300 }).option.series[0];
    // 'other: 100 (100.00%)' is about 158 px with its margin: within the first stage's 240 px top, not its 132 px middle.
    const series = draw([{ s: 'other', n: 100 }, { s: 'b', n: 10 }]);
    expect(series.data[0].label?.position).toBe('right');
  });
});

describe("funnel: Superset's legend options", () => {
  const rows = [{ stage: 'visit', count: 75 }, { stage: 'buy', count: 25 }];
  const draw = (extra: Record<string, unknown>) =>
    funnel.transformProps({ formData: { viz_type: 'funnel', groupby: ['stage'], metric: 'count', ...extra }, queriesData: [{ data: rows } as any], datasource: null, theme: 'light', width: 600, height: 300 }).option;

  it("'Orientation' puts the legend at a side and the funnel in the room it leaves; 'Margin' adds to that room", () => {
    const top = draw({});
    expect([top.legend.top, top.legend.orient, top.series[0].top]).toEqual([0, 'horizontal', 40]);
    const left = draw({ legendOrientation: 'left' });
    expect([left.legend.left, left.legend.orient]).toEqual([0, 'vertical']);
    // The legend's column: the widest name's estimated width and the marker's room; the funnel 10% into what is left.
    const column = widestLabel(['visit', 'buy']) + 48;
    expect([left.series[0].left, left.series[0].width]).toEqual([column + (600 - column) * 0.1, (600 - column) * 0.8]);
    const bottom = draw({ legendOrientation: 'bottom', legendMargin: 20 });
    expect([bottom.legend.bottom, bottom.series[0].bottom, bottom.series[0].top]).toEqual([0, 60, 10]);
  });

  it("'Show legend' off hides it and gives its room back; a stored 'Type' reads", () => {
    const off = draw({ show_legend: false, legendOrientation: 'left' });
    expect([off.legend.show, off.series[0].top, off.series[0].left]).toEqual([false, 10, 60]);
    expect(draw({ legendType: 'plain' }).legend.type).toBe('plain');
    expect(draw({}).legend.type).toBe('scroll');
  });

  it('places the legend controls as Superset does: after the colour scheme, no legend type', () => {
    const rows = funnel.controlPanel.sections.find((s) => s.label === 'Chart options')!.controlSetRows.map((r) => r.map((c) => (typeof c === 'string' ? c : c.name)));
    expect(rows.slice(0, 4)).toEqual([['color_scheme'], ['show_legend'], ['legendOrientation'], ['legendMargin']]);
    expect(rows.flat()).not.toContain('legendType');
  });
});
