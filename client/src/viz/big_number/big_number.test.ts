import { describe, expect, it } from 'vitest';
import bigNumber from './index';
import bigNumberTotal from '../big_number_total/index';

const base = { datasource: '3__table', metric: 'sum__num', y_axis_format: ',d' };

describe('big number chart types', () => {
  it('big_number_total formats the one value', () => {
    const q = bigNumberTotal.buildQuery({ ...base, viz_type: 'big_number_total' }).queries[0]!;
    expect(q.columns).toEqual([]);
    expect(q.metrics).toEqual(['sum__num']);
    const out = bigNumberTotal.transformProps({ formData: { ...base, viz_type: 'big_number_total', subheader: 'births' }, queriesData: [{ data: [{ sum__num: 1234567 }] } as any], datasource: null, theme: 'light', width: 300, height: 200 });
    expect(out.bigNumber).toBe('1,234,567');
    expect(out.subheader).toBe('births');
  });

  it('big_number shows the latest period, its change against compare_lag periods back, and a trendline', () => {
    const fd = { ...base, viz_type: 'big_number', x_axis: 'ds', time_grain_sqla: 'P1Y', compare_lag: 1, compare_suffix: 'YoY' };
    const q = bigNumber.buildQuery(fd).queries[0] as any;
    expect(q.columns[0]).toMatchObject({ label: 'ds', columnType: 'BASE_AXIS', timeGrain: 'P1Y' });
    const data = [
      { ds: Date.UTC(2001, 0, 1), sum__num: 200 },
      { ds: Date.UTC(2000, 0, 1), sum__num: 100 },
    ];
    const out = bigNumber.transformProps({ formData: fd, queriesData: [{ data, colnames: ['ds', 'sum__num'] } as any], datasource: null, theme: 'dark', width: 300, height: 200 });
    expect(out.bigNumber).toBe('200');
    expect(out.comparison).toEqual({ text: '+100.0% YoY', positive: true });
    expect(out.trendline!.series[0].data).toEqual([[Date.UTC(2000, 0, 1), 100], [Date.UTC(2001, 0, 1), 200]]);
  });

  it("currency_format puts the currency's symbol on the number (Superset's CurrencyFormatter), not on the change", () => {
    const input = (fd: Record<string, unknown>, data: unknown[], colnames?: string[]) => ({ formData: { ...base, ...fd } as any, queriesData: [{ data, colnames } as any], datasource: null, theme: 'light' as const, width: 300, height: 200 });
    const total = bigNumberTotal.transformProps(input({ viz_type: 'big_number_total', y_axis_format: ',.2f', currency_format: { symbol: 'USD', symbolPosition: 'prefix' } }, [{ sum__num: 1234.5 }]));
    expect(total.bigNumber).toBe('$ 1,234.50');
    const suffix = bigNumberTotal.transformProps(input({ viz_type: 'big_number_total', y_axis_format: ',.2f', currency_format: { symbol: 'EUR', symbolPosition: 'suffix' } }, [{ sum__num: 1234.5 }]));
    expect(suffix.bigNumber).toBe('1,234.50 €');
    // Unset (Superset stores nothing, or an empty object once cleared): the number format alone.
    expect(bigNumberTotal.transformProps(input({ viz_type: 'big_number_total', currency_format: {} }, [{ sum__num: 1234.5 }])).bigNumber).toBe('1,235');

    const fd = { viz_type: 'big_number', x_axis: 'ds', compare_lag: 1, compare_suffix: 'YoY', currency_format: { symbol: 'GBP', symbolPosition: 'prefix' } };
    const out = bigNumber.transformProps(input(fd, [{ ds: Date.UTC(2000, 0, 1), sum__num: 100 }, { ds: Date.UTC(2001, 0, 1), sum__num: 200 }], ['ds', 'sum__num']));
    expect(out.bigNumber).toBe('£ 200');
    expect(out.comparison!.text).toBe('+100.0% YoY');
    expect(out.trendline!.tooltip.formatter([{ value: [Date.UTC(2001, 0, 1), 200] }])).toBe('2001: £ 200');
  });

  it('both big numbers offer the Currency format control next to the number format', () => {
    for (const plugin of [bigNumber, bigNumberTotal]) {
      const names = plugin.controlPanel.sections.flatMap((s) => s.controlSetRows.flat()).map((c) => (typeof c === 'string' ? c : c.name));
      expect(names.indexOf('currency_format')).toBe(names.indexOf('y_axis_format') + 1);
    }
  });
});

