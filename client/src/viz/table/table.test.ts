import { describe, expect, it } from 'vitest';
import table, { orderByChoices } from './index';
import { cellBar, comparisonShown, comparisonStyle, comparisonValues, headerGroups, htmlCandidate, moveColumn, pickComparison, ruleMatches, summaryCells } from './transform-props';
import { hasHtmlTagPattern } from '../shared/html';
import { columnConfigColumns } from '../shared/column-config';

describe('table chart type', () => {
  it('aggregate mode orders by the first metric and adds percent metrics as contribution', () => {
    const q = table.buildQuery({ viz_type: 'table', datasource: '1__table', groupby: ['name'], metrics: ['sum__num'], percent_metrics: ['sum__num'], order_desc: true }).queries[0] as any;
    expect(q.columns).toEqual(['name']);
    expect(q.orderby).toEqual([['sum__num', false]]);
    expect(q.post_processing).toEqual([{ operation: 'contribution', options: { columns: ['sum__num'], rename_columns: ['%sum__num'] } }]);
  });

  it('raw mode queries the chosen columns with no metrics', () => {
    const q = table.buildQuery({ viz_type: 'table', datasource: '1__table', query_mode: 'raw', all_columns: ['name', 'num'] }).queries[0] as any;
    expect(q.columns).toEqual(['name', 'num']);
    expect(q.metrics).toEqual([]);
  });

  it('formats metrics and colours cells by the conditional formatting rules', () => {
    const out = table.transformProps({
      formData: { viz_type: 'table', metrics: ['sum__num'], groupby: ['name'], number_format: ',d', conditional_formatting: [{ column: 'sum__num', operator: '>', targetValue: 100, colorScheme: '#ff0000' }] },
      queriesData: [{ data: [{ name: 'a', sum__num: 1500 }, { name: 'b', sum__num: 50 }], colnames: ['name', 'sum__num'], coltypes: [1, 0] } as any],
      datasource: null,
      theme: 'light',
      width: 400,
      height: 300,
    });
    const metric = out.columns[1]!;
    expect(out.format(metric, 1500)).toBe('1,500');
    expect(out.background(metric, 1500)).toBe('#ff000033');
    expect(out.background(metric, 50)).toBeUndefined();
    expect(metric.maxAbs).toBe(1500);
    expect(ruleMatches({ column: 'x', operator: '≤ x ≤', targetValueLeft: 1, targetValueRight: 3, colorScheme: '' }, 3)).toBe(true);
  });

  it("places cell bars as Superset's table does: one axis at the negative values' share, or all from the left with align_pn", () => {
    // Only positive values: every bar starts at the cell's left edge, its length its share of the largest.
    const positive = { min: 50, max: 1500, maxAbs: 1500 };
    expect(cellBar(1500, positive, false)).toEqual({ offset: 0, width: 100 });
    expect(cellBar(750, positive, false)).toEqual({ offset: 0, width: 50 });
    // -100 to 300: the axis at 25%; a negative bar ends at it, a positive one starts there.
    const mixed = { min: -100, max: 300, maxAbs: 300 };
    expect(cellBar(-100, mixed, false)).toEqual({ offset: 0, width: 25 });
    expect(cellBar(-50, mixed, false)).toEqual({ offset: 12.5, width: 12.5 });
    expect(cellBar(300, mixed, false)).toEqual({ offset: 25, width: 75 });
    // align_pn: from the left edge, by absolute value against the largest absolute value.
    expect(cellBar(-150, mixed, true)).toEqual({ offset: 0, width: 50 });
    expect(cellBar(0, { min: 0, max: 0, maxAbs: 0 }, false)).toBeNull();
  });

  it("applies a column's own settings (column_config) over the chart-wide ones", () => {
    const out = table.transformProps({
      formData: {
        viz_type: 'table',
        groupby: ['ds', 'name'],
        metrics: ['sum__num', 'avg__num'],
        number_format: ',d',
        table_timestamp_format: '%Y-%m-%d',
        show_cell_bars: true,
        color_pn: true,
        column_config: {
          sum__num: { d3NumberFormat: '$,.2f', d3SmallNumberFormat: '.1%', horizontalAlign: 'center', columnWidth: 120, showCellBars: false, alignPositiveNegative: true, colorPositiveNegative: false },
          ds: { d3TimeFormat: '%Y' },
          name: { truncateLongCells: true, columnWidth: 60 },
        },
      },
      queriesData: [{ data: [{ ds: Date.UTC(2020, 5, 1), name: 'a', sum__num: 1500, avg__num: 1500 }], colnames: ['ds', 'name', 'sum__num', 'avg__num'], coltypes: [2, 1, 0, 0] } as any],
      datasource: null,
      theme: 'light',
      width: 400,
      height: 300,
    });
    const [ds, name, sum, avg] = out.columns as [any, any, any, any];
    expect(out.format(sum, 1500)).toBe('$1,500.00');
    expect(out.format(sum, 0.25)).toBe('25.0%');
    expect(out.format(avg, 1500)).toBe('1,500');
    expect(out.format(ds, Date.UTC(2020, 5, 1))).toBe('2020');
    expect(sum).toMatchObject({ align: 'center', width: 120, showCellBars: false, alignPn: true, colorPn: false, truncate: false });
    expect(avg).toMatchObject({ align: 'right', width: undefined, showCellBars: true, alignPn: false, colorPn: true });
    expect(name).toMatchObject({ align: 'left', width: 60, truncate: true });
  });

  it("lists the columns 'Customize columns' sets: group-bys, metrics, percent metrics, or raw columns; the radar's only metrics", () => {
    const datasource = { id: 1, type: 'table', name: 't', columns: [{ column_name: 'ds', is_dttm: true }, { column_name: 'num', type: 'BIGINT' }, { column_name: 'name', type: 'VARCHAR', verbose_name: 'Name' }], metrics: [], verbose_map: { sum__num: 'Births' } };
    const formData = { viz_type: 'table', groupby: ['ds', 'name'], metrics: ['sum__num', { expressionType: 'SQL', sqlExpression: 'COUNT(*)', label: 'rows' }], percent_metrics: ['sum__num'] };
    expect(columnConfigColumns({ formData, datasource }).map((c) => [c.key, c.label, c.kind])).toEqual([
      ['ds', 'ds', 'temporal'],
      ['name', 'Name', 'string'],
      ['sum__num', 'Births', 'numeric'],
      ['rows', 'rows', 'numeric'],
      ['%sum__num', '%Births', 'numeric'],
    ]);
    expect(columnConfigColumns({ formData: { ...formData, query_mode: 'raw', all_columns: ['num', 'name'] }, datasource }).map((c) => c.kind)).toEqual(['numeric', 'string']);
    expect(columnConfigColumns({ formData, datasource }, 'metrics').map((c) => c.key)).toEqual(['sum__num', 'rows']);
  });
});

