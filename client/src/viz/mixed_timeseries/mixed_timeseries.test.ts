import { describe, expect, it } from 'vitest';
import mixed from './index';
import { withQueryIdentifier } from './transform-props';

/** The mixed chart's option drawn from form data and its two answers. */
const drawMixed = (formData: Record<string, unknown>, queriesData: unknown[]) => mixed.transformProps({ formData: formData as any, queriesData: queriesData as any, datasource: null, theme: 'light', width: 400, height: 300 }).option;

describe('mixed chart type', () => {
  const fd = { viz_type: 'mixed_timeseries', datasource: '1__table', x_axis: 'ds', time_grain_sqla: 'P1Y', metrics: ['boys'], groupby: [], metrics_b: ['girls'], groupby_b: [], adhoc_filters: [], adhoc_filters_b: [{ expressionType: 'SQL', clause: 'WHERE', sqlExpression: 'num > 0' }], seriesType: 'line', seriesTypeB: 'bar', yAxisIndexB: 1 };
  const t0 = Date.UTC(2000, 0, 1);

  it('sends two queries on one x-axis, each with its own metrics and filters', () => {
    const [a, b] = mixed.buildQuery(fd).queries as any[];
    expect(a.metrics).toEqual(['boys']);
    expect(b.metrics).toEqual(['girls']);
    expect(b.adhoc_filters).toHaveLength(1);
    expect(a.columns[0]).toMatchObject({ label: 'ds', timeGrain: 'P1Y' });
  });

  it("each query has Superset's query section: series limit, its sort, and a row limit of its own (B's under `_b`)", () => {
    const section = (label: string) => mixed.controlPanel.sections.find((s) => s.label === label)!.controlSetRows.map((row) => (typeof row[0] === 'string' ? row[0] : (row[0] as { name: string }).name));
    expect(section('Query A')).toEqual(['metrics', 'groupby', 'adhoc_filters', 'limit', 'timeseries_limit_metric', 'order_desc', 'row_limit', 'truncate_metric']);
    expect(section('Query B')).toEqual(['metrics_b', 'groupby_b', 'adhoc_filters_b', 'limit_b', 'timeseries_limit_metric_b', 'order_desc_b', 'row_limit_b', 'truncate_metric_b']);
    const [a, b] = mixed.buildQuery({ ...fd, row_limit: 500, row_limit_b: 20, timeseries_limit_metric_b: 'girls', order_desc_b: false }).queries as any[];
    expect([a.row_limit, b.row_limit]).toEqual([500, 20]);
    expect(b.orderby).toEqual([['girls', true]]);
    // A chart saved before B had its own row limit keeps A's for both.
    expect((mixed.buildQuery({ ...fd, row_limit: 500 }).queries as any[]).map((q) => q.row_limit)).toEqual([500, 500]);
  });

  it('draws A as lines and B as bars on the secondary axis', () => {
    const out = mixed.transformProps({ formData: fd, queriesData: [{ data: [{ ds: t0, boys: 1 }], colnames: ['ds', 'boys'], coltypes: [2, 0] }, { data: [{ ds: t0, girls: 2 }], colnames: ['ds', 'girls'], coltypes: [2, 0] }] as any, datasource: null, theme: 'light', width: 400, height: 300 });
    expect(out.option.series.map((s: any) => [s.name, s.type, s.yAxisIndex])).toEqual([['boys', 'line', 0], ['girls', 'bar', 1]]);
    expect(out.option.yAxis).toHaveLength(2);
  });
});

