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