describe("table: a column's 'Currency format' (column_config's currencyFormat, as Superset's)", () => {
  const draw = (column_config: Record<string, unknown>) =>
    table.transformProps({
      formData: { viz_type: 'table', groupby: ['name'], metrics: ['sum__num'], percent_metrics: ['sum__num'], number_format: ',d', column_config },
      queriesData: [{ data: [{ name: 'a', num: 7, sum__num: 1500, '%sum__num': 0.25 }], colnames: ['name', 'num', 'sum__num', '%sum__num'], coltypes: [1, 0, 0, 0] } as any],
      datasource: null,
      theme: 'light',
      width: 400,
      height: 300,
    });

  it("adds the symbol to the column's own format, its small number format, or else the chart's number format", () => {
    const out = draw({ sum__num: { currencyFormat: { symbol: 'USD', symbolPosition: 'prefix' } } });
    const sum = out.columns.find((c) => c.key === 'sum__num')!;
    expect(out.format(sum, 1500)).toBe('$ 1,500');
    const own = draw({ sum__num: { d3NumberFormat: '$,.2f', d3SmallNumberFormat: '.3f', currencyFormat: { symbol: 'EUR', symbolPosition: 'suffix' } } });
    expect(own.format(sum, 1500)).toBe('1,500.00 €');
    expect(own.format(sum, 0.25)).toBe('0.250 €');
  });

  it('a numeric column that is no metric reads in the adaptive format with it; a percent metric takes none', () => {
    const out = draw({ num: { currencyFormat: { symbol: 'GBP', symbolPosition: 'prefix' } }, '%sum__num': { currencyFormat: { symbol: 'GBP', symbolPosition: 'prefix' } } });
    expect(out.format(out.columns.find((c) => c.key === 'num')!, 7)).toBe('£ 7');
    expect(out.format(out.columns.find((c) => c.key === '%sum__num')!, 0.25)).toBe('25.00%');
    // A column without a symbol is as before.
    expect(draw({ sum__num: { currencyFormat: { symbolPosition: 'prefix' } } }).format(out.columns.find((c) => c.key === 'sum__num')!, 1500)).toBe('1,500');
  });

  it("offers it in 'Customize columns' for numeric columns, after the small number format", async () => {
    const { DEFAULT_CONFIG_FORM_LAYOUT } = await import('../shared/column-config');
    const rows = DEFAULT_CONFIG_FORM_LAYOUT.numeric!.map((r) => r.join());
    expect(rows.indexOf('currencyFormat')).toBe(rows.indexOf('d3SmallNumberFormat') + 1);
  });
});