describe("mixed chart: 'Advanced analytics Query A' and 'Query B' (Superset's createAdvancedAnalyticsSection, `_b` twins)", () => {
  const fd = { viz_type: 'mixed_timeseries', datasource: '1__table', x_axis: 'ds', time_grain_sqla: 'P1Y', metrics: ['boys'], groupby: [], metrics_b: ['girls'], groupby_b: [], seriesType: 'line', seriesTypeB: 'bar', yAxisIndexB: 1 };
  const t0 = Date.UTC(2000, 0, 1);
  const t1 = Date.UTC(2001, 0, 1);
  const queries = (patch: Record<string, unknown>) => mixed.buildQuery({ ...fd, ...patch }).queries as Array<{ post_processing: Array<{ operation: string; options?: any }>; time_offsets: string[]; metrics: string[] }>;

  it('has both sections, with the same controls, B under `_b` names whose periods show for B\'s rolling type', () => {
    const sections = mixed.controlPanel.sections.filter((s) => s.label.startsWith('Advanced analytics'));
    expect(sections.map((s) => s.label)).toEqual(['Advanced analytics Query A', 'Advanced analytics Query B']);
    const names = (i: number) => sections[i]!.controlSetRows.flat().map((c) => (typeof c === 'string' ? c : (c as { name: string }).name));
    expect(names(0)).toEqual(['rolling_type', 'rolling_periods', 'min_periods', 'time_compare', 'comparison_type', 'resample_rule', 'resample_method']);
    expect(names(1)).toEqual(names(0).map((n) => `${n}_b`));
    const periodsB = sections[1]!.controlSetRows.flat().find((c) => (c as { name: string }).name === 'rolling_periods_b') as { visibility: (ctx: any) => boolean };
    expect(periodsB.visibility({ formData: { rolling_type: 'mean' } })).toBe(false);
    expect(periodsB.visibility({ formData: { rolling_type_b: 'mean' } })).toBe(true);
  });

  it("A's rolling window rolls only query A; B's time shift and comparison shift only query B", () => {
    const [a, b] = queries({ rolling_type: 'mean', rolling_periods: '3', time_compare_b: ['1 year ago'], comparison_type_b: 'difference' });
    expect(a!.post_processing.map((o) => o.operation)).toEqual(['pivot', 'rolling', 'flatten']);
    expect(a!.post_processing[1]!.options).toMatchObject({ rolling_type: 'mean', window: 3, columns: { boys: 'boys' } });
    expect(a!.time_offsets).toEqual([]);
    expect(b!.time_offsets).toEqual(['1 year ago']);
    expect(b!.post_processing.map((o) => o.operation)).toEqual(['pivot', 'compare', 'flatten']);
    expect(b!.post_processing[1]!.options).toEqual({ source_columns: ['girls'], compare_columns: ['girls__1 year ago'], compare_type: 'difference', drop_original_columns: true });
  });

  it("B's cumulative sum and resample; neither query post-processes without analytics", () => {
    const [a, b] = queries({ rolling_type_b: 'cumsum', resample_rule_b: '1AS', resample_method_b: 'zerofill' });
    expect(a!.post_processing).toEqual([]);
    expect(b!.post_processing.map((o) => o.operation)).toEqual(['pivot', 'cum', 'resample', 'flatten']);
    expect(b!.post_processing[2]!.options).toEqual({ method: 'asfreq', rule: '1AS', fill_value: 0 });
    expect(queries({}).every((q) => q.post_processing.length === 0 && q.time_offsets.length === 0)).toBe(true);
  });

  it("draws B's pivoted answer: its shift as 'girls__1 year ago' bars on the secondary axis, A's plain lines", () => {
    const out = mixed.transformProps({
      formData: { ...fd, time_compare_b: ['1 year ago'], comparison_type_b: 'values' },
      queriesData: [
        { data: [{ ds: t0, boys: 1 }, { ds: t1, boys: 3 }], colnames: ['ds', 'boys'], coltypes: [2, 0] },
        { data: [{ ds: t0, girls: 2, 'girls__1 year ago': null }, { ds: t1, girls: 4, 'girls__1 year ago': 2 }], colnames: ['ds', 'girls', 'girls__1 year ago'], coltypes: [2, 0, 0] },
      ] as any,
      datasource: { verbose_map: { girls: 'Girls' } } as any,
      theme: 'light',
      width: 400,
      height: 300,
    });
    expect(out.option.series.map((s: any) => [s.name, s.type, s.yAxisIndex])).toEqual([['boys', 'line', 0], ['Girls', 'bar', 1], ['Girls__1 year ago', 'bar', 1]]);
    expect(out.option.series[2].data).toEqual([[t0, null], [t1, 2]]);
  });

  it("B's percentage comparison formats B's axis in percent, A's keeps its format", () => {
    const out = mixed.transformProps({
      formData: { ...fd, time_compare_b: ['1 year ago'], comparison_type_b: 'percentage', y_axis_format: ',d' },
      queriesData: [
        { data: [{ ds: t1, boys: 3 }], colnames: ['ds', 'boys'], coltypes: [2, 0] },
        { data: [{ ds: t1, 'percentage__girls__girls__1 year ago': 0.5 }], colnames: ['ds', 'percentage__girls__girls__1 year ago'], coltypes: [2, 0] },
      ] as any,
      datasource: null,
      theme: 'light',
      width: 400,
      height: 300,
    });
    expect(out.option.series.map((s: any) => s.name)).toEqual(['boys', 'percentage__girls__girls__1 year ago']);
    expect(out.option.yAxis[0].axisLabel.formatter(3000)).toBe('3,000');
    expect(out.option.yAxis[1].axisLabel.formatter(0.5)).toMatch(/50/);
  });
});

