import { describe, expect, it } from 'vitest';
import { describeFilters, drillByFormData, drillFilters, grainEnd } from './drill';

describe('drilling from a data point', () => {
  it('widens a time point to its whole time grain period', () => {
    const start = Date.UTC(2001, 0, 1);
    expect(new Date(grainEnd(start, 'P1Y')).toISOString()).toBe('2002-01-01T00:00:00.000Z');
    expect(new Date(grainEnd(Date.UTC(2001, 0, 1), 'P1M')).toISOString()).toBe('2001-02-01T00:00:00.000Z');
    const filters = drillFilters([{ col: 'ds', op: 'TEMPORAL_RANGE', val: start }, { col: 'gender', op: '==', val: 'boy' }], { viz_type: 'echarts_timeseries_bar', time_grain_sqla: 'P1Y' });
    expect(filters).toEqual([
      { col: 'ds', op: 'TEMPORAL_RANGE', val: '2001-01-01T00:00:00 : 2002-01-01T00:00:00' },
      { col: 'gender', op: '==', val: 'boy' },
    ]);
    expect(describeFilters(filters)).toBe('ds: 2001-01-01T00:00:00 ≤ x < 2002-01-01T00:00:00, gender = boy');
  });

  it('drills by another column: the point becomes a filter and the dimension is replaced', () => {
    const fd = drillByFormData({ viz_type: 'echarts_timeseries_bar', x_axis: 'state', metrics: ['sum__num'], adhoc_filters: [] }, [{ col: 'state', op: '==', val: 'CA' }], 'gender');
    expect(fd.x_axis).toBe('gender');
    expect(fd.adhoc_filters).toEqual([{ expressionType: 'SIMPLE', clause: 'WHERE', subject: 'state', operator: '==', comparator: 'CA' }]);
    expect(drillByFormData({ viz_type: 'pie', groupby: ['gender'] }, [], 'state').groupby).toEqual(['state']);
  });
});