describe("table: Superset's 'Show summary', 'Align +/-' and option labels", () => {
  const fd = { viz_type: 'table', datasource: '1__table', groupby: ['state'], metrics: ['sum__num'], row_limit: 10 };

  it("'Show summary' (show_totals) adds a query of the metrics with no group-by, order or row limit, read as the summary row", () => {
    expect(table.buildQuery(fd).queries).toHaveLength(1);
    const queries = table.buildQuery({ ...fd, show_totals: true }).queries;
    expect(queries).toHaveLength(2);
    expect(queries[1]).toMatchObject({ columns: [], row_limit: 0, orderby: [], post_processing: [] });
    expect(queries[1]!.metrics).toEqual(queries[0]!.metrics);
    // Raw records have no totals.
    expect(table.buildQuery({ ...fd, query_mode: 'raw', all_columns: ['state'], show_totals: true }).queries).toHaveLength(1);
    const answer = [{ data: [{ state: 'CA', sum__num: 3 }], colnames: ['state', 'sum__num'], coltypes: [1, 0] }, { data: [{ sum__num: 42 }], colnames: ['sum__num'], coltypes: [0] }] as any;
    const out = table.transformProps({ formData: { ...fd, show_totals: true }, queriesData: answer, datasource: null, theme: 'light', width: 400, height: 300 });
    expect(out.totals).toEqual({ sum__num: 42 });
    expect(table.transformProps({ formData: fd, queriesData: answer, datasource: null, theme: 'light', width: 400, height: 300 }).totals).toBeNull();
  });

  it("names the summary row 'Summary' under the chart's first column, even a metric, and keeps it there when the reader drags columns", () => {
    const draw = (formData: Record<string, unknown>, colnames: string[]) =>
      table.transformProps({ formData: { ...fd, show_totals: true, ...formData }, queriesData: [{ data: [{ state: 'CA', sum__num: 3, avg: 1 }], colnames, coltypes: colnames.map((c) => (c === 'state' ? 1 : 0)) }, { data: [{ sum__num: 42, avg: 7 }], colnames: ['sum__num', 'avg'], coltypes: [0, 0] }] as any, datasource: null, theme: 'light', width: 400, height: 300 });
    const grouped = draw({}, ['state', 'sum__num']);
    const [state, sum] = grouped.columns as [any, any];
    expect(summaryCells([state, sum], grouped)).toEqual(['Summary', '42']);
    // A metric dragged before the group-by: the label stays with the chart's first column, the metric keeps its total.
    expect(summaryCells([sum, state], grouped)).toEqual(['42', 'Summary']);
    // Metrics only: the first metric's cell names the row (Superset's footer), the others give their totals.
    const metricsOnly = draw({ groupby: [], metrics: ['sum__num', 'avg'] }, ['sum__num', 'avg']);
    expect(summaryCells(metricsOnly.columns, metricsOnly)).toEqual(['Summary', '7']);
  });

  it("offers 'Align +/-' (align_pn, off), 'Add colors to cell bars for +/-' (on) and 'Show Cell bars' under 'Visual formatting', as Superset's", () => {
    const controls = table.controlPanel.sections.flatMap((s) => s.controlSetRows.flat()).filter((c): c is any => typeof c !== 'string');
    const byName = (n: string) => controls.find((c) => c.name === n);
    expect([byName('align_pn')?.label, byName('align_pn')?.default]).toEqual(['Align +/-', false]);
    expect([byName('color_pn')?.label, byName('color_pn')?.default]).toEqual(['Add colors to cell bars for +/-', true]);
    expect(byName('show_cell_bars')?.label).toBe('Show Cell bars');
    expect(byName('show_totals')?.label).toBe('Show summary');
    const visual = table.controlPanel.sections.find((s) => s.label === 'Visual formatting')!.controlSetRows.flat().map((c: any) => c.name);
    expect(visual).toEqual(['show_cell_bars', 'align_pn', 'color_pn', 'comparison_color_enabled', 'comparison_color_scheme', 'conditional_formatting']);
    expect(byName('show_totals')?.visibility({ formData: { query_mode: 'raw' } })).toBe(false);
  });
});

describe("table: Superset's 'Ordering', 'Timestamp format' and 'Allow columns to be rearranged'", () => {
  const controls = () => table.controlPanel.sections.flatMap((s) => s.controlSetRows.flat()).filter((c): c is any => typeof c !== 'string');
  const byName = (n: string) => controls().find((c) => c.name === n);

  it("raw mode's 'Ordering' offers each column ascending and descending as Superset's order_by_choices, which the query orders by", () => {
    const ds = { id: 1, type: 'table', name: 't', columns: [{ column_name: 'num' }, { column_name: 'name' }], metrics: [] };
    expect(orderByChoices({ formData: { viz_type: 'table' }, datasource: ds })).toEqual([
      ['["name",true]', 'name [asc]'],
      ['["name",false]', 'name [desc]'],
      ['["num",true]', 'num [asc]'],
      ['["num",false]', 'num [desc]'],
    ]);
    expect(byName('order_by_cols').visibility({ formData: { query_mode: 'aggregate' } })).toBe(false);
    const q = table.buildQuery({ viz_type: 'table', datasource: '1__table', query_mode: 'raw', all_columns: ['name', 'num'], order_by_cols: ['["num",false]'] }).queries[0]!;
    expect(q.orderby).toEqual([['num', false]]);
  });

  it("reads times in the adaptive format by default (Superset's smart_date), else in the one chosen", () => {
    const answer = [{ data: [{ ds: Date.UTC(2020, 0, 1) }], colnames: ['ds'], coltypes: [2] }] as any;
    const run = (fd: Record<string, unknown>) => {
      const out = table.transformProps({ formData: { viz_type: 'table', query_mode: 'raw', all_columns: ['ds'], ...fd }, queriesData: answer, datasource: null, theme: 'light', width: 400, height: 300 });
      return out.format(out.columns[0]!, Date.UTC(2020, 0, 1));
    };
    expect(byName('table_timestamp_format').default).toBe('smart_date');
    expect(run({})).toBe('2020');
    expect(run({ table_timestamp_format: '%Y-%m-%d' })).toBe('2020-01-01');
  });

  it('a dragged column takes the place of the one it is dropped on', () => {
    expect(moveColumn(['a', 'b', 'c', 'd'], 'a', 'c')).toEqual(['b', 'c', 'a', 'd']);
    expect(moveColumn(['a', 'b', 'c', 'd'], 'd', 'b')).toEqual(['a', 'd', 'b', 'c']);
    expect(moveColumn(['a', 'b'], 'a', 'a')).toEqual(['a', 'b']);
    const rearrange = byName('allow_rearrange_columns');
    expect([rearrange.label, rearrange.default]).toEqual(['Allow columns to be rearranged', false]);
    // Hidden while a time comparison is set, as Superset's.
    expect([rearrange.visibility({ formData: {} }), rearrange.visibility({ formData: { time_compare: ['1 year ago'] } })]).toEqual([true, false]);
  });
});