describe("mixed chart: each query's series options (Superset's createCustomizeSection, B's under `B` names)", () => {
  const fd = { viz_type: 'mixed_timeseries', datasource: '1__table', x_axis: 'ds', time_grain_sqla: 'P1Y', metrics: ['boys'], groupby: ['state'], metrics_b: ['girls'], groupby_b: ['state'], seriesType: 'line', seriesTypeB: 'bar', yAxisIndexB: 1 };
  const t0 = Date.UTC(2000, 0, 1);
  const t1 = Date.UTC(2001, 0, 1);
  const draw = (patch: Record<string, unknown>) =>
    drawMixed({ ...fd, ...patch }, [
      { data: [{ ds: t0, state: 'CA', boys: 1 }, { ds: t1, state: 'CA', boys: 3 }], colnames: ['ds', 'state', 'boys'], coltypes: [2, 1, 0] },
      { data: [{ ds: t0, state: 'NY', girls: 2 }, { ds: t1, state: 'NY', girls: 4 }], colnames: ['ds', 'state', 'girls'], coltypes: [2, 1, 0] },
    ]);

  it("offers Superset's series types, the three steps among them, with B's controls named as Superset stores them", () => {
    const names = (label: string) => mixed.controlPanel.sections.find((s) => s.label === label)!.controlSetRows.flat().map((c) => (c as { name: string }).name);
    expect(names('Query A series')).toEqual(['seriesType', 'stack', 'area', 'show_value', 'opacity', 'markerEnabled', 'markerSize', 'yAxisIndex', 'sort_series_type', 'sort_series_ascending']);
    expect(names('Query B series')).toEqual(['seriesTypeB', 'stackB', 'areaB', 'show_valueB', 'opacityB', 'markerEnabledB', 'markerSizeB', 'yAxisIndexB', 'sort_series_typeB', 'sort_series_ascendingB']);
    const seriesType = mixed.controlPanel.sections.find((s) => s.label === 'Query A series')!.controlSetRows[0]![0] as unknown as { choices: Array<[string, string]> };
    expect(seriesType.choices.map(([v]) => v)).toEqual(['line', 'scatter', 'smooth', 'bar', 'start', 'middle', 'end']);
  });

  it("draws 'Step - middle' as a step at the middle, 'Step - end' for B, and an area under A's line when asked", () => {
    const steps = draw({ seriesType: 'middle', seriesTypeB: 'end' }).series;
    expect(steps.map((s: any) => [s.type, s.step])).toEqual([['line', 'middle'], ['line', 'end']]);
    const area = draw({ area: true, opacity: 0.5 }).series;
    expect(area[0].areaStyle).toEqual({ opacity: 0.5 });
    // Bars have no area.
    expect(draw({ areaB: true }).series[1].areaStyle).toBeUndefined();
    // This chart's earlier stored values still draw: 'step' as a step at the start, 'area' as a line with its area.
    const earlier = draw({ seriesType: 'area', seriesTypeB: 'step' }).series;
    expect([earlier[0].type, !!earlier[0].areaStyle, earlier[1].step]).toEqual(['line', true, 'start']);
  });

  it("B's markers and values are B's own, and B on the secondary axis reads the secondary format", () => {
    const option = draw({ markerEnabledB: true, markerSizeB: 12, seriesTypeB: 'line', show_valueB: true, y_axis_format: ',d', y_axis_format_secondary: '.1%' });
    expect([option.series[0].showSymbol, option.series[1].showSymbol, option.series[1].symbolSize]).toEqual([false, true, 12]);
    expect([option.series[0].label.show, option.series[1].label.show]).toEqual([false, true]);
    expect(option.yAxis[1].axisLabel.formatter(0.5)).toBe('50.0%');
    expect(option.yAxis[0].axisLabel.formatter(3000)).toBe('3,000');
  });

  it("names one metric's series by their groups, or with the metric when 'Truncate Metric' is off (each query its own)", () => {
    expect(draw({}).series.map((s: any) => s.name)).toEqual(['CA', 'NY']);
    expect(draw({ truncate_metric: false }).series.map((s: any) => s.name)).toEqual(['boys, CA', 'NY']);
    expect(draw({ truncate_metric_b: false }).series.map((s: any) => s.name)).toEqual(['CA', 'girls, NY']);
  });
});

