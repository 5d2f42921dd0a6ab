import { describe, expect, it } from 'vitest';
import boxPlot from './index';

describe('box plot chart type', () => {
  it('queries every (group, distribute-across) row and asks the server for the boxplot statistics', () => {
    const q = boxPlot.buildQuery({ viz_type: 'box_plot', datasource: '1__table', groupby: ['gender'], columns: ['state'], metrics: ['sum__num'], whiskerOptions: '2/98 percentiles' }).queries[0] as any;
    expect(q.columns).toEqual(['gender', 'state']);
    expect(q.post_processing).toEqual([{ operation: 'boxplot', options: { groupby: ['gender'], metrics: ['sum__num'], whisker_type: 'percentile', percentiles: [2, 98] } }]);
  });

  it('draws a box per group from the statistics, with outliers as points', () => {
    const row = { gender: 'boy', sum__num__min: 1, sum__num__q1: 2, sum__num__median: 3, sum__num__q3: 4, sum__num__max: 5, sum__num__outliers: [9] };
    const out = boxPlot.transformProps({ formData: { viz_type: 'box_plot', groupby: ['gender'], metrics: ['sum__num'] }, queriesData: [{ data: [row] } as any], datasource: null, theme: 'light', width: 400, height: 300 });
    expect(out.option.series[0].data).toEqual([[1, 2, 3, 4, 5]]);
    expect(out.option.series[1].data).toEqual([['boy', 9]]);
  });

  it('names every box: no label is skipped, and crowded ones turn', () => {
    const regions = ['East Asia & Pacific', 'Europe & Central Asia', 'Latin America & Caribbean', 'Middle East & North Africa', 'North America', 'South Asia', 'Sub-Saharan Africa'];
    const rows = regions.map((region) => ({ region, sum__num__min: 1, sum__num__q1: 2, sum__num__median: 3, sum__num__q3: 4, sum__num__max: 5, sum__num__outliers: [] }));
    const draw = (width: number) => boxPlot.transformProps({ formData: { viz_type: 'box_plot', groupby: ['region'], metrics: ['sum__num'] }, queriesData: [{ data: rows } as any], datasource: null, theme: 'light', width, height: 300 }).option.xAxis.axisLabel;
    expect(draw(600)).toMatchObject({ interval: 0, rotate: 45 });
    expect(draw(3000)).toMatchObject({ interval: 0, rotate: 0 });
  });
});
