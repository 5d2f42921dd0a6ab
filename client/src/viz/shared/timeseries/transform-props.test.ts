import { describe, expect, it } from 'vitest';
import type { TransformInput } from '../../types';
import { transformTimeseries, type SeriesKind } from './transform-props';

const M = (month: number) => Date.UTC(2004, month, 1);
// Three months; Trains sold nothing in February: the chart data answer has no row for it.
const rows = [
  { order_date: M(0), product_line: 'Cars', sum__sales: 10 },
  { order_date: M(0), product_line: 'Trains', sum__sales: 1 },
  { order_date: M(1), product_line: 'Cars', sum__sales: 20 },
  { order_date: M(2), product_line: 'Cars', sum__sales: 30 },
  { order_date: M(2), product_line: 'Trains', sum__sales: 3 },
];
/** The chart of those rows as `kind`, with the form data's `patch`. */
const transformed = (kind: SeriesKind, patch: Record<string, unknown> = {}, input: Partial<TransformInput> = {}) =>
  transformTimeseries(
    {
      formData: { viz_type: 'echarts_timeseries_bar', x_axis: 'order_date', metrics: ['sum__sales'], groupby: ['product_line'], ...patch },
      queriesData: [{ data: rows, colnames: ['order_date', 'product_line', 'sum__sales'], coltypes: [2, 1, 0] } as any],
      datasource: null,
      theme: 'light',
      width: 600,
      height: 400,
      ...input,
    },
    kind,
  );
const draw = (kind: SeriesKind, patch: Record<string, unknown> = {}, input: Partial<TransformInput> = {}) =>
  transformed(kind, patch, input).option.series as Array<{ name: string; data: any[]; stack?: string; itemStyle: { opacity?: number } }>;

describe('time series: every series spans every x value (Superset pivots the rows)', () => {
  it('stacked: a missing value is 0, so each series stacks on the same month as the others', () => {
    const [cars, trains] = draw('bar', { stack: true });
    expect(cars!.data).toEqual([[M(0), 10], [M(1), 20], [M(2), 30]]);
    // Without the February 0, ECharts stacked Trains' March (3) on Cars' February, by position.
    expect(trains!.data).toEqual([[M(0), 1], [M(1), 0], [M(2), 3]]);
    expect(trains!.stack).toBe('total');
  });

  it('not stacked: a missing value is a gap (null), not a line drawn across it', () => {
    const [, trains] = draw('line');
    expect(trains!.data).toEqual([[M(0), 1], [M(1), null], [M(2), 3]]);
  });

  it('a scatter plot leaves missing points out', () => {
    const [, trains] = draw('scatter');
    expect(trains!.data).toEqual([[M(0), 1], [M(2), 3]]);
  });

  it('on a category axis, the series follow the categories in their order', () => {
    const categoryRows = [
      { product_line: 'Cars', deal_size: 'Small', n: 1 },
      { product_line: 'Ships', deal_size: 'Small', n: 2 },
      { product_line: 'Ships', deal_size: 'Large', n: 4 },
    ];
    const series = transformTimeseries(
      { formData: { viz_type: 'echarts_timeseries_bar', x_axis: 'product_line', metrics: ['n'], groupby: ['deal_size'], stack: true }, queriesData: [{ data: categoryRows, colnames: ['product_line', 'deal_size', 'n'], coltypes: [1, 1, 0] } as any], datasource: null, theme: 'light', width: 600, height: 400 },
      'bar',
    ).option.series as Array<{ name: string; data: unknown[] }>;
    // The largest total first (Superset's default series order).
    expect(series.map((s) => [s.name, s.data])).toEqual([
      ['Large', [['Cars', 0], ['Ships', 4]]],
      ['Small', [['Cars', 1], ['Ships', 2]]],
    ]);
  });

  it("adaptive dates are ECharts' own UTC time labels, about one per 90 px; a chosen format is applied", () => {
    const option = (patch: Record<string, unknown>, width: number) =>
      transformTimeseries({ formData: { viz_type: 'echarts_timeseries_line', x_axis: 'order_date', metrics: ['sum__sales'], ...patch }, queriesData: [{ data: rows, colnames: ['order_date', 'product_line', 'sum__sales'], coltypes: [2, 1, 0] } as any], datasource: null, theme: 'light', width, height: 300 }, 'line').option;
    const smart = option({}, 360);
    expect(smart.useUTC).toBe(true);
    expect(smart.xAxis.axisLabel.formatter).toBeUndefined();
    expect(smart.xAxis.splitNumber).toBe(4);
    const chosen = option({ x_axis_time_format: '%Y-%m' }, 900);
    expect(chosen.xAxis.axisLabel.formatter(M(1))).toBe('2004-02');
    expect(chosen.xAxis.splitNumber).toBe(10);
  });
});