describe('mixed chart: the groups behind each series (for clicks)', () => {
  it("keeps each of B's series with its own group, names that read as numbers too, and a clashing name marked '(Query B)'", () => {
    const t0 = Date.UTC(2000, 0, 1);
    const out = mixed.transformProps({
      formData: { viz_type: 'mixed_timeseries', x_axis: 'ds', metrics: ['n'], groupby: ['code'], metrics_b: ['n'], groupby_b: ['code'], seriesType: 'line', seriesTypeB: 'bar' },
      queriesData: [
        { data: [{ ds: t0, code: 'CA', n: 1 }], colnames: ['ds', 'code', 'n'], coltypes: [2, 1, 0] },
        { data: [{ ds: t0, code: '2', n: 1 }, { ds: t0, code: '10', n: 4 }, { ds: t0, code: 'CA', n: 2 }], colnames: ['ds', 'code', 'n'], coltypes: [2, 1, 0] },
      ] as any,
      datasource: null,
      theme: 'light',
      width: 400,
      height: 300,
    });
    expect(out.option.series.map((s: any) => s.name)).toEqual(['CA', '10', 'CA (Query B)', '2']);
    expect(out.seriesGroups).toEqual({ CA: ['CA'], '10': ['10'], 'CA (Query B)': ['CA'], '2': ['2'] });
  });
});

