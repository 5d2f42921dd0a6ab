import { describe, expect, it } from 'vitest';
import funnel from './index';

describe('funnel chart type', () => {
  it('orders stages by the metric and labels them by the label type', () => {
    const fd = { viz_type: 'funnel', datasource: '1__table', groupby: ['stage'], metric: 'count', label_type: 'key_percent' };
    expect(funnel.buildQuery(fd).queries[0]!.orderby).toEqual([['count', false]]);
    const out = funnel.transformProps({ formData: fd, queriesData: [{ data: [{ stage: 'visit', count: 75 }, { stage: 'buy', count: 25 }] } as any], datasource: null, theme: 'light', width: 400, height: 300 });
    const series = out.option.series[0];
    expect(series.data.map((d: any) => d.value)).toEqual([75, 25]);
    expect(series.label.formatter({ name: 'buy', value: 25 })).toBe('buy: 25.0%');
    expect(out.groups).toEqual({ visit: ['visit'], buy: ['buy'] });
  });
});