describe("the chart's own cross-filter (Superset's filterState.selectedValues)", () => {
  const drawWith = (selectedValues: unknown[]) => draw('bar', {}, { filterState: { selectedValues } });

  it('time on x: the selected series is drawn in full, the others faded; none faded without a selection', () => {
    const [cars, trains] = drawWith(['Trains']);
    expect(cars!.itemStyle.opacity).toBe(0.3);
    expect(trains!.itemStyle.opacity).toBe(1);
    expect(drawWith([]).map((s) => s.itemStyle.opacity)).toEqual([undefined, undefined]);
  });

  it('categories on x: the selected bar is drawn in full, the others faded, horizontal bars too', () => {
    const byLine = { x_axis: 'product_line', groupby: [] };
    const categorical = (selected: unknown[], patch: Record<string, unknown> = {}) =>
      transformTimeseries(
        {
          formData: { viz_type: 'echarts_timeseries_bar', metrics: ['sum__sales'], ...byLine, ...patch },
          queriesData: [{ data: [{ product_line: 'Cars', sum__sales: 60 }, { product_line: 'Trains', sum__sales: 4 }], colnames: ['product_line', 'sum__sales'], coltypes: [1, 0] } as any],
          datasource: null,
          theme: 'light',
          width: 600,
          height: 400,
          filterState: { selectedValues: selected },
        },
        'bar',
      );
    const out = categorical(['Trains']);
    expect((out.option.series as any[])[0].data.map((d: any) => d.itemStyle.opacity)).toEqual([0.3, 1]);
    const sideways = categorical(['Cars'], { orientation: 'horizontal' });
    expect(sideways.horizontal).toBe(true);
    expect((sideways.option.series as any[])[0].data.map((d: any) => [d.value[1], d.itemStyle.opacity])).toEqual([['Cars', 1], ['Trains', 0.3]]);
  });
});

describe("'Show value'", () => {
  it('shows a line’s points, on which ECharts draws the values, and hides labels that would overlap', () => {
    const [cars] = draw('line', { show_value: true }) as Array<Record<string, any>>;
    expect(cars!.label.show).toBe(true);
    expect(cars!.showSymbol).toBe(true);
    expect(cars!.labelLayout).toEqual({ hideOverlap: true });
    expect((draw('line') as Array<Record<string, any>>)[0]!.showSymbol).toBe(false);
  });
});

describe('the y-axis title', () => {
  it('stands clear of the widest tick label, and the grid leaves it room', () => {
    const wide = transformTimeseries(
      {
        formData: { viz_type: 'echarts_timeseries_line', x_axis: 'order_date', metrics: ['sum__sales'], y_axis_title: 'Sales', y_axis_format: '$,.2f' },
        queriesData: [{ data: rows.map((r) => ({ ...r, sum__sales: r.sum__sales * 100_000 })), colnames: ['order_date', 'product_line', 'sum__sales'], coltypes: [2, 1, 0] } as any],
        datasource: null,
        theme: 'light',
        width: 600,
        height: 400,
      },
      'line',
    ).option as Record<string, any>;
    // '$3,000,000.00' is about 13 characters: wider than the 48 px gap a short label gets.
    expect(wide.yAxis.nameGap).toBeGreaterThan(80);
    expect(wide.grid.left).toBeGreaterThanOrEqual(32);
    expect((transformTimeseries({ formData: { viz_type: 'echarts_timeseries_line', x_axis: 'order_date', metrics: ['sum__sales'], y_axis_title: 'Sales' }, queriesData: [{ data: rows, colnames: ['order_date', 'product_line', 'sum__sales'], coltypes: [2, 1, 0] } as any], datasource: null, theme: 'light', width: 600, height: 400 }, 'line').option as Record<string, any>).yAxis.nameGap).toBe(48);
  });
});

