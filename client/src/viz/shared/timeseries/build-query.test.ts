import { describe, expect, it } from 'vitest';
import { buildTimeseriesQuery } from './build-query';

describe('buildTimeseriesQuery', () => {
  it('orders by the series limit metric, else the first metric, descending unless order_desc is off (normalizeOrderBy)', () => {
    const order = (fd: Record<string, unknown>) => (buildTimeseriesQuery({ viz_type: 'echarts_timeseries_bar', datasource: '1__table', x_axis: 'state', row_limit: 10, ...fd }).queries[0] as any).orderby;
    expect(order({ metrics: ['sum__num', 'count'] })).toEqual([['sum__num', false]]);
    expect(order({ metrics: ['sum__num'], timeseries_limit_metric: 'count', order_desc: false })).toEqual([['count', true]]);
    expect(order({ metrics: [] })).toEqual([]);
  });
});

describe('advanced analytics (Superset rollingWindowOperator, timeCompareOperator, resampleOperator)', () => {
  const base = { viz_type: 'echarts_timeseries_line', datasource: '1__table', x_axis: 'ds', metrics: ['sum__num'], groupby: ['gender'] };
  const query = (fd: Record<string, unknown>) => buildTimeseriesQuery({ ...base, ...fd }).queries[0] as { post_processing: Array<{ operation: string; options?: any }>; time_offsets: string[] };
  const op = (fd: Record<string, unknown>, name: string) => query(fd).post_processing.find((o) => o.operation === name);

  it('sends no post-processing and no time shifts without analytics; time shifts alone need a comparison type', () => {
    expect(query({}).post_processing).toEqual([]);
    expect(query({ time_compare: ['1 year ago'], comparison_type: null }).time_offsets).toEqual([]);
  });

  it('a rolling mean pivots by the x-axis and groups, then rolls every column with integer periods', () => {
    const q = query({ rolling_type: 'mean', rolling_periods: '7', min_periods: '2' });
    expect(q.post_processing.map((o) => o.operation)).toEqual(['pivot', 'rolling', 'flatten']);
    expect(q.post_processing[0]!.options).toEqual({ index: ['ds'], columns: ['gender'], aggregates: { sum__num: { operator: 'mean' } }, drop_missing_columns: true });
    expect(q.post_processing[1]!.options).toEqual({ rolling_type: 'mean', window: 7, min_periods: 2, columns: { sum__num: 'sum__num' }, is_pivot_df: true });
    // Empty periods fall back as Superset's ensureIsInt does: a window of 1, no min periods.
    expect(op({ rolling_type: 'sum', rolling_periods: '' }, 'rolling')!.options).toMatchObject({ window: 1, min_periods: 0 });
    expect(op({ rolling_type: 'cumsum' }, 'cum')!.options).toEqual({ operator: 'sum', columns: { sum__num: 'sum__num' }, is_pivot_df: true });
  });

  it('a time comparison queries the shifts; actual values keep them as series, other types compare and drop the originals', () => {
    const values = query({ time_compare: ['1 year ago', '1 week ago'], comparison_type: 'values' });
    expect(values.time_offsets).toEqual(['1 year ago', '1 week ago']);
    expect(Object.keys(values.post_processing[0]!.options.aggregates)).toEqual(['sum__num', 'sum__num__1 year ago', 'sum__num__1 week ago']);
    expect(values.post_processing.map((o) => o.operation)).toEqual(['pivot', 'flatten']);
    expect(op({ time_compare: ['1 year ago'], comparison_type: 'percentage' }, 'compare')!.options).toEqual({
      source_columns: ['sum__num'],
      compare_columns: ['sum__num__1 year ago'],
      compare_type: 'percentage',
      drop_original_columns: true,
    });
  });

  it('resamples with the chosen rule; zero imputation is asfreq filled with 0', () => {
    expect(op({ resample_rule: '1D', resample_method: 'zerofill' }, 'resample')!.options).toEqual({ method: 'asfreq', rule: '1D', fill_value: 0 });
    expect(op({ resample_rule: '7D', resample_method: 'ffill' }, 'resample')!.options).toEqual({ method: 'ffill', rule: '7D', fill_value: null });
    expect(op({ resample_method: 'ffill' }, 'resample')).toBeUndefined();
  });

  it("'Contribution Mode' pivots, then takes each value's share of its row's or its series' total (Superset's contributionOperator)", () => {
    expect(query({ contributionMode: 'row' }).post_processing.map((o) => o.operation)).toEqual(['pivot', 'contribution', 'flatten']);
    expect(op({ contributionMode: 'column' }, 'contribution')!.options).toEqual({ orientation: 'column' });
    // After a rolling window, and with time shifts drawn as values, the shifts' totals apart.
    const q = query({ contributionMode: 'row', rolling_type: 'cumsum', time_compare: ['1 year ago'], comparison_type: 'values' });
    expect(q.post_processing.map((o) => o.operation)).toEqual(['pivot', 'cum', 'contribution', 'flatten']);
    expect(q.post_processing[2]!.options).toEqual({ orientation: 'row', time_shifts: ['1 year ago'] });
    expect(query({ contributionMode: null }).post_processing).toEqual([]);
  });
});