describe("table: 'Server pagination' (server_pagination, server_page_length), as Superset's", () => {
  const fd = { viz_type: 'table', datasource: '1__table', groupby: ['name'], metrics: ['sum__num'], row_limit: 50, server_pagination: true };
  const controls = () => table.controlPanel.sections.flatMap((s) => s.controlSetRows.flat()).filter((c): c is any => typeof c !== 'string');
  const byName = (n: string) => controls().find((c) => c.name === n);

  it("asks for the first page of 'Server Page Length' rows, then the same query with is_rowcount for the total, then the summary", () => {
    const [page, count, totals, ...rest] = table.buildQuery({ ...fd, show_totals: true }).queries;
    expect(rest).toEqual([]);
    expect(page).toMatchObject({ row_limit: 10, row_offset: 0, columns: ['name'] });
    expect(page!.is_rowcount).toBeUndefined();
    // The count reads every row within the row limit, with no post-processing or time offsets.
    expect(count).toMatchObject({ is_rowcount: true, row_limit: 50, row_offset: 0, post_processing: [], time_offsets: [], columns: ['name'] });
    expect(totals).toMatchObject({ columns: [], row_limit: 0, row_offset: 0 });
    // Without it: one query of every row up to the row limit.
    expect(table.buildQuery({ ...fd, server_pagination: false }).queries).toEqual([expect.objectContaining({ row_limit: 50 })]);
  });

  it("asks for the page and size of the chart's own state (ownState currentPage, pageSize), never past the row limit", () => {
    const query = (ownState: Record<string, unknown>) => table.buildQuery(fd, { ownState }).queries[0];
    expect(query({ currentPage: 1, pageSize: 20 })).toMatchObject({ row_offset: 20, row_limit: 20 });
    // The last page within the row limit of 50 holds 10 rows; a page beyond it reads as the last.
    expect(query({ currentPage: 2, pageSize: 20 })).toMatchObject({ row_offset: 40, row_limit: 10 });
    expect(query({ currentPage: 9, pageSize: 20 })).toMatchObject({ row_offset: 40, row_limit: 10 });
    // 'All': every row within the row limit.
    expect(query({ currentPage: 3, pageSize: 0 })).toMatchObject({ row_offset: 0, row_limit: 50 });
    expect(table.buildQuery({ ...fd, server_page_length: 25 }).queries[0]).toMatchObject({ row_offset: 0, row_limit: 25 });
  });

  it("orders the page by the header the reader sorted (ownState sortBy): a metric as the form has it, a group-by; not a percent metric", () => {
    const adhoc = { expressionType: 'SQL', sqlExpression: 'COUNT(*)', label: 'rows' };
    const orderby = (key: string, desc: boolean) => table.buildQuery({ ...fd, metrics: ['sum__num', adhoc], percent_metrics: ['sum__num'] }, { ownState: { sortBy: [{ id: key, key, desc }] } }).queries[0]!.orderby;
    expect(orderby('rows', true)).toEqual([[adhoc, false]]);
    expect(orderby('name', false)).toEqual([['name', true]]);
    // The default order (the first metric, descending) when the column is not one the database gives.
    expect(orderby('%sum__num', true)).toEqual([['sum__num', false]]);
    // The order is the reader's only with server pagination on.
    expect(table.buildQuery({ ...fd, server_pagination: false }, { ownState: { sortBy: [{ id: 'name', key: 'name', desc: false }] } }).queries[0]!.orderby).toEqual([['sum__num', false]]);
  });

  it('a download asks for every row up to the row limit, not the page', () => {
    for (const extra of [{ result_format: 'csv' }, { result_format: 'xlsx' }, { result_format: 'json', result_type: 'results' }]) {
      const queries = table.buildQuery({ ...fd, ...extra }, { ownState: { currentPage: 3, pageSize: 10 } }).queries;
      expect(queries).toHaveLength(1);
      expect(queries[0]).toMatchObject({ row_limit: 50, row_offset: 0 });
    }
  });

  it('reads the total from the is_rowcount answer and the summary from the third; the page and size from the own state', () => {
    const answer = [
      { data: [{ name: 'a', sum__num: 3 }], colnames: ['name', 'sum__num'], coltypes: [1, 0] },
      { data: [{ rowcount: 95 }], colnames: ['rowcount'], coltypes: [0] },
      { data: [{ sum__num: 42 }], colnames: ['sum__num'], coltypes: [0] },
    ] as any;
    const out = table.transformProps({ formData: { ...fd, show_totals: true, percent_metrics: ['sum__num'] }, queriesData: answer, datasource: null, theme: 'light', width: 400, height: 300, ownState: { currentPage: 4, pageSize: 20, sortBy: [{ id: 'name', key: 'name', desc: true }] } });
    expect(out.server).toEqual({ rowCount: 95, currentPage: 2, pageSize: 20, sortBy: { id: 'name', key: 'name', desc: true }, sortable: ['name', 'sum__num'], searchText: '', searchColumn: 'name', searchOptions: ['name'] });
    expect(out.totals).toEqual({ sum__num: 42 });
    expect(out.pageLength).toBe(10);
    expect(table.transformProps({ formData: { ...fd, server_pagination: false }, queriesData: answer, datasource: null, theme: 'light', width: 400, height: 300 }).server).toBeNull();
  });

  it("searches on the server (ownState searchText, searchColumn) as Superset's buildQuery: 'op: ILIKE, val: `${searchText}%`' in the page, the count and the summary", () => {
    const ownState = { currentPage: 2, pageSize: 10, searchText: 'Jo', searchColumn: 'name' };
    const queries = table.buildQuery({ ...fd, show_totals: true, adhoc_filters: [{ expressionType: 'SIMPLE', clause: 'WHERE', subject: 'gender', operator: '==', comparator: 'boy' }] }, { ownState }).queries;
    expect(queries).toHaveLength(3);
    // Beside the chart's own filters.
    for (const q of queries) expect([q.filters, (q.adhoc_filters as any[]).length]).toEqual([[{ col: 'name', op: 'ILIKE', val: 'Jo%' }], 1]);
    expect(queries[1]).toMatchObject({ is_rowcount: true, row_limit: 50 });
    // No text, no column, or no server pagination: no search filter (the table then searches the rows it has).
    const filters = (formData: typeof fd, own: Record<string, unknown>) => table.buildQuery(formData, { ownState: own }).queries[0]!.filters;
    expect(filters(fd, { ...ownState, searchText: '' })).toEqual([]);
    expect(filters(fd, { searchText: 'Jo' })).toEqual([]);
    expect(filters({ ...fd, server_pagination: false }, ownState)).toEqual([]);
  });

  it("offers 'Search by' the text columns drawn, the first until another is picked (Superset's searchOptions of alphanumeric columns)", () => {
    const answer = [
      { data: [{ name: 'a', gender: 'boy', sum__num: 3 }], colnames: ['name', 'gender', 'sum__num'], coltypes: [1, 1, 0] },
      { data: [{ rowcount: 4 }], colnames: ['rowcount'], coltypes: [0] },
    ] as any;
    const server = (ownState: Record<string, unknown>) => table.transformProps({ formData: { ...fd, groupby: ['name', 'gender'] }, queriesData: answer, datasource: null, theme: 'light', width: 400, height: 300, ownState }).server!;
    expect(server({})).toMatchObject({ searchOptions: ['name', 'gender'], searchColumn: 'name', searchText: '', rowCount: 4 });
    expect(server({ searchColumn: 'gender', searchText: 'bo' })).toMatchObject({ searchColumn: 'gender', searchText: 'bo' });
    // A column no longer drawn reads as the first.
    expect(server({ searchColumn: 'state' }).searchColumn).toBe('name');
  });

  it("offers 'Server pagination' (off) and, with it on, 'Server Page Length' (10) in place of 'Page length'", () => {
    expect([byName('server_pagination').label, byName('server_pagination').default, byName('server_pagination').description]).toEqual(['Server pagination', false, 'Enable server side pagination of results (experimental feature)']);
    const length = byName('server_page_length');
    expect([length.label, length.default, length.freeForm]).toEqual(['Server Page Length', 10, true]);
    expect([length.visibility({ formData: {} }), length.visibility({ formData: { server_pagination: true } })]).toEqual([false, true]);
    expect([byName('page_length').visibility({ formData: {} }), byName('page_length').visibility({ formData: { server_pagination: true } })]).toEqual([true, false]);
  });
});