describe("mixed chart: 'Currency format' and 'Secondary currency format' (Superset's currency_format, currency_format_secondary)", () => {
  const fd = { viz_type: 'mixed_timeseries', datasource: '1__table', x_axis: 'ds', metrics: ['boys'], groupby: [], metrics_b: ['girls'], groupby_b: [], seriesType: 'line', seriesTypeB: 'bar', y_axis_format: ',d', y_axis_format_secondary: ',.1f', currency_format: { symbol: 'USD', symbolPosition: 'prefix' }, currency_format_secondary: { symbol: 'EUR', symbolPosition: 'suffix' } };
  const t0 = Date.UTC(2000, 0, 1);
  const draw = (patch: Record<string, unknown>) =>
    drawMixed({ ...fd, ...patch }, [
      { data: [{ ds: t0, boys: 1000 }], colnames: ['ds', 'boys'], coltypes: [2, 0] },
      { data: [{ ds: t0, girls: 2 }], colnames: ['ds', 'girls'], coltypes: [2, 0] },
    ]);

  it('the primary axis and A read the currency format; B on the secondary axis reads the secondary one, tooltip too', () => {
    const option = draw({ yAxisIndexB: 1 });
    expect(option.yAxis[0].axisLabel.formatter(1000)).toBe('$ 1,000');
    expect(option.yAxis[1].axisLabel.formatter(2)).toBe('2.0 €');
    const html = option.tooltip.formatter([{ seriesName: 'boys', marker: '', value: [t0, 1000], axisValue: t0 }, { seriesName: 'girls', marker: '', value: [t0, 2], axisValue: t0 }]) as string;
    expect(html.replace(/<[^>]+>/g, '|').replace(/\|+/g, '|')).toContain('|boys|$ 1,000|');
    expect(html.replace(/<[^>]+>/g, '|').replace(/\|+/g, '|')).toContain('|girls|2.0 €|');
    expect(option.series[1].tooltip.valueFormatter(2)).toBe('2.0 €');
  });

  it('B on the primary axis reads the primary formats', () => {
    const option = draw({ yAxisIndexB: 0 });
    expect(option.series[1].tooltip.valueFormatter(2)).toBe('$ 2');
  });

  it('offers both controls after their y-axis formats', () => {
    const rows = mixed.controlPanel.sections.find((s) => s.label === 'Y Axis')!.controlSetRows.map((row) => (typeof row[0] === 'string' ? row[0] : (row[0] as { name: string }).name));
    expect(rows.slice(0, 4)).toEqual(['y_axis_format', 'currency_format', 'y_axis_format_secondary', 'currency_format_secondary']);
  });
});

