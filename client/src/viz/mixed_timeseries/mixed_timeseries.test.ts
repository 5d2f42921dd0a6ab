import { describe, expect, it } from 'vitest';
import mixed from './index';

describe('mixed chart type', () => {
  const fd = { viz_type: 'mixed_timeseries', datasource: '1__table', x_axis: 'ds', time_grain_sqla: 'P1Y', metrics: ['boys'], groupby: [], metrics_b: ['girls'], groupby_b: [], adhoc_filters: [], adhoc_filters_b: [{ expressionType: 'SQL', clause: 'WHERE', sqlExpression: 'num > 0' }], seriesType: 'line', seriesTypeB: 'bar', yAxisIndexB: 1 };

  it('sends two queries on one x-axis, each with its own metrics and filters', () => {
    const [a, b] = mixed.buildQuery(fd).queries as any[];
    expect(a.metrics).toEqual(['boys']);
    expect(b.metrics).toEqual(['girls']);
    expect(b.adhoc_filters).toHaveLength(1);
    expect(a.columns[0]).toMatchObject({ label: 'ds', timeGrain: 'P1Y' });
  });

  it('draws A as lines and B as bars on the secondary axis', () => {
    const t0 = Date.UTC(2000, 0, 1);
    const out = mixed.transformProps({ formData: fd, queriesData: [{ data: [{ ds: t0, boys: 1 }], colnames: ['ds', 'boys'], coltypes: [2, 0] }, { data: [{ ds: t0, girls: 2 }], colnames: ['ds', 'girls'], coltypes: [2, 0] }] as any, datasource: null, theme: 'light', width: 400, height: 300 });
    expect(out.option.series.map((s: any) => [s.name, s.type, s.yAxisIndex])).toEqual([['boys', 'line', 0], ['girls', 'bar', 1]]);
    expect(out.option.yAxis).toHaveLength(2);
  });
});