describe("big numbers: Superset's 'Force date format', 'Show Timestamp', 'Fix to selected Time Range' and conditional formatting", () => {
  const input = (fd: Record<string, unknown>, answer: Record<string, unknown>) => ({ formData: { ...base, ...fd } as any, queriesData: [answer as any], datasource: null, theme: 'light' as const, width: 300, height: 200 });
  const yearly = { colnames: ['ds', 'sum__num'], data: [{ ds: Date.UTC(2000, 0, 1), sum__num: 100 }, { ds: Date.UTC(2001, 0, 1), sum__num: 200 }] };

  it("'Force date format' reads the number as a time in the 'Date format' (time_format); a temporal metric reads so unforced", () => {
    const t = Date.UTC(2020, 4, 17);
    const forced = bigNumberTotal.transformProps(input({ viz_type: 'big_number_total', force_timestamp_formatting: true, time_format: '%Y-%m-%d' }, { data: [{ sum__num: t }], colnames: ['sum__num'], coltypes: [0] }));
    expect(forced.bigNumber).toBe('2020-05-17');
    const temporal = bigNumberTotal.transformProps(input({ viz_type: 'big_number_total', time_format: '%d/%m/%Y' }, { data: [{ sum__num: t }], colnames: ['sum__num'], coltypes: [2] }));
    expect(temporal.bigNumber).toBe('17/05/2020');
    // Unforced, a number stays a number.
    expect(bigNumberTotal.transformProps(input({ viz_type: 'big_number_total', time_format: '%Y' }, { data: [{ sum__num: 1234 }], colnames: ['sum__num'], coltypes: [0] })).bigNumber).toBe('1,234');
  });

  it("'Show Timestamp' (off by default) gives the latest period's time in the 'Date format'", () => {
    expect(bigNumber.transformProps(input({ viz_type: 'big_number', x_axis: 'ds' }, yearly)).timestamp).toBeNull();
    expect(bigNumber.transformProps(input({ viz_type: 'big_number', x_axis: 'ds', show_timestamp: true, time_format: '%Y' }, yearly)).timestamp).toBe('2001');
    // The trendline's tooltip reads the same format.
    expect(bigNumber.transformProps(input({ viz_type: 'big_number', x_axis: 'ds', time_format: '%Y-%m' }, yearly)).trendline!.tooltip.formatter([{ value: [Date.UTC(2001, 0, 1), 200] }])).toBe('2001-01: 200');
  });

  it("'Fix to selected Time Range' spans the trendline over the range asked for, only when a range is chosen", () => {
    const answer = { ...yearly, from_dttm: Date.UTC(1990, 0, 1), to_dttm: Date.UTC(2010, 0, 1) };
    const fixed = bigNumber.transformProps(input({ viz_type: 'big_number', x_axis: 'ds', time_range_fixed: true, time_range: '1990 : 2010' }, answer));
    expect([fixed.trendline!.xAxis.min, fixed.trendline!.xAxis.max]).toEqual([Date.UTC(1990, 0, 1), Date.UTC(2010, 0, 1)]);
    const noRange = bigNumber.transformProps(input({ viz_type: 'big_number', x_axis: 'ds', time_range_fixed: true, time_range: 'No filter' }, answer));
    expect(noRange.trendline!.xAxis.min).toBeUndefined();
    const control = bigNumber.controlPanel.sections.flatMap((s) => s.controlSetRows.flat()).find((c) => typeof c !== 'string' && c.name === 'time_range_fixed') as any;
    expect([control.visibility({ formData: { time_range: 'No filter' } }), control.visibility({ formData: { time_range: 'Last week' } })]).toEqual([false, true]);
  });

  it('big_number_total colours the number by the first conditional formatting rule its value meets', () => {
    const rules = [{ column: 'sum__num', operator: '<', targetValue: 100, colorScheme: '#E04355' }, { column: 'sum__num', operator: '≥', targetValue: 100, colorScheme: '#5AC189' }];
    const at = (v: number) => bigNumberTotal.transformProps(input({ viz_type: 'big_number_total', conditional_formatting: rules }, { data: [{ sum__num: v }], colnames: ['sum__num'], coltypes: [0] })).color;
    expect([at(50), at(150)]).toEqual(['#E04355', '#5AC189']);
    expect(bigNumberTotal.transformProps(input({ viz_type: 'big_number_total' }, { data: [{ sum__num: 5 }] })).color).toBeNull();
  });
});

