import { describe, expect, it } from 'vitest';
import boxPlot from './index';
import { resolveControl } from '../shared/controls';

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

describe("box plot: Superset's 'X Tick Layout' and 'Date format'", () => {
  const rows = [{ year: Date.UTC(2014, 0, 1), SUM__min: 1, SUM__q1: 2, SUM__median: 3, SUM__q3: 4, SUM__max: 5, SUM__outliers: [] }];
  const draw = (extra: Record<string, unknown>) => boxPlot.transformProps({ formData: { viz_type: 'box_plot', groupby: ['year'], columns: ['x'], metrics: ['SUM'], ...extra }, queriesData: [{ data: rows, colnames: ['year'], coltypes: [2] } as any], datasource: null, theme: 'light', width: 600, height: 400 }).option;

  it('turns the labels as the layout says (45° and staggered -45°, 90° -90°, flat level), else as room allows', () => {
    expect(draw({ x_ticks_layout: '45°' }).xAxis.axisLabel.rotate).toBe(-45);
    expect(draw({ x_ticks_layout: '90°' }).xAxis.axisLabel.rotate).toBe(-90);
    expect(draw({ x_ticks_layout: 'flat' }).xAxis.axisLabel.rotate).toBe(0);
    expect(draw({ x_ticks_layout: 'auto' }).xAxis.axisLabel.rotate).toBe(0);
  });

  it("shows a time dimension's values in the date format", () => {
    expect(draw({ date_format: '%Y' }).xAxis.data).toEqual(['2014']);
  });
});

describe("box plot: 'Distribute across' on a new chart", () => {
  it("starts with the dataset's default time column, else its first temporal one (Superset's initialValue)", () => {
    const control = boxPlot.controlPanel.sections.flatMap((s) => s.controlSetRows.flat()).map(resolveControl).find((c) => c.name === 'columns')!;
    const datasource = (main: string | null) => ({ id: 1, type: 'table', name: 't', metrics: [], main_dttm_col: main, columns: [{ column_name: 'name' }, { column_name: 'year', is_dttm: true }] });
    expect(control.initialValue!({ formData: { viz_type: 'box_plot' }, datasource: datasource('ds') })).toEqual(['ds']);
    expect(control.initialValue!({ formData: { viz_type: 'box_plot' }, datasource: datasource(null) })).toEqual(['year']);
    expect(control.initialValue!({ formData: { viz_type: 'box_plot' }, datasource: null })).toBeUndefined();
  });
});
