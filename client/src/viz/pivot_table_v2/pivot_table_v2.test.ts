import { describe, expect, it } from 'vitest';
import pivotTable from './index';
import { pivot, pivotCsvRows } from './transform-props';

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
    expect(across.columnLevels[0]!.map(([label]) => label)).toEqual(['1999', '2000', '2001']);
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
    expect(across.columnLevels[0]).toEqual([['2000', 2], ['2000', 1]]);
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
    expect(pivotCsvRows({ formData, queriesData: [{ data: rows.map((r) => ({ ...r, m: 1 })) } as never] })).toEqual([
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
    expect(p.columnNames).toEqual(['gender', 'metric']);
    expect(p.columnLevels).toEqual([
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
