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