describe('time series: advanced analytics answers come pivoted', () => {
  const T = (year: number) => Date.UTC(year, 0, 1);
  const pivoted = (fd: Record<string, unknown>, colnames: string[], data: Record<string, unknown>[]) =>
    transformTimeseries({ formData: { viz_type: 'echarts_timeseries_line', x_axis: 'ds', metrics: ['SUM(num)'], ...fd }, queriesData: [{ data, colnames, coltypes: [2, 0, 0] } as any], datasource: null, theme: 'light', width: 600, height: 400 }, 'line');

  it("draws each time shift as its own series, named like Superset's 'SUM(num)__1 year ago'", () => {
    const { option } = pivoted({ time_compare: ['1 year ago'], comparison_type: 'values' }, ['ds', 'SUM(num)', 'SUM(num)__1 year ago'], [
      { ds: T(2001), 'SUM(num)': 12, 'SUM(num)__1 year ago': 10 },
      { ds: T(2002), 'SUM(num)': 15, 'SUM(num)__1 year ago': 12 },
    ]);
    expect(option.series.map((s: any) => s.name)).toEqual(['SUM(num)', 'SUM(num)__1 year ago']);
    expect(option.series[1].data).toEqual([[T(2001), 10], [T(2002), 12]]);
    expect(option.legend.show).toBe(true);
    // With the dataset's verbose name, the shift reads by it too.
    const named = transformTimeseries({ formData: { viz_type: 'echarts_timeseries_line', x_axis: 'ds', metrics: ['sum__num'], time_compare: ['1 year ago'], comparison_type: 'difference' }, queriesData: [{ data: [{ ds: T(2001), 'difference__sum__num__sum__num__1 year ago': 2 }], colnames: ['ds', 'difference__sum__num__sum__num__1 year ago'], coltypes: [2, 0] } as any], datasource: { verbose_map: { sum__num: 'Births' } } as any, theme: 'light', width: 600, height: 400 }, 'line');
    expect(named.option.series.map((s: any) => s.name)).toEqual(['difference__Births__Births__1 year ago']);
  });

  it('names each group of a pivoted column, and a percentage comparison is drawn in a percent format (spec 01 §5)', () => {
    const label = 'percentage__SUM(num)__SUM(num)__1 year ago';
    const { option, seriesGroups } = pivoted({ groupby: ['gender'], time_compare: ['1 year ago'], comparison_type: 'percentage', y_axis_format: ',d' }, ['ds', `${label}, boy`, `${label}, girl`], [
      { ds: T(2001), [`${label}, boy`]: 0.25, [`${label}, girl`]: -0.5 },
    ]);
    expect(option.series.map((s: any) => s.name)).toEqual(['boy', 'girl']);
    expect(seriesGroups).toEqual({ boy: ['boy'], girl: ['girl'] });
    expect(option.yAxis.axisLabel.formatter(0.25)).toBe('25.0%');
  });

  it('a rolling window on a chart without groups keeps the metric as its series', () => {
    const { option } = pivoted({ rolling_type: 'mean', rolling_periods: 2 }, ['ds', 'SUM(num)'], [{ ds: T(2001), 'SUM(num)': 11 }]);
    expect(option.series.map((s: any) => [s.name, s.data])).toEqual([['SUM(num)', [[T(2001), 11]]]]);
  });
});

