import { describe, expect, it } from 'vitest';
import pivotTable from './index';
import { AGGREGATES, fractionOf, pivot, pivotCsvRows } from './transform-props';

describe('pivot table chart type', () => {
  it('queries the metrics by the row and column group-bys', () => {
    const q = pivotTable.buildQuery({ viz_type: 'pivot_table_v2', datasource: '1__table', groupbyRows: ['state'], groupbyColumns: ['gender'], metrics: ['n'] }).queries[0]!;
    expect(q.columns).toEqual(['state', 'gender']);
  });

  it('heads a time column by the date format, in time order, not by its epoch milliseconds', () => {
    const t = (y: number, m = 0) => Date.UTC(y, m, 1);
    const answer = { colnames: ['ds', 'gender', 'n'], coltypes: [2, 1, 0], data: [
      { ds: t(2001), gender: 'boy', n: 1 },
      { ds: t(1999), gender: 'girl', n: 2 },
      { ds: t(2000), gender: 'boy', n: 3 },
    ] };
    const out = pivotTable.transformProps({ formData: { viz_type: 'pivot_table_v2', groupbyRows: ['ds'], groupbyColumns: ['gender'], metrics: ['n'], date_format: '%Y-%m-%d' }, queriesData: [answer as any], datasource: null, theme: 'light', width: 600, height: 400 });
    expect(out.rows.map((r) => r.keys)).toEqual([['1999-01-01'], ['2000-01-01'], ['2001-01-01']]);
    // As columns too, with the default (adaptive) format: a year's first day reads as the year.
    const across = pivotTable.transformProps({ formData: { viz_type: 'pivot_table_v2', groupbyRows: ['gender'], groupbyColumns: ['ds'], metrics: ['n'] }, queriesData: [answer as any], datasource: null, theme: 'light', width: 600, height: 400 });
    // (Under the metric, which heads the columns by default.)
    expect(across.columnLevels[1]!.map(([label]) => label)).toEqual(['1999', '2000', '2001']);
  });

  it('keeps two times that read alike in the chosen format apart: each heads its own rows and columns', () => {
    const t = (m: number) => Date.UTC(2000, m, 1);
    const answer = { colnames: ['ds', 'gender', 'n'], coltypes: [2, 1, 0], data: [
      { ds: t(0), gender: 'boy', n: 1 },
      { ds: t(0), gender: 'girl', n: 2 },
      { ds: t(1), gender: 'boy', n: 3 },
    ] };
    // By year, January and February read '2000' alike.
    const down = pivotTable.transformProps({ formData: { viz_type: 'pivot_table_v2', groupbyRows: ['ds', 'gender'], groupbyColumns: [], metrics: ['n'], date_format: '%Y' }, queriesData: [answer as any], datasource: null, theme: 'light', width: 600, height: 400 });
    expect(down.rows.map((r) => r.keys)).toEqual([['2000', 'boy'], ['2000', 'girl'], ['2000', 'boy']]);
    expect(down.rowSpans.map((r) => r[0])).toEqual([2, 0, 1]);
    const across = pivotTable.transformProps({ formData: { viz_type: 'pivot_table_v2', groupbyRows: [], groupbyColumns: ['ds', 'gender'], metrics: ['n'], date_format: '%Y' }, queriesData: [answer as any], datasource: null, theme: 'light', width: 600, height: 400 });
    expect(across.columnLevels[1]).toEqual([['2000', 2], ['2000', 1]]);
  });

  it('pivots rows down and columns across, with totals by the aggregation function', () => {
    const rows = [
      { state: 'CA', gender: 'boy', n: 3 },
      { state: 'CA', gender: 'girl', n: 2 },
      { state: 'NY', gender: 'boy', n: 5 },
    ];
    const p = pivot({ rows, rowCols: ['state'], colCols: ['gender'], metrics: ['n'], aggregate: 'Sum', rowTotals: true, colTotals: true, format: (v) => String(v ?? '') });
    expect(p.columnLevels).toEqual([[['boy', 1], ['girl', 1], ['Total', 1]]]);
    expect(p.rows.map((r) => [r.keys, r.cells])).toEqual([
      [['CA'], ['3', '2', '5']],
      [['NY'], ['5', '', '5']],
      [['Total'], ['8', '2', '10']],
    ]);
    const avg = pivot({ rows, rowCols: ['state'], colCols: ['gender'], metrics: ['n'], aggregate: 'Average', rowTotals: false, colTotals: true, format: (v) => String(v ?? '') });
    expect(avg.rows[2]!.cells).toEqual(['4', '2']);
  });

  it('closes each group of the leading row columns with a subtotal row, and of the leading column columns with a subtotal column', () => {
    const rows = [
      { region: 'West', state: 'CA', year: '2020', gender: 'boy', n: 3 },
      { region: 'West', state: 'CA', year: '2020', gender: 'girl', n: 2 },
      { region: 'West', state: 'OR', year: '2021', gender: 'boy', n: 1 },
      { region: 'East', state: 'NY', year: '2021', gender: 'girl', n: 5 },
    ];
    const p = pivot({ rows, rowCols: ['region', 'state'], colCols: ['year', 'gender'], metrics: ['n'], aggregate: 'Sum', rowTotals: true, colTotals: true, rowSubTotals: true, colSubTotals: true, format: (v) => String(v ?? '') });
    expect(p.columnLevels).toEqual([
      [['2020', 3], ['2021', 3], ['Total', 1]],
      [['boy', 1], ['girl', 1], ['Subtotal', 1], ['boy', 1], ['girl', 1], ['Subtotal', 1], ['', 1]],
    ]);
    expect(p.rows.map((r) => [r.keys, r.cells, !!r.total])).toEqual([
      [['East', 'NY'], ['', '', '', '', '5', '5', '5'], false],
      [['East', 'Subtotal'], ['', '', '', '', '5', '5', '5'], true],
      [['West', 'CA'], ['3', '2', '5', '', '', '', '5'], false],
      [['West', 'OR'], ['', '', '', '1', '', '1', '1'], false],
      [['West', 'Subtotal'], ['3', '2', '5', '1', '', '1', '6'], true],
      [['Total', ''], ['3', '2', '5', '1', '5', '6', '11'], true],
    ]);
    // The leading row headers span their group, subtotal row included.
    expect(p.rowSpans).toEqual([[2, 1], [0, 1], [3, 1], [0, 1], [0, 1], [1, 1]]);
    // Without the options nothing is added, and a single level has no groups to close.
    expect(pivot({ rows, rowCols: ['state'], colCols: ['gender'], metrics: ['n'], aggregate: 'Sum', rowTotals: false, colTotals: false, rowSubTotals: true, colSubTotals: true, format: String }).rows).toHaveLength(3);
  });

  it('gives the pivot as CSV rows with raw numbers: column headers spanned out, the row headers on the last header line', () => {
    const rows = [
      { state: 'CA', gender: 'boy', n: 3.5 },
      { state: 'CA', gender: 'girl', n: 2 },
      { state: 'NY', gender: 'boy', n: 5 },
    ];
    const formData = { viz_type: 'pivot_table_v2', groupbyRows: ['state'], groupbyColumns: ['gender'], metrics: ['n', 'm'], colTotals: true, valueFormat: ',.0f' };
    // By default (Superset's combineMetric false) each metric heads all the columns.
    expect(pivotCsvRows({ formData, queriesData: [{ data: rows.map((r) => ({ ...r, m: 1 })) } as never] })).toEqual([
      ['', 'n', '', 'm', ''],
      ['state', 'boy', 'girl', 'boy', 'girl'],
      ['CA', '3.5', '2', '1', '1'],
      ['NY', '5', '', '1', ''],
      ['Total', '8.5', '2', '2', '1'],
    ]);
    // 'Combine metrics' puts them side by side within each column.
    expect(pivotCsvRows({ formData: { ...formData, combineMetric: true }, queriesData: [{ data: rows.map((r) => ({ ...r, m: 1 })) } as never] })).toEqual([
      ['', 'boy', '', 'girl', ''],
      ['state', 'n', 'm', 'n', 'm'],
      ['CA', '3.5', '1', '2', '1'],
      ['NY', '5', '1', '', ''],
      ['Total', '8.5', '2', '2', '1'],
    ]);
  });
  it("names what the rows and columns are, as Superset's headers do: the row columns, each column level's column, and 'metric' for the metrics, even one", () => {
    const rows = [
      { state: 'CA', gender: 'boy', n: 3 },
      { state: 'NY', gender: 'girl', n: 5 },
    ];
    const p = pivotTable.transformProps({ formData: { viz_type: 'pivot_table_v2', groupbyRows: ['state'], groupbyColumns: ['gender'], metrics: ['n'], rowTotals: true }, queriesData: [{ data: rows } as any], datasource: null, theme: 'light', width: 400, height: 300 });
    expect(p.rowHeaders).toEqual(['state']);
    // Superset's default: the metric level on top (cols = [metric, ...columns]), its total among its columns.
    expect(p.columnNames).toEqual(['metric', 'gender']);
    expect(p.columnLevels).toEqual([
      [['n', 3]],
      [['boy', 1], ['girl', 1], ['Total', 1]],
    ]);
    const combined = pivotTable.transformProps({ formData: { viz_type: 'pivot_table_v2', groupbyRows: ['state'], groupbyColumns: ['gender'], metrics: ['n'], rowTotals: true, combineMetric: true }, queriesData: [{ data: rows } as any], datasource: null, theme: 'light', width: 400, height: 300 });
    expect(combined.columnNames).toEqual(['gender', 'metric']);
    expect(combined.columnLevels).toEqual([
      [['boy', 1], ['girl', 1], ['Total', 1]],
      [['n', 1], ['n', 1], ['n', 1]],
    ]);
    // Without column group-bys the metrics are the one level.
    const flat = pivotTable.transformProps({ formData: { viz_type: 'pivot_table_v2', groupbyRows: ['state'], metrics: ['n'] }, queriesData: [{ data: rows } as any], datasource: null, theme: 'light', width: 400, height: 300 });
    expect([flat.columnNames, flat.columnLevels]).toEqual([['metric'], [[['n', 1]]]]);
  });
});