describe("big_number: 'Fixed Color' (color_picker)", () => {
  it("draws the trendline in the stored {r, g, b} (alpha dropped, as Superset's rgb mainColor), Superset's primary by default", () => {
    const answer = { colnames: ['ds', 'sum__num'], data: [{ ds: Date.UTC(2000, 0, 1), sum__num: 1 }, { ds: Date.UTC(2001, 0, 1), sum__num: 2 }] };
    const run = (fd: Record<string, unknown>) => bigNumber.transformProps({ formData: { ...base, viz_type: 'big_number', x_axis: 'ds', ...fd } as any, queriesData: [answer as any], datasource: null, theme: 'light', width: 300, height: 200 }).trendline!.series[0];
    expect(run({ color_picker: { r: 200, g: 10, b: 20, a: 0.3 } }).lineStyle.color).toBe('rgba(200, 10, 20, 1)');
    expect(run({}).lineStyle.color).toBe('rgba(31, 168, 201, 1)');
    const control = bigNumber.controlPanel.sections.flatMap((s) => s.controlSetRows.flat()).find((c) => typeof c !== 'string' && c.name === 'color_picker') as any;
    expect([control.type, control.default]).toEqual(['ColorPickerControl', { r: 31, g: 168, b: 201, a: 1 }]);
    // Not on the total, which has no line.
    expect(bigNumberTotal.controlPanel.sections.flatMap((s) => s.controlSetRows.flat()).some((c) => typeof c !== 'string' && c.name === 'color_picker')).toBe(false);
  });
});

describe("big_number: Superset's 'Advanced Analytics' (rolling window, resample)", () => {
  it('rolls the metric over the periods (here a cumulative sum) before the trendline and the number read it', async () => {
    const { applyPostProcessing } = await import('@meridian/contracts/chart-data/post-processing');
    const fd = { ...base, viz_type: 'big_number', x_axis: 'ds', time_grain_sqla: 'P1Y', rolling_type: 'cumsum' };
    const q = bigNumber.buildQuery(fd).queries[0] as any;
    expect(q.post_processing.map((op: any) => op.operation)).toEqual(['pivot', 'cum', 'flatten']);
    const rows = [1, 2, 3].map((n, i) => ({ ds: Date.UTC(2000 + i, 0, 1), sum__num: n }));
    const answer = applyPostProcessing(['ds', 'sum__num'], rows, q.post_processing);
    const out = bigNumber.transformProps({ formData: fd as any, queriesData: [{ data: answer.rows, colnames: answer.colnames } as any], datasource: null, theme: 'light', width: 300, height: 200 });
    expect(out.trendline!.series[0].data.map((p: number[]) => p[1])).toEqual([1, 3, 6]);
    expect(out.bigNumber).toBe('6');
  });

  it("adds nothing without a rolling function (Superset's default 'None') or a resample rule", () => {
    expect((bigNumber.buildQuery({ ...base, viz_type: 'big_number', x_axis: 'ds', rolling_type: 'None' }).queries[0] as any).post_processing ?? []).toEqual([]);
    const resampled = bigNumber.buildQuery({ ...base, viz_type: 'big_number', x_axis: 'ds', resample_rule: '1D', resample_method: 'zerofill' }).queries[0] as any;
    expect(resampled.post_processing.map((op: any) => op.operation)).toEqual(['pivot', 'resample', 'flatten']);
    const names = bigNumber.controlPanel.sections.find((s) => s.label === 'Advanced Analytics')!.controlSetRows.flat().map((c: any) => c.name);
    expect(names).toEqual(['rolling_type', 'rolling_periods', 'min_periods', 'resample_rule', 'resample_method']);
  });
});