describe("time series: Superset's legend, x label, y-axis and contribution options", () => {
  const option = (patch: Record<string, unknown>) => transformed('line', patch).option;

  it('places the legend where asked, plain or scrolling, and makes room for it beside or below the plot', () => {
    const top = option({});
    expect([top.legend.type, top.legend.orient, top.legend.top, top.grid.top]).toEqual(['scroll', 'horizontal', 0, 40]);
    const right = option({ legendOrientation: 'right', legendType: 'plain' });
    expect([right.legend.type, right.legend.orient, right.legend.right, right.grid.top]).toEqual(['plain', 'vertical', 0, 20]);
    expect(right.grid.right).toBeGreaterThan(top.grid.right + 40);
    const bottom = option({ legendOrientation: 'bottom' });
    expect(bottom.legend.bottom).toBe(0);
    expect(bottom.grid.bottom).toBe(top.grid.bottom + 28);
  });

  it('rotates the x labels, draws minor split lines and a log y-axis when asked', () => {
    expect(option({ xAxisLabelRotation: 45 }).xAxis.axisLabel.rotate).toBe(45);
    expect(option({}).xAxis.axisLabel.rotate).toBeUndefined();
    const y = option({ logAxis: true, minorSplitLine: true }).yAxis;
    expect([y.type, y.minorSplitLine.show]).toEqual(['log', true]);
  });

  it("starts the y-axis at zero unless truncated; its bounds widen the data's range, never narrow it", () => {
    expect(option({}).yAxis.scale).toBeUndefined();
    const y = option({ truncateYAxis: true, y_axis_bounds: [0, 25] }).yAxis;
    expect(y.scale).toBe(true);
    expect([y.min({ min: 5 }), y.max({ max: 30 }), y.max({ max: 20 })]).toEqual([0, 30, 25]);
    // Bounds count only with the axis truncated, as Superset shows them only then; an empty side is the data's.
    expect(option({ y_axis_bounds: [0, 25] }).yAxis.min).toBeUndefined();
    expect(option({ truncateYAxis: true, y_axis_bounds: [null, 25] }).yAxis.min).toBeUndefined();
  });

  it('formats contributions as whole percents, on the axis and in the tooltip', () => {
    const o = option({ contributionMode: 'row' });
    expect([o.yAxis.axisLabel.formatter(0.25), o.tooltip.valueFormatter(0.5)]).toEqual(['25%', '50%']);
  });
});

describe("time series: Superset's series order and rich tooltip", () => {
  const names = (patch: Record<string, unknown>) => draw('line', patch).map((s) => s.name);

  it('orders the series by their total, largest first, or as asked: by name, least, greatest or mean value, either way', () => {
    // Cars sell 60 in all (10, 20, 30); Trains 4 (1, 3).
    expect(names({})).toEqual(['Cars', 'Trains']);
    expect(names({ sort_series_ascending: true })).toEqual(['Trains', 'Cars']);
    expect(names({ sort_series_type: 'name', sort_series_ascending: true })).toEqual(['Cars', 'Trains']);
    expect(names({ sort_series_type: 'min', sort_series_ascending: true })).toEqual(['Trains', 'Cars']);
    expect(names({ sort_series_type: 'max' })).toEqual(['Cars', 'Trains']);
  });

  it('lists each series at the x value with its share and the total, largest first when asked; heads it by the detailed date', () => {
    const tooltip = transformed('line', { tooltipSortByMetric: true }).option.tooltip;
    expect(tooltip.trigger).toBe('axis');
    const html = tooltip.formatter([
      { seriesName: 'Trains', marker: '', value: [M(0), 1], axisValue: M(0) },
      { seriesName: 'Cars <b>', marker: '', value: [M(0), 3], axisValue: M(0) },
    ]) as string;
    const text = html.replace(/<[^>]+>/g, '|').replace(/\|+/g, '|');
    expect(text).toBe('|2004|Cars &#60;b&#62;|3|75.00%|Trains|1|25.00%|Total|4|100.00%|');
    // February reads as its date, not 'February'; without 'Show total' and 'Show percentage', the values alone.
    const plain = transformed('line', { showTooltipTotal: false, showTooltipPercentage: false }).option.tooltip.formatter([{ seriesName: 'Cars', marker: '', value: [M(1), 20], axisValue: M(1) }, { seriesName: 'Trains', marker: '', value: [M(1), null], axisValue: M(1) }]) as string;
    expect(plain.replace(/<[^>]+>/g, '|').replace(/\|+/g, '|')).toBe('|2004-02-01|Cars|20|');
    // In its own time format when one is chosen.
    const yearly = transformed('line', { tooltipTimeFormat: '%b %Y' }).option.tooltip.formatter([{ seriesName: 'Cars', marker: '', value: [M(1), 20], axisValue: M(1) }]) as string;
    expect(yearly.replace(/<[^>]+>/g, '|').replace(/\|+/g, '|')).toBe('|Feb 2004|Cars|20|');
    // Without the rich tooltip, one point's own tooltip.
    expect(transformed('line', { rich_tooltip: false }).option.tooltip).toMatchObject({ trigger: 'item', formatter: undefined });
  });
});