describe("table: 'Render columns in HTML format' (allow_render_html), as Superset's", () => {
  const answer = [{ data: [{ name: '<b>a</b>', num: 1, ds: 0 }], colnames: ['name', 'num', 'ds'], coltypes: [1, 0, 2] }] as any;
  const draw = (formData: Record<string, unknown>) => table.transformProps({ formData: { viz_type: 'table', query_mode: 'raw', all_columns: ['name', 'num', 'ds'], ...formData }, queriesData: answer, datasource: null, theme: 'light', width: 400, height: 300 });

  it('is on by default: text cells of columns no number or time format reads may be HTML; off, every cell is text', () => {
    const out = draw({});
    const [name, num, ds] = out.columns as [any, any, any];
    expect(out.renderHtml).toBe(true);
    expect(htmlCandidate(name, '<a href="x">x</a>', out.renderHtml)).toBe('<a href="x">x</a>');
    expect([htmlCandidate(num, '<p>1</p>', true), htmlCandidate(ds, '<p>1</p>', true), htmlCandidate(name, 5, true)]).toEqual([null, null, null]);
    expect(htmlCandidate(name, '<a href="x">x</a>', draw({ allow_render_html: false }).renderHtml)).toBeNull();
    const control = table.controlPanel.sections.flatMap((s) => s.controlSetRows.flat()).find((c: any) => c.name === 'allow_render_html') as any;
    expect([control.label, control.default, control.renderTrigger, control.description]).toEqual(['Render columns in HTML format', true, true, 'Render data in HTML format if applicable.']);
  });

  it("reads as HTML only text with a common tag's opening (Superset's hasHtmlTagPattern)", () => {
    expect(['<a href="https://example.com">site</a>', '<div>x</div>', '<P>x', '<script>x</script>', '<span style="color:red">r</span>'].map(hasHtmlTagPattern)).toEqual([true, true, true, true, true]);
    expect(['a < b', '3 <> 4', 'x<y>z', '<b>bold</b>', 'plain'].map(hasHtmlTagPattern)).toEqual([false, false, false, false, false]);
  });
});