describe("pivot table: 'Currency format'", () => {
  it('puts the symbol on every cell and total, in the value format', () => {
    const out = pivotTable.transformProps({ formData: { viz_type: 'pivot_table_v2', groupbyRows: ['state'], groupbyColumns: [], metrics: ['n'], valueFormat: ',.2f', colTotals: true, currency_format: { symbol: 'USD', symbolPosition: 'suffix' } }, queriesData: [{ data: [{ state: 'CA', n: 1234.5 }, { state: 'NY', n: 1 }], colnames: ['state', 'n'], coltypes: [1, 0] } as any], datasource: null, theme: 'light', width: 600, height: 400 });
    expect(JSON.stringify(out)).toContain('1,234.50 $');
    expect(JSON.stringify(out)).toContain('1,235.50 $');
  });
});

describe("pivot table: Superset's ordering, transposing, subtotal positions, aggregators and conditional formatting", () => {
  const rows = [
    { region: 'West', state: 'CA', gender: 'boy', n: 3 },
    { region: 'West', state: 'OR', gender: 'girl', n: 10 },
    { region: 'East', state: 'NY', gender: 'boy', n: 5 },
    { region: 'East', state: 'NJ', gender: 'girl', n: 1 },
  ];
  const run = (formData: Record<string, unknown>) =>
    pivotTable.transformProps({ formData: { viz_type: 'pivot_table_v2', groupbyRows: ['state'], groupbyColumns: ['gender'], metrics: ['n'], ...formData }, queriesData: [{ data: rows } as any], datasource: null, theme: 'light', width: 600, height: 400 });

  it("'Sort rows by' key a-z (the default), key z-a, value ascending and descending (the rows' aggregate over all columns)", () => {
    expect(run({}).rows.map((r) => r.keys[0])).toEqual(['CA', 'NJ', 'NY', 'OR']);
    expect(run({ rowOrder: 'key_z_to_a' }).rows.map((r) => r.keys[0])).toEqual(['OR', 'NY', 'NJ', 'CA']);
    expect(run({ rowOrder: 'value_a_to_z' }).rows.map((r) => r.keys[0])).toEqual(['NJ', 'CA', 'NY', 'OR']);
    expect(run({ rowOrder: 'value_z_to_a' }).rows.map((r) => r.keys[0])).toEqual(['OR', 'NY', 'CA', 'NJ']);
  });

  it("'Sort columns by' value: girl (11) before boy (8) descending; by value the groups keep together, each ordered by its total", () => {
    expect(run({ colOrder: 'value_z_to_a' }).columnLevels[1]!.map(([l]) => l)).toEqual(['girl', 'boy']);
    // East (6) before West (13) ascending, each group's states by their own value.
    const nested = run({ groupbyRows: ['region', 'state'], rowOrder: 'value_a_to_z' });
    expect(nested.rows.map((r) => r.keys)).toEqual([['East', 'NJ'], ['East', 'NY'], ['West', 'CA'], ['West', 'OR']]);
  });

  it("'Transpose pivot' swaps the rows' and the columns' group-bys", () => {
    const p = run({ transposePivot: true });
    expect(p.rows.map((r) => r.keys)).toEqual([['boy'], ['girl']]);
    expect(p.columnLevels[1]!.map(([l]) => l)).toEqual(['CA', 'NJ', 'NY', 'OR']);
    expect(p.rowHeaders).toEqual(['gender']);
  });

  it("'Rows subtotal position' Top opens each group with its subtotal; 'Columns subtotal position' Left puts it before the group's columns", () => {
    const top = run({ groupbyRows: ['region', 'state'], rowSubTotals: true, rowSubtotalPosition: true });
    expect(top.rows.map((r) => [r.keys, !!r.total])).toEqual([
      [['East', 'Subtotal'], true],
      [['East', 'NJ'], false],
      [['East', 'NY'], false],
      [['West', 'Subtotal'], true],
      [['West', 'CA'], false],
      [['West', 'OR'], false],
    ]);
    const left = run({ groupbyRows: ['gender'], groupbyColumns: ['region', 'state'], colSubTotals: true, colSubtotalPosition: true, combineMetric: true });
    expect(left.columnLevels[1]!.map(([l]) => l)).toEqual(['Subtotal', 'NJ', 'NY', 'Subtotal', 'CA', 'OR']);
    // Bottom / Right (Superset's default false) closes the groups instead.
    expect(run({ groupbyRows: ['region', 'state'], rowSubTotals: true }).rows[2]!.keys).toEqual(['East', 'Subtotal']);
  });

  it("offers Superset's numeric aggregators: Median, Sample Variance and Standard Deviation, Count Unique Values, First, Last", () => {
    expect(AGGREGATES.Median([5, 1, 3])).toBe(3);
    expect(AGGREGATES.Median([4, 1, 3, 2])).toBe(2.5);
    // The sample (n - 1) variance: of 1, 2, 3, 4 it is 5/3.
    expect(AGGREGATES['Sample Variance']([1, 2, 3, 4])).toBeCloseTo(5 / 3);
    expect(AGGREGATES['Sample Standard Deviation']([1, 2, 3, 4])).toBeCloseTo(Math.sqrt(5 / 3));
    expect(AGGREGATES['Sample Variance']([7])).toBeNull();
    expect(AGGREGATES['Count Unique Values']([1, 1, 2])).toBe(2);
    expect([AGGREGATES.First([4, 5, 6]), AGGREGATES.Last([4, 5, 6])]).toEqual([4, 6]);
    const median = run({ groupbyRows: [], groupbyColumns: ['gender'], aggregateFunction: 'Median', rowTotals: true });
    expect(median.rows[0]!.cells).toEqual(['4', '5.5', '4']);
  });

  it('colours the cells of a metric whose aggregated value meets a conditional formatting rule', () => {
    const p = run({ conditional_formatting: [{ column: 'n', operator: '≥', targetValue: 5, colorScheme: '#ACE1C4' }] });
    expect(p.rows.map((r) => r.backgrounds ?? [])).toEqual([[], [], ['#ACE1C433', undefined], [undefined, '#ACE1C433']]);
  });
});

