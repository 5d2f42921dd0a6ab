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
});