describe("time series: Superset's 'Stacked Style'", () => {
  it("'Expand' stacks each month's shares to the whole, drawn in percent", () => {
    const { option } = transformed('area', { stack: 'Expand' });
    const cars = option.series.find((s: any) => s.name === 'Cars').data;
    const trains = option.series.find((s: any) => s.name === 'Trains').data;
    // January: Cars 10 and Trains 1 of 11; February: Cars alone.
    expect(cars.map(([, y]: [unknown, number]) => Number(y.toFixed(4)))).toEqual([0.9091, 1, 0.9091]);
    expect(trains.map(([, y]: [unknown, number]) => Number(y.toFixed(4)))).toEqual([0.0909, 0, 0.0909]);
    expect(option.series.every((s: any) => s.stack === 'total')).toBe(true);
    expect(option.yAxis.axisLabel.formatter(0.5)).toBe('50%');
    // The whole is the axis: 0 to 100%, not ECharts' rounded 120%.
    expect(option.yAxis).toMatchObject({ min: 0, max: 1 });
    expect(transformed('area', { stack: 'Stack', contributionMode: 'row' }).option.yAxis).toMatchObject({ min: 0, max: 1 });
    expect(transformed('area', { stack: 'Stack' }).option.yAxis.max).toBeUndefined();
  });

  it("'Stream' stands the stack on a hidden base of minus half each month's total; the legend and tooltip leave it out", () => {
    const { option } = transformed('bar', { stack: 'Stream' });
    const [base, ...rest] = option.series;
    expect(base.id).toBe('__stream_base');
    expect(base.data).toEqual([[M(0), -5.5], [M(1), -10], [M(2), -16.5]]);
    expect([base.stack, base.silent, base.itemStyle.opacity]).toEqual(['total', true, 0]);
    // Stacked across signs: the series stand on the negative base.
    expect(option.series.every((s: any) => s.stackStrategy === 'all')).toBe(true);
    expect(rest.map((s: any) => s.name)).toEqual(['Cars', 'Trains']);
    expect(option.legend.data).toEqual(['Cars', 'Trains']);
    const html = option.tooltip.formatter([{ seriesId: '__stream_base', seriesName: '', marker: '', value: [M(0), -5.5], axisValue: M(0) }, { seriesName: 'Cars', marker: '', value: [M(0), 10], axisValue: M(0) }]) as string;
    expect(html.replace(/<[^>]+>/g, '|').replace(/\|+/g, '|')).toBe('|2004|Cars|10|');
    // A chart saved with the earlier checkbox stacks as 'Stack'.
    expect(transformed('bar', { stack: true }).option.series.map((s: any) => s.stack)).toEqual(['total', 'total']);
  });
});

describe("time series: 'Only Total'", () => {
  it('shows a stacked chart\'s values once per month, its total over the top series; off, each segment\'s own', () => {
    const labels = (patch: Record<string, unknown>) => transformed('bar', { stack: 'Stack', show_value: true, ...patch }).option.series.map((s: any) => s.label);
    const [cars, trains] = labels({});
    expect([cars.show, trains.show]).toEqual([false, true]);
    // January: Cars 10 and Trains 1.
    expect(trains.formatter({ dataIndex: 0 })).toBe('11');
    expect(labels({ only_total: false }).map((l: any) => l.show)).toEqual([true, true]);
    // Not stacked: each series its own values.
    expect(transformed('bar', { show_value: true }).option.series.map((s: any) => s.label.show)).toEqual([true, true]);
  });
});