describe("pivot table: 'Apply metrics on' Rows", () => {
  const rows = [
    { state: 'CA', gender: 'boy', n: 3, m: 30 },
    { state: 'CA', gender: 'girl', n: 2, m: 20 },
    { state: 'NY', gender: 'boy', n: 5, m: 50 },
  ];
  const run = (formData: Record<string, unknown>) =>
    pivotTable.transformProps({ formData: { viz_type: 'pivot_table_v2', groupbyRows: ['state'], groupbyColumns: ['gender'], metrics: ['n', 'm'], metricsLayout: 'ROWS', ...formData }, queriesData: [{ data: rows } as any], datasource: null, theme: 'light', width: 600, height: 400 });

  it('makes the metrics the top level of the rows, in their order, each over all the row keys; the columns carry no metric level', () => {
    const p = run({});
    expect(p.rowHeaders).toEqual(['metric', 'state']);
    expect(p.rows.map((r) => [r.keys, r.cells])).toEqual([
      [['n', 'CA'], ['3', '2']],
      [['n', 'NY'], ['5', '']],
      [['m', 'CA'], ['30', '20']],
      [['m', 'NY'], ['50', '']],
    ]);
    expect(p.columnLevels).toEqual([[['boy', 1], ['girl', 1]]]);
    expect(p.columnNames).toEqual(['gender']);
    // The metric's header spans its rows.
    expect(p.rowSpans.map((r) => r[0])).toEqual([2, 0, 2, 0]);
  });

  it("with 'Combine metrics' the metrics are the last row level, side by side within each row key", () => {
    expect(run({ combineMetric: true }).rows.map((r) => r.keys)).toEqual([['CA', 'n'], ['CA', 'm'], ['NY', 'n'], ['NY', 'm']]);
  });

  it("colours a row's cells by its own metric's rules", () => {
    const p = run({ conditional_formatting: [{ column: 'm', operator: '>', targetValue: 25, colorScheme: '#FF0000' }] });
    expect(p.rows.map((r) => r.backgrounds ?? [])).toEqual([[], [], ['#FF000033', undefined], ['#FF000033', undefined]]);
  });
});