describe("table: 'Time Comparison' (time_compare, comparison_type), as Superset's", () => {
  const fd = { viz_type: 'table', datasource: '1__table', groupby: ['gender'], metrics: ['sum__num'], time_compare: '1 year ago', comparison_type: 'values', show_totals: true };
  const answer = [
    { data: [{ gender: 'boy', sum__num: 150, 'sum__num__1 year ago': 100 }, { gender: 'girl', sum__num: 0, 'sum__num__1 year ago': 40 }], colnames: ['gender', 'sum__num', 'sum__num__1 year ago'], coltypes: [1, 0, 0] },
    { data: [{ sum__num: 150, 'sum__num__1 year ago': 140 }], colnames: ['sum__num', 'sum__num__1 year ago'], coltypes: [0, 0] },
  ] as any;

  it('asks for the shifted period beside the main one (time_offsets), the summary too; not in raw mode nor for the row count', () => {
    const [main, totals] = table.buildQuery(fd).queries;
    expect(main).toMatchObject({ time_offsets: ['1 year ago'] });
    // 'Actual values' come as they are: no compare operation.
    expect(main!.post_processing ?? []).toEqual([]);
    expect(totals).toMatchObject({ time_offsets: ['1 year ago'], columns: [] });
    expect(table.buildQuery({ ...fd, server_pagination: true }).queries[1]).toMatchObject({ is_rowcount: true, time_offsets: [] });
    expect(table.buildQuery({ ...fd, query_mode: 'raw', all_columns: ['gender'] }).queries[0]!.time_offsets).toEqual([]);
    expect(table.buildQuery({ ...fd, time_compare: null }).queries[0]!.time_offsets).toEqual([]);
    // Another calculation type: Superset's compare operation over the metric and its shifted twin.
    expect(table.buildQuery({ ...fd, comparison_type: 'difference' }).queries[0]!.post_processing).toEqual([
      { operation: 'compare', options: { source_columns: ['sum__num'], compare_columns: ['sum__num__1 year ago'], compare_type: 'difference', drop_original_columns: true } },
    ]);
  });

  it("shows each metric as 'Main', '#', '△' and '%' under its name, the summary compared too", () => {
    const out = table.transformProps({ formData: fd, queriesData: answer, datasource: { id: 1, type: 'table', name: 't', columns: [], metrics: [], verbose_map: { sum__num: 'Births' } }, theme: 'light', width: 400, height: 300 });
    expect(out.columns.map((c) => [c.key, c.label])).toEqual([['gender', 'gender'], ['Main sum__num', 'Main'], ['# sum__num', '#'], ['△ sum__num', '△'], ['% sum__num', '%']]);
    expect(headerGroups(out.columns)).toEqual([{ group: null, metric: null, span: 1 }, { group: 'Births', metric: 'sum__num', span: 4 }]);
    expect(out.rows[0]).toEqual({ gender: 'boy', 'Main sum__num': 150, '# sum__num': 100, '△ sum__num': 50, '% sum__num': 0.5 });
    // Nothing now against 40 a year before: -100%.
    expect(out.rows[1]).toMatchObject({ '△ sum__num': -40, '% sum__num': -1 });
    const byKey = (k: string) => out.columns.find((c) => c.key === k)!;
    expect([out.format(byKey('% sum__num'), 0.5), out.format(byKey('△ sum__num'), 50)]).toEqual(['50.000%', '50']);
    expect(summaryCells(out.columns, out)).toEqual(['Summary', '150', '140', '10', '7.143%']);
    expect(out.rearrangeColumns).toBe(false);
    expect(comparisonValues(0, 0)).toEqual({ difference: 0, change: 0 });
  });

  it("offers 'Time shift' (Superset's reduced choices with 'Custom date' and 'Inherit range from time filter'), 'Shift start date' for a custom one, and 'Calculation type'", () => {
    const section = table.controlPanel.sections.find((s) => s.label === 'Time Comparison')!;
    const [shift, start, type, range] = section.controlSetRows.flat() as any[];
    expect([section.description, shift.name, shift.label, shift.multi, start.name, start.type, start.label, type.name, type.label, type.default]).toEqual(['Compare results with other time periods.', 'time_compare', 'Time shift', undefined, 'start_date_offset', 'TimeOffsetControl', 'Shift start date', 'comparison_type', 'Calculation type', 'values']);
    expect(shift.choices).toEqual([['1 day ago', '1 day ago'], ['1 week ago', '1 week ago'], ['1 month ago', '1 month ago'], ['1 year ago', '1 year ago'], ['custom', 'Custom date'], ['inherit', 'Inherit range from time filter']]);
    expect(shift.visibility({ formData: { query_mode: 'raw' } })).toBe(false);
    // The start date is asked for only with 'Custom date', and required then (Superset's 'A date is required when using custom date shift').
    const ctx = (time_compare: string) => ({ formData: { query_mode: 'aggregate', time_compare }, datasource: null });
    expect([start.visibility(ctx('custom')), start.visibility(ctx('inherit'))]).toEqual([true, false]);
    expect([start.validators[0]('', ctx('custom')), start.validators[0]('2024-01-01', ctx('custom')), start.validators[0]('', ctx('1 year ago'))]).toEqual(['A date is required when using custom date shift', false, false]);
    // 'Actual range for comparison' once there is a shift and a time range to move.
    expect([range.type, range.label]).toEqual(['ComparisonRangeLabel', 'Actual range for comparison']);
    const withRange = (extra: Record<string, unknown>) => range.visibility({ formData: { query_mode: 'aggregate', time_range: '2000-01-01 : 2001-01-01', ...extra }, datasource: null });
    expect([withRange({ time_compare: 'inherit' }), withRange({ time_compare: 'custom' }), withRange({ time_compare: 'inherit', time_range: 'No filter' })]).toEqual([true, false, false]);
  });

  it("'Custom date' sends the start date (start_date_offset) as the offset and 'Inherit range from time filter' sends 'inherit', as Superset's buildQuery", () => {
    const offsets = (extra: Record<string, unknown>) => table.buildQuery({ ...fd, ...extra }).queries.map((q) => q.time_offsets);
    expect(offsets({ time_compare: 'custom', start_date_offset: '2024-01-01' })).toEqual([['2024-01-01'], ['2024-01-01']]);
    expect(offsets({ time_compare: 'inherit' })).toEqual([['inherit'], ['inherit']]);
    // No date yet: nothing to compare with.
    expect(offsets({ time_compare: 'custom', start_date_offset: null })).toEqual([[], []]);
    expect(table.buildQuery({ ...fd, time_compare: 'inherit', comparison_type: 'percentage' }).queries[0]!.post_processing).toEqual([
      { operation: 'compare', options: { source_columns: ['sum__num'], compare_columns: ['sum__num__inherit'], compare_type: 'percentage', drop_original_columns: true } },
    ]);
  });

  it("reads the shifted metrics by the offset's name: the custom start date's (m__2024-01-01) or 'inherit' (m__inherit)", () => {
    const renamed = (suffix: string) => answer.map((r: any) => ({ ...r, data: r.data.map((d: any) => Object.fromEntries(Object.entries(d).map(([k, v]) => [k.replace('1 year ago', suffix), v]))), colnames: r.colnames.map((c: string) => c.replace('1 year ago', suffix)) }));
    const props = (extra: Record<string, unknown>, suffix: string) => table.transformProps({ formData: { ...fd, ...extra }, queriesData: renamed(suffix), datasource: null as any, theme: 'light', width: 400, height: 300 });
    for (const [extra, suffix] of [[{ time_compare: 'custom', start_date_offset: '2024-01-01' }, '2024-01-01'], [{ time_compare: 'inherit' }, 'inherit']] as const) {
      const out = props(extra, suffix);
      expect(out.comparing).toBe(true);
      expect(out.rows[0]).toEqual({ gender: 'boy', 'Main sum__num': 150, '# sum__num': 100, '△ sum__num': 50, '% sum__num': 0.5 });
    }
  });
});