describe("time series: 'Currency format' (Superset's currency_format with the y-axis format)", () => {
  const usd = { y_axis_format: ',.2f', currency_format: { symbol: 'USD', symbolPosition: 'prefix' } };
  const text = (html: string) => html.replace(/<[^>]+>/g, '|').replace(/\|+/g, '|');

  it('puts the symbol on the y-axis labels, the values shown and the tooltips', () => {
    const { option } = transformed('bar', { ...usd, show_value: true });
    expect(option.yAxis.axisLabel.formatter(1234.5)).toBe('$ 1,234.50');
    expect(option.series[0].label.formatter({ value: [M(0), 10] })).toBe('$ 10.00');
    const html = option.tooltip.formatter([{ seriesName: 'Cars', marker: '', value: [M(0), 10], axisValue: M(0) }, { seriesName: 'Trains', marker: '', value: [M(0), 1], axisValue: M(0) }]) as string;
    expect(text(html)).toBe('|2004|Cars|$ 10.00|90.91%|Trains|$ 1.00|9.09%|Total|$ 11.00|100.00%|');
    expect(transformed('line', { ...usd, rich_tooltip: false }).option.tooltip.valueFormatter(3)).toBe('$ 3.00');
  });

  it('a suffix goes after the number; the adaptive format when none is chosen', () => {
    const { option } = transformed('line', { currency_format: { symbol: 'EUR', symbolPosition: 'suffix' } });
    expect(option.yAxis.axisLabel.formatter(12345.432)).toBe('12.3k €');
  });

  it('shares and ratios carry no currency: contributions, expanded stacks and a percentage comparison stay in percent', () => {
    expect(transformed('line', { ...usd, contributionMode: 'row' }).option.yAxis.axisLabel.formatter(0.25)).toBe('25%');
    expect(transformed('bar', { ...usd, stack: 'Expand' }).option.yAxis.axisLabel.formatter(0.5)).toBe('50%');
  });

  it('offers the control right after the y-axis format', async () => {
    const { default: line } = await import('../../echarts_timeseries_line/index');
    const rows = line.controlPanel.sections.flatMap((s) => s.controlSetRows).map((row) => row.map((c) => (typeof c === 'string' ? c : c.name)));
    const at = rows.findIndex((row) => row.includes('y_axis_format'));
    expect(rows[at + 1]).toEqual(['currency_format']);
  });
});

describe("time series: Superset's x-axis options ('Truncate X Axis', 'X Axis Bounds', 'Force categorical', 'Minor ticks')", () => {
  // Births by a number of years since 2000 (a number x-axis), answered out of order.
  const yearRows = [
    { years: 4, n: 40 },
    { years: 2, n: 20 },
    { years: 10, n: 100 },
  ];
  const numeric = (kind: SeriesKind, patch: Record<string, unknown> = {}) =>
    transformTimeseries(
      { formData: { viz_type: 'echarts_timeseries_line', x_axis: 'years', metrics: ['n'], ...patch }, queriesData: [{ data: yearRows, colnames: ['years', 'n'], coltypes: [0, 0] } as any], datasource: null, theme: 'light', width: 600, height: 400 },
      kind,
    ).option;

  it('lays numbers along a value axis in their order (Superset\'s getAxisType), not as categories in the answer\'s order', () => {
    const o = numeric('line');
    expect(o.xAxis.type).toBe('value');
    expect(o.xAxis.data).toBeUndefined();
    expect(o.series[0].data).toEqual([[2, 20], [4, 40], [10, 100]]);
  });

  it("'Truncate X Axis' (on unless turned off, Superset's default) spans the data: from its least to its greatest x", () => {
    expect(numeric('line').xAxis).toMatchObject({ min: 'dataMin', max: 'dataMax' });
    const off = numeric('line', { truncateXAxis: false }).xAxis;
    expect([off.min, off.max, off.scale]).toEqual([undefined, undefined, undefined]);
  });

  it("'X Axis Bounds' widen the range, never narrow it (the control's description); an empty side is the data's", () => {
    const x = numeric('line', { xAxisBounds: [0, 5] }).xAxis;
    expect([x.min({ min: 2 }), x.max({ max: 10 }), x.max({ max: 3 })]).toEqual([0, 10, 5]);
    expect(numeric('line', { xAxisBounds: [null, 12] }).xAxis.min).toBe('dataMin');
    // Bounds count only with the axis truncated, as Superset's getMinAndMaxFromBounds.
    expect(numeric('line', { truncateXAxis: false, xAxisBounds: [0, 5] }).xAxis.min).toBeUndefined();
  });

  it("bars keep ECharts' own ends (room for the first and last bar), scaled to the data as Superset's", () => {
    const x = numeric('bar').xAxis;
    expect([x.type, x.scale, x.min, x.max]).toEqual(['value', true, undefined, undefined]);
  });

  it("stacked, or with 'Force categorical', numbers are categories (in the answer's order), which no bounds apply to", () => {
    for (const patch of [{ stack: 'Stack' }, { xAxisForceCategorical: true }]) {
      const o = numeric('line', patch);
      expect([o.xAxis.type, o.xAxis.data, o.xAxis.min]).toEqual(['category', ['4', '2', '10'], undefined]);
    }
    // Horizontal bars lay numbers along their categories: ECharts stands bars upright on two value axes.
    expect(transformTimeseries({ formData: { viz_type: 'echarts_timeseries_bar', x_axis: 'years', metrics: ['n'], orientation: 'horizontal' }, queriesData: [{ data: yearRows, colnames: ['years', 'n'], coltypes: [0, 0] } as any], datasource: null, theme: 'light', width: 600, height: 400 }, 'bar').option.yAxis.type).toBe('category');
    // A time axis is untouched by the x bounds.
    expect(transformed('line', { xAxisBounds: [0, 5] }).option.xAxis).toMatchObject({ type: 'time' });
    expect(transformed('line', { xAxisBounds: [0, 5] }).option.xAxis.min).toBeUndefined();
  });

  it("'Minor ticks' shows minor ticks on both axes; 'Minor Split Line' draws the lines alone, as Superset keeps them apart", () => {
    const ticks = numeric('line', { minorTicks: true });
    expect([ticks.xAxis.minorTick.show, ticks.yAxis.minorTick.show]).toEqual([true, true]);
    const lines = numeric('line', { minorSplitLine: true });
    expect([lines.xAxis.minorTick.show, lines.yAxis.minorTick.show, lines.yAxis.minorSplitLine.show]).toEqual([false, false, true]);
  });
});