describe("pivot table: the query's 'Sort by' and 'Sort Descending'", () => {
  it('orders the cells fetched by the first metric descending, or by the sort metric, ascending when asked', () => {
    const fd = { viz_type: 'pivot_table_v2', datasource: '1__table', groupbyRows: ['state'], metrics: ['n', 'm'] };
    expect(pivotTable.buildQuery(fd).queries[0]!.orderby).toEqual([['n', false]]);
    expect(pivotTable.buildQuery({ ...fd, series_limit_metric: 'm', order_desc: false }).queries[0]!.orderby).toEqual([['m', true]]);
  });
});

describe("pivot table: Superset's fraction aggregators", () => {
  const rows = [
    { state: 'CA', gender: 'boy', n: 3 },
    { state: 'CA', gender: 'girl', n: 1 },
    { state: 'NY', gender: 'boy', n: 4 },
  ];
  const run = (aggregate: string) =>
    pivot({ rows, rowCols: ['state'], colCols: ['gender'], metrics: ['n'], aggregate: aggregate as never, rowTotals: true, colTotals: true, format: (v) => (v === null ? '' : String(Math.round(v * 1000) / 1000)) }).rows.map((r) => r.cells);

  it('divides each Sum by the grand total, its row total or its column total (the totals read 1 along their own axis)', () => {
    expect(run('Sum as Fraction of Total')).toEqual([['0.375', '0.125', '0.5'], ['0.5', '', '0.5'], ['0.875', '0.125', '1']]);
    expect(run('Sum as Fraction of Rows')).toEqual([['0.75', '0.25', '1'], ['1', '', '1'], ['0.875', '0.125', '1']]);
    expect(run('Sum as Fraction of Columns')).toEqual([['0.429', '1', '0.5'], ['0.571', '', '0.5'], ['1', '1', '1']]);
  });

  it('and each Count likewise', () => {
    expect(run('Count as Fraction of Total')).toEqual([['0.333', '0.333', '0.667'], ['0.333', '', '0.333'], ['0.667', '0.333', '1']]);
    expect(fractionOf('Count as Fraction of Rows')).toEqual({ base: 'Count', of: 'Rows' });
    expect(fractionOf('Sum')).toBeNull();
  });
});