describe("mixed chart: Superset's 'Sort Series By' per query, 'Show query identifiers', the legend's place", () => {
  const t0 = Date.UTC(2000, 0, 1);
  const t1 = Date.UTC(2001, 0, 1);
  // Both queries: births by gender (girls more in all), A as lines, B as bars.
  const rows = [
    { ds: t0, gender: 'boy', sum__num: 1 },
    { ds: t0, gender: 'girl', sum__num: 5 },
    { ds: t1, gender: 'boy', sum__num: 3 },
    { ds: t1, gender: 'girl', sum__num: 4 },
  ];
  const answer = { data: rows, colnames: ['ds', 'gender', 'sum__num'], coltypes: [2, 1, 0] };
  const fd = { viz_type: 'mixed_timeseries', x_axis: 'ds', metrics: ['sum__num'], groupby: ['gender'], metrics_b: ['sum__num'], groupby_b: ['gender'], seriesType: 'line', seriesTypeB: 'bar' };
  const draw = (patch: Record<string, unknown>) => mixed.transformProps({ formData: { ...fd, ...patch }, queriesData: [answer, answer] as any, datasource: null, theme: 'light', width: 600, height: 400 });
  const names = (patch: Record<string, unknown>) => draw(patch).option.series.map((s: any) => s.name);

  it("orders B's series by B's own 'Sort Series By' and 'Sort Series Ascending' (`sort_series_typeB`, `sort_series_ascendingB`), A's by A's", () => {
    // Girls total 9, boys 4: largest first by default; a clashing name of B's carries '(Query B)'.
    expect(names({})).toEqual(['girl', 'boy', 'girl (Query B)', 'boy (Query B)']);
    expect(names({ sort_series_typeB: 'name', sort_series_ascendingB: true })).toEqual(['girl', 'boy', 'boy (Query B)', 'girl (Query B)']);
    expect(names({ sort_series_ascending: true })).toEqual(['boy', 'girl', 'girl (Query B)', 'boy (Query B)']);
  });

  it("'Show query identifiers' names each series' query, after the metric when grouped, as Superset's ('sum__num (Query A), girl')", () => {
    const out = draw({ show_query_identifiers: true });
    expect(out.option.series.map((s: any) => s.name)).toEqual(['sum__num (Query A), girl', 'sum__num (Query A), boy', 'sum__num (Query B), girl', 'sum__num (Query B), boy']);
    expect(out.option.legend.data).toEqual(out.option.series.map((s: any) => s.name));
    // Clicks still find each series' group under its new name.
    expect(out.seriesGroups).toEqual({ 'sum__num (Query A), girl': ['girl'], 'sum__num (Query A), boy': ['boy'], 'sum__num (Query B), girl': ['girl'], 'sum__num (Query B), boy': ['boy'] });
    // Without group-by the name itself carries it: 'sum__num (Query A)'.
    const plain = mixed.transformProps({
      formData: { ...fd, groupby: [], groupby_b: [], metrics_b: ['count'], show_query_identifiers: true },
      queriesData: [{ data: [{ ds: t0, sum__num: 1 }], colnames: ['ds', 'sum__num'], coltypes: [2, 0] }, { data: [{ ds: t0, count: 2 }], colnames: ['ds', 'count'], coltypes: [2, 0] }] as any,
      datasource: null,
      theme: 'light',
      width: 600,
      height: 400,
    });
    expect(plain.option.series.map((s: any) => s.name)).toEqual(['sum__num (Query A)', 'count (Query B)']);
  });

  it('withQueryIdentifier keeps a name that already names its metric, marking it after the metric', () => {
    expect(withQueryIdentifier('sum__num, girl', ['girl'], 'sum__num', 'B')).toBe('sum__num (Query B), girl');
    expect(withQueryIdentifier('SUM(num), 1 year ago', [], 'SUM(num)', 'A')).toBe('SUM(num), 1 year ago (Query A)');
  });

  it("places the legend by 'Orientation', 'Type' and 'Margin', with room for the secondary axis on the right", () => {
    const right = draw({ legendOrientation: 'right', legendType: 'plain', legendMargin: 10, yAxisIndexB: 1 }).option;
    expect([right.legend.orient, right.legend.right, right.legend.type, right.grid.top]).toEqual(['vertical', 0, 'plain', 20]);
    const top = draw({ yAxisIndexB: 1 }).option;
    expect(top.grid.top).toBe(40);
    expect(right.grid.right).toBeGreaterThan(top.grid.right + 10);
    expect(top.grid.right).toBe(40);
    expect(draw({ legendOrientation: 'bottom' }).option.legend.bottom).toBe(0);
  });

  it("lays both queries on A's x-axis: numbers as numbers (B's stacked bars too), spanning the data unless bars keep their ends", () => {
    const numbers = { data: [{ years: 2, n: 1 }, { years: 10, n: 3 }], colnames: ['years', 'n'], coltypes: [0, 0] };
    const option = (patch: Record<string, unknown>) =>
      mixed.transformProps({ formData: { viz_type: 'mixed_timeseries', x_axis: 'years', metrics: ['n'], metrics_b: ['n'], seriesType: 'line', ...patch }, queriesData: [numbers, numbers] as any, datasource: null, theme: 'light', width: 600, height: 400 }).option;
    const lines = option({ seriesTypeB: 'line', stackB: true });
    expect(lines.xAxis).toMatchObject({ type: 'value', min: 'dataMin', max: 'dataMax' });
    expect(lines.series[1].data).toEqual([[2, 1], [10, 3]]);
    const bars = option({ seriesTypeB: 'bar' }).xAxis;
    expect([bars.type, bars.scale, bars.min, bars.max]).toEqual(['value', true, undefined, undefined]);
  });
});