describe("table: percentage metrics in a time comparison, as Superset's addComparisonPercentMetrics and processComparisonDataRecords", () => {
  const fd = { viz_type: 'table', datasource: '1__table', groupby: ['gender'], metrics: ['sum__num'], percent_metrics: ['sum__num'], time_compare: '1 year ago', comparison_type: 'values' };

  it("takes each percentage metric's shifted twin's share too (contribution of m and m__1 year ago)", () => {
    expect(table.buildQuery(fd).queries[0]!.post_processing).toEqual([
      { operation: 'contribution', options: { columns: ['sum__num', 'sum__num__1 year ago'], rename_columns: ['%sum__num', '%sum__num__1 year ago'] } },
    ]);
  });

  it("shows '%m' as 'Main', '#', '△' and '%' under '%' and the metric's name, shares formatted as percentages", () => {
    const answer = [{ data: [{ gender: 'boy', sum__num: 150, 'sum__num__1 year ago': 100, '%sum__num': 0.75, '%sum__num__1 year ago': 0.5 }], colnames: ['gender', 'sum__num', 'sum__num__1 year ago', '%sum__num', '%sum__num__1 year ago'], coltypes: [1, 0, 0, 0, 0] }] as any;
    const out = table.transformProps({ formData: fd, queriesData: answer, datasource: { id: 1, type: 'table', name: 't', columns: [], metrics: [], verbose_map: { sum__num: 'Births' } }, theme: 'light', width: 400, height: 300 });
    expect(headerGroups(out.columns).map((g) => [g.group, g.span])).toEqual([[null, 1], ['Births', 4], ['%Births', 4]]);
    expect(out.rows[0]).toMatchObject({ 'Main %sum__num': 0.75, '# %sum__num': 0.5, '△ %sum__num': 0.25, '% %sum__num': 0.5 });
    const col = (k: string) => out.columns.find((c) => c.key === k)!;
    expect([out.format(col('Main %sum__num'), 0.75), out.format(col('△ %sum__num'), 0.25), out.format(col('% %sum__num'), 0.5)]).toEqual(['75.00%', '25.00%', '50.000%']);
  });
});