describe("pivot table: 'Time grain' on temporal grouping columns", () => {
  const fd = { viz_type: 'pivot_table_v2', datasource: '1__table', groupbyRows: ['ds'], groupbyColumns: ['gender'], metrics: ['n'], time_grain_sqla: 'P1Y' };
  it('puts a column the temporal_columns_lookup names at the grain, as a time axis column; others and an unset grain stay plain', () => {
    const q = pivotTable.buildQuery({ ...fd, temporal_columns_lookup: { ds: true } }).queries[0]!;
    expect(q.columns).toEqual([{ timeGrain: 'P1Y', columnType: 'BASE_AXIS', sqlExpression: 'ds', label: 'ds', expressionType: 'SQL' }, 'gender']);
    expect(pivotTable.buildQuery(fd).queries[0]!.columns).toEqual(['ds', 'gender']);
    expect(pivotTable.buildQuery({ ...fd, time_grain_sqla: null, temporal_columns_lookup: { ds: true } }).queries[0]!.columns).toEqual(['ds', 'gender']);
  });

  it("shows 'Time grain' only with a temporal or adhoc grouping column, and stores the dataset's temporal columns", () => {
    const controls = pivotTable.controlPanel.sections.flatMap((s) => s.controlSetRows.flat()).filter((c): c is any => typeof c !== 'string');
    const grain = controls.find((c) => c.name === 'time_grain_sqla');
    const lookup = controls.find((c) => c.name === 'temporal_columns_lookup');
    const datasource = { id: 1, type: 'table', name: 't', metrics: [], columns: [{ column_name: 'ds', is_dttm: true }, { column_name: 'gender' }] };
    expect(grain.override.visibility({ formData: { groupbyRows: ['gender'] }, datasource })).toBe(false);
    expect(grain.override.visibility({ formData: { groupbyRows: ['gender'], groupbyColumns: ['ds'] }, datasource })).toBe(true);
    expect(lookup.initialValue({ formData: {}, datasource })).toEqual({ ds: true });
  });
});