describe("time series: 'Data Zoom' as Superset's", () => {
  const option = (patch: Record<string, unknown>, kind: SeriesKind = 'line') => transformed(kind, patch).option;

  it("adds a slider under the plot, the mouse wheel panning instead of zooming, and the 'zoom area' / 'restore zoom' buttons", () => {
    const o = option({ zoomable: true });
    expect(o.dataZoom).toEqual([
      expect.objectContaining({ type: 'slider', xAxisIndex: 0, start: 0, end: 100 }),
      { type: 'inside', yAxisIndex: 0, zoomOnMouseWheel: false, moveOnMouseWheel: true },
      { type: 'inside', xAxisIndex: 0, zoomOnMouseWheel: false, moveOnMouseWheel: true },
    ]);
    expect(o.toolbox).toMatchObject({ show: true, top: 0, right: 5, feature: { dataZoom: { title: { zoom: 'zoom area', back: 'restore zoom' } } } });
    // Stacked values zoom along x only.
    expect(option({ zoomable: true, stack: 'Stack' }).toolbox.feature.dataZoom.yAxisIndex).toBe(false);
    expect([option({}).dataZoom, option({}).toolbox]).toEqual([undefined, undefined]);
  });

  it('keeps room for the slider under the plot, above a legend at the bottom, and the legend on top clear of the buttons', () => {
    const plain = option({});
    const zoom = option({ zoomable: true });
    expect(zoom.grid.bottom).toBe(plain.grid.bottom + 26);
    // Below the zoom buttons (top right), even without a legend on top.
    expect(option({ zoomable: true, show_legend: false }).grid.top).toBe(40);
    expect(option({ show_legend: false }).grid.top).toBe(20);
    expect(zoom.legend.width).toBe(600 - 112);
    const bottom = option({ zoomable: true, legendOrientation: 'bottom' });
    expect(bottom.dataZoom[0].bottom).toBe(4 + 28);
    expect(bottom.grid.bottom).toBe(plain.grid.bottom + 28 + 26);
  });

  it('horizontal bars zoom along their categories (the y-axis, as Superset): the slider stands at the right', () => {
    const o = option({ zoomable: true, orientation: 'horizontal' }, 'bar');
    expect(o.dataZoom[0]).toMatchObject({ type: 'slider', yAxisIndex: 0, right: 4 });
    expect(o.grid.right).toBe(option({ orientation: 'horizontal' }, 'bar').grid.right + 26);
  });
});