describe("table: the comparison columns' display, as Superset's TimeComparisonDropdown, grouping headers and basic conditional formatting", () => {
  const fd = { viz_type: 'table', datasource: '1__table', groupby: ['gender'], metrics: ['sum__num'], time_compare: '1 year ago', comparison_type: 'values', comparison_color_enabled: true };
  const answer = [{ data: [{ gender: 'boy', sum__num: 150, 'sum__num__1 year ago': 100 }, { gender: 'girl', sum__num: 0, 'sum__num__1 year ago': 40 }, { gender: 'other', sum__num: 5, 'sum__num__1 year ago': 5 }], colnames: ['gender', 'sum__num', 'sum__num__1 year ago'], coltypes: [1, 0, 0] }] as any;
  const props = (extra: Record<string, unknown> = {}) => table.transformProps({ formData: { ...fd, ...extra }, queriesData: answer, datasource: null as any, theme: 'light', width: 400, height: 300 });

  it("'Display all' alone; a column picked in place of 'all', others toggled; closed with the three picked it reads 'Display all'", () => {
    expect(pickComparison(['all'], '#')).toEqual(['#']);
    expect(pickComparison(['#'], '%')).toEqual(['#', '%']);
    expect(pickComparison(['#', '%'], '#')).toEqual(['%']);
    expect(pickComparison(['#', '%'], 'all')).toEqual(['all']);
    expect(pickComparison(['#', '%', '△'], null)).toEqual(['all']);
    expect(pickComparison(['%'], null)).toEqual(['%']);
  });

  it("always shows 'Main'; the others when picked and their metric's group is not folded (the header's minus icon)", () => {
    const shown = (picked: string[], folded: string[] = []) => props().columns.filter((c) => comparisonShown(c, picked, folded)).map((c) => c.key);
    expect(shown(['all'])).toEqual(['gender', 'Main sum__num', '# sum__num', '△ sum__num', '% sum__num']);
    expect(shown(['%'])).toEqual(['gender', 'Main sum__num', '% sum__num']);
    expect(shown(['all'], ['sum__num'])).toEqual(['gender', 'Main sum__num']);
  });

  it("Superset's calculateBasicStyle: green tint and ↑ for an increase, red and ↓ for a decrease (the reverse with 'Red'), grey for none", () => {
    expect(comparisonStyle(0.5, 'Green')).toEqual({ arrow: '↑', arrowColor: 'Green', background: 'rgba(0,150,0,0.2)' });
    expect(comparisonStyle(-1, 'Green')).toEqual({ arrow: '↓', arrowColor: 'Red', background: 'rgba(150,0,0,0.2)' });
    expect(comparisonStyle(0.5, 'Red')).toEqual({ arrow: '↑', arrowColor: 'Red', background: 'rgba(150,0,0,0.2)' });
    expect(comparisonStyle(0, 'Green')).toEqual({ arrow: '', arrowColor: '', background: 'rgba(0,0,0,0.2)' });
  });

  it("'Basic conditional formatting' tints a metric's four cells by its change, the arrow on 'Main' only; off, or with custom conditional formatting, none", () => {
    const out = props();
    const col = (k: string) => out.columns.find((c) => c.key === k)!;
    const [boy, girl] = out.rows;
    expect(out.comparisonStyle(col('Main sum__num'), boy!)).toEqual({ arrow: '↑', arrowColor: 'Green', background: 'rgba(0,150,0,0.2)' });
    expect(out.comparisonStyle(col('% sum__num'), girl!)).toEqual({ arrow: '', arrowColor: 'Red', background: 'rgba(150,0,0,0.2)' });
    expect(out.comparisonStyle(col('gender'), boy!)).toBeUndefined();
    expect(props({ comparison_color_scheme: 'Red' }).comparisonStyle(col('Main sum__num'), boy!)?.background).toBe('rgba(150,0,0,0.2)');
    expect(props({ comparison_color_enabled: false }).comparisonStyle(col('Main sum__num'), boy!)).toBeUndefined();
    expect(props({ conditional_formatting: [{ column: 'Main sum__num', operator: '>', targetValue: 0, colorScheme: '#ff0000' }] }).comparisonStyle(col('Main sum__num'), boy!)).toBeUndefined();
  });

  it("offers 'Basic conditional formatting' while a time comparison is set, and its 'color type' once ticked", () => {
    const rows = table.controlPanel.sections.flatMap((s) => s.controlSetRows.flat()) as any[];
    const [enabled, scheme] = ['comparison_color_enabled', 'comparison_color_scheme'].map((n) => rows.find((c) => c.name === n));
    expect([enabled.label, enabled.default, scheme.label, scheme.default, scheme.choices]).toEqual(['Basic conditional formatting', false, 'color type', 'Green', [['Green', 'Green for increase, red for decrease'], ['Red', 'Red for increase, green for decrease']]]);
    const ctx = (formData: Record<string, unknown>) => ({ formData: { query_mode: 'aggregate', ...formData }, datasource: null });
    expect([enabled.visibility(ctx({})), enabled.visibility(ctx({ time_compare: 'inherit' }))]).toEqual([false, true]);
    expect([scheme.visibility(ctx({ time_compare: 'inherit' })), scheme.visibility(ctx({ time_compare: 'inherit', comparison_color_enabled: true }))]).toEqual([false, true]);
  });
});
