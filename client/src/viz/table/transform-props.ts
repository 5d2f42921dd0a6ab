import { GenericDataType } from '@meridian/contracts/rules/constants';
import type { FormData, OwnState, TransformInput } from '../types';
import { currencyOf, getNumberFormatter, getTimeFormatter, getValueFormatter, SMART_DATE, SMART_NUMBER } from '../shared/format';
import { hasSelection } from '../shared/cross-filter';
import { extent } from '../shared/extent';
import { columnConfigOf } from '../shared/column-config';
import { asList, columnLabel, displayNames, metricLabel, toNumber, type ColumnEntry, type MetricEntry } from '../shared/metrics';
import { ruleMatches, type FormattingRule } from '../shared/conditional-formatting';

export { ruleMatches, type FormattingRule };

export interface TableColumn {
  key: string;
  label: string;
  isMetric: boolean;
  isNumeric: boolean;
  isTime: boolean;
  /** The column's smallest and largest values and largest absolute value, for cell bars. */
  min: number;
  max: number;
  maxAbs: number;
  /** Its settings from `column_config` over the chart-wide ones: cell bars, +/- alignment and colours, alignment, width. */
  showCellBars: boolean;
  alignPn: boolean;
  colorPn: boolean;
  align: 'left' | 'center' | 'right';
  /** The column's minimal width in pixels (Superset's 'Min Width'), or undefined for automatic. */
  width?: number;
  /** Long cells are cut to the width with an ellipsis. */
  truncate: boolean;
  /** A time comparison's column: which of the metric's four ('Main', '#', '△', '%'), the metric and its label, its group's header. */
  comparison?: { kind: ComparisonKind; metric: string; group: string };
}

/** Superset's time comparison columns of a metric: its value, the shifted period's (#), the difference (△) and the change (%). */
export const COMPARISON_KINDS = ['Main', '#', '△', '%'] as const;
export type ComparisonKind = (typeof COMPARISON_KINDS)[number];

/**
 * The time offset a table compares with, as Superset's table buildQuery sends it, or null: the 'Time shift', a 'Custom
 * date' as its start date (start_date_offset, none while it is unset), 'Inherit range from time filter' as 'inherit'.
 * The server names the shifted metrics after it (`m__2024-01-01`, `m__inherit`).
 */
export function tableTimeShift(fd: FormData): string | null {
  if (fd.query_mode === 'raw') return null;
  const shift = asList<string>(fd.time_compare)[0];
  if (shift === 'custom') return typeof fd.start_date_offset === 'string' && fd.start_date_offset ? fd.start_date_offset : null;
  return shift || null;
}

/** The look Superset's 'Basic conditional formatting' gives a metric's cells from its change: an arrow on 'Main', a tint on all four. */
export interface ComparisonStyle {
  arrow: '' | '↑' | '↓';
  /** Which colour the arrow takes: the theme's success or error colour. */
  arrowColor: 'Green' | 'Red' | '';
  background: string;
}

/** Superset's calculateBasicStyle: grey for no change; else green or red by the scheme and the change's sign. */
export function comparisonStyle(change: number, scheme: string): ComparisonStyle {
  if (change === 0) return { arrow: '', arrowColor: '', background: 'rgba(0,0,0,0.2)' };
  const good = (change > 0) === (scheme !== 'Red');
  return { arrow: change > 0 ? '↑' : '↓', arrowColor: good ? 'Green' : 'Red', background: `rgba(${good ? '0,150,0' : '150,0,0'},0.2)` };
}

/** The choices of Superset's comparison columns menu: all of them, or any of '#', '△' and '%' ('Main' is always shown). */
export const COMPARISON_PICKS = [['all', 'Display all'], ['#', '#'], ['△', '△'], ['%', '%']] as const;

/**
 * A click in the menu, as Superset's TimeComparisonDropdown: 'Display all' alone; a column in place of 'all', else toggled.
 * Closed with each of the three picked, the menu reads 'Display all' again (its onBlur).
 */
export function pickComparison(selected: readonly string[], key: string | null): string[] {
  if (key === null) return selected.length === COMPARISON_PICKS.length - 1 ? ['all'] : [...selected];
  if (key === 'all') return ['all'];
  if (selected.includes('all')) return [key];
  return selected.includes(key) ? selected.filter((k) => k !== key) : [...selected, key];
}

/**
 * Whether a column is drawn (Superset's useTimeComparison): any column not compared and every 'Main'; the others when their
 * kind is picked (or 'Display all') and their metric's group is not folded (its header's minus icon).
 */
export function comparisonShown(column: Pick<TableColumn, 'comparison'>, picked: readonly string[], folded: readonly string[]): boolean {
  const c = column.comparison;
  if (!c || c.kind === 'Main') return true;
  return !folded.includes(c.metric) && (picked.includes('all') || picked.includes(c.kind));
}

/** Superset's calculateDifferences: the difference, and the change as a share of the shifted value (±100% when either is 0). */
export function comparisonValues(main: number, shifted: number): { difference: number; change: number } {
  const difference = main - shifted;
  if (!main && !shifted) return { difference, change: 0 };
  if (!main || !shifted) return { difference, change: main ? 1 : -1 };
  return { difference, change: difference / Math.abs(shifted) };
}

/**
 * A row of the answer with each metric's comparison columns (`Main m`, `# m`, `△ m`, `% m`) in place of the metric and
 * its shifted twin (`m__1 year ago`), as Superset's processComparisonDataRecords; missing values count as 0.
 */
export function withComparison(row: Record<string, unknown>, metrics: readonly string[], shift: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(row)) if (!metrics.includes(key) && !key.endsWith(`__${shift}`)) out[key] = value;
  for (const m of metrics) {
    if (!(m in row)) continue;
    const main = toNumber(row[m]) ?? 0;
    const shifted = toNumber(row[`${m}__${shift}`]) ?? 0;
    const { difference, change } = comparisonValues(main, shifted);
    Object.assign(out, { [`Main ${m}`]: main, [`# ${m}`]: shifted, [`△ ${m}`]: difference, [`% ${m}`]: change });
  }
  return out;
}

/**
 * Where a cell's bar lies, in percent of the cell's width from its left edge, as Superset's table draws it: by
 * default one axis for the column, at the share its negative values take (bars of negative values grow left of
 * it, positive ones right, all on one scale); with align_pn every bar starts at the left edge, its length its
 * absolute value's share of the column's largest.
 */
export function cellBar(value: number, column: Pick<TableColumn, 'min' | 'max' | 'maxAbs'>, alignPn: boolean): { offset: number; width: number } | null {
  if (alignPn) return column.maxAbs > 0 ? { offset: 0, width: (Math.abs(value) / column.maxAbs) * 100 } : null;
  const positive = Math.max(column.max, 0);
  const negative = Math.abs(Math.min(column.min, 0));
  const total = positive + negative;
  if (total <= 0) return null;
  return { offset: (Math.min(negative + value, negative) / total) * 100, width: (Math.abs(value) / total) * 100 };
}

/** One item of a server-paginated table's order (ownState `sortBy`, as Superset's): the column's key, descending or not. */
export interface SortByItem {
  id?: string;
  key: string;
  desc?: boolean;
}

/**
 * The page a server-paginated table asks for, from the chart's own state (`currentPage`, `pageSize`; by default the
 * first page of 'Server Page Length' rows): never past the row limit (the last page is the last one within it),
 * 'All' (page size 0) being every row within it.
 */
export function serverPage(fd: FormData, ownState: OwnState = {}): { currentPage: number; pageSize: number; rowOffset: number; rowLimit: number } {
  const pageSize = Number(ownState.pageSize ?? fd.server_page_length ?? 10) || 0;
  const limit = Number(fd.row_limit) || 0;
  const lastPage = limit > 0 && pageSize > 0 ? Math.max(Math.ceil(limit / pageSize) - 1, 0) : Infinity;
  const currentPage = pageSize > 0 ? Math.min(Number(ownState.currentPage) || 0, lastPage) : 0;
  const rowOffset = currentPage * pageSize;
  return { currentPage, pageSize, rowOffset, rowLimit: pageSize === 0 ? limit : limit > 0 ? Math.min(pageSize, limit - rowOffset) : pageSize };
}

/**
 * The filter of a server-paginated table's search box (ownState `searchText` in `searchColumn`), as Superset's: the rows
 * whose column starts with the text, whatever its case; null without server pagination or text.
 *
 * @example serverSearch({ server_pagination: true }, { searchText: 'jo', searchColumn: 'name' }) // { col: 'name', op: 'ILIKE', val: 'jo%' }
 */
export function serverSearch(fd: FormData, ownState: OwnState = {}): { col: string; op: 'ILIKE'; val: string } | null {
  const text = typeof ownState.searchText === 'string' ? ownState.searchText : '';
  const col = typeof ownState.searchColumn === 'string' ? ownState.searchColumn : '';
  return fd.server_pagination && text && col ? { col, op: 'ILIKE', val: `${text}%` } : null;
}

/** The search box of a server-paginated table: Superset searches its text columns, the first one until another is picked. */
function searchState(ownState: OwnState = {}, searchOptions: string[]): { searchText: string; searchColumn: string | null; searchOptions: string[] } {
  const chosen = typeof ownState.searchColumn === 'string' && searchOptions.includes(ownState.searchColumn) ? ownState.searchColumn : null;
  return { searchText: typeof ownState.searchText === 'string' ? ownState.searchText : '', searchColumn: chosen ?? searchOptions[0] ?? null, searchOptions };
}

/**
 * What a column's key orders the query by: its metric or column as the form data has it (an adhoc one by its
 * definition); undefined for a column the database does not give (a percent metric, computed after the query).
 */
export function orderTarget(fd: FormData, key: string): unknown {
  if (fd.query_mode === 'raw') return asList<ColumnEntry>(fd.all_columns).find((c) => columnLabel(c) === key);
  return asList<MetricEntry>(fd.metrics).find((m) => metricLabel(m) === key) ?? asList<ColumnEntry>(fd.groupby).find((c) => columnLabel(c) === key);
}

export interface TableProps {
  columns: TableColumn[];
  rows: Record<string, unknown>[];
  /** Text of a cell: numbers and times formatted as the form data says. */
  format: (column: TableColumn, value: unknown) => string;
  /** The background of a cell from the conditional formatting rules, or undefined. */
  background: (column: TableColumn, value: unknown) => string | undefined;
  pageLength: number;
  includeSearch: boolean;
  /** 'Allow columns to be rearranged': headers can be dragged onto one another to reorder the columns (not saved). */
  rearrangeColumns: boolean;
  groupby: string[];
  /** The dimension value of the chart's own cross-filter, whose cells are marked; null when none. */
  selected: string | null;
  /** 'Render columns in HTML format' (allow_render_html, on by default): text cells that are HTML are drawn as (sanitized) HTML. */
  renderHtml: boolean;
  /** 'Show summary' (show_totals): the metrics over all the rows the filters keep (the summary query's one row), or null. */
  totals: Record<string, unknown> | null;
  /** Whether the columns are a time comparison's ('Actual values'): the comparison columns menu is offered. */
  comparing: boolean;
  /** 'Basic conditional formatting' (comparison_color_enabled): a compared metric's cell look in a row, else undefined. */
  comparisonStyle: (column: TableColumn, row: Record<string, unknown>) => ComparisonStyle | undefined;
  /**
   * 'Server pagination': the rows are one page, of the `rowCount` the is_rowcount query gave; the page, its size and
   * the order as the chart's own state has them; the search box's text and column ('Search by', one of the text
   * columns: `searchOptions`). Null when the table pages and searches its rows itself.
   */
  server: { rowCount: number; currentPage: number; pageSize: number; sortBy: SortByItem | null; sortable: string[]; searchText: string; searchColumn: string | null; searchOptions: string[] } | null;
}

/** The rows of the answer as table columns: group-bys or raw columns first, then metrics and percent metrics. */
export function transformTable(input: TransformInput): TableProps {
  const { formData: fd, queriesData, datasource } = input;
  const names = displayNames(datasource);
  const result = queriesData[0] ?? { data: [], colnames: [], coltypes: [] };
  // With server pagination the answer is [page, rowcount, summary], else [rows, summary] (Superset's order).
  const page = fd.server_pagination ? serverPage(fd, input.ownState) : null;
  const totalsResult = queriesData[page ? 2 : 1];
  let rows = (result.data ?? []) as Record<string, unknown>[];
  const raw = fd.query_mode === 'raw';
  const metrics = raw ? [] : asList<MetricEntry>(fd.metrics).map(metricLabel);
  const percentMetrics = raw ? [] : asList<MetricEntry>(fd.percent_metrics).map((m) => `%${metricLabel(m)}`);
  const colnames: string[] = result.colnames?.length ? result.colnames : Object.keys(rows[0] ?? {});
  const groupby = raw ? [] : asList<ColumnEntry>(fd.groupby).map(columnLabel);
  const numberFormat = getNumberFormatter(fd.number_format ?? 'SMART_NUMBER');
  const percentFormat = getNumberFormatter('.2%');
  // Superset's default is the adaptive (smart) date format.
  const timeFormat = fd.table_timestamp_format ?? SMART_DATE;
  const chartWide = { showCellBars: fd.show_cell_bars !== false, alignPn: !!fd.align_pn, colorPn: fd.color_pn !== false };
  const rules = asList<FormattingRule>(fd.conditional_formatting).filter((r) => r && r.column);

  // 'Time Comparison' ('Actual values'): each metric's four columns under its name, as Superset's table.
  const shift = fd.comparison_type && fd.comparison_type !== 'values' ? null : tableTimeShift(fd);
  // Percent metrics compare too, '%m' against its shifted share '%m__1 year ago' (Superset's processComparisonDataRecords).
  const compared = shift ? [...metrics, ...percentMetrics].filter((m) => colnames.includes(m)) : [];
  const labelOf = (key: string) => (key.startsWith('%') && percentMetrics.includes(key) ? `%${names(key.slice(1))}` : names(key));
  const comparisonOf = new Map<string, { kind: ComparisonKind; metric: string }>();
  let drawnColnames = colnames;
  let drawnTypes: Array<number | undefined> = colnames.map((_, i) => result.coltypes?.[i]);
  if (shift) {
    drawnColnames = [];
    drawnTypes = [];
    colnames.forEach((key, i) => {
      if (key.endsWith(`__${shift}`)) return;
      if (!compared.includes(key)) {
        drawnColnames.push(key);
        drawnTypes.push(result.coltypes?.[i]);
        return;
      }
      for (const kind of COMPARISON_KINDS) {
        comparisonOf.set(`${kind} ${key}`, { kind, metric: key });
        drawnColnames.push(`${kind} ${key}`);
        drawnTypes.push(GenericDataType.NUMERIC);
      }
    });
    rows = rows.map((row) => withComparison(row, compared, shift));
  }

  const columns: TableColumn[] = drawnColnames.map((key, i) => {
    const comparison = comparisonOf.get(key);
    const isMetric = metrics.includes(key) || percentMetrics.includes(key) || !!comparison;
    const isTime = drawnTypes[i] === GenericDataType.TEMPORAL;
    const isNumeric = !isTime && (drawnTypes[i] === GenericDataType.NUMERIC || isMetric);
    const [min, max] = extent(isNumeric ? rows.map((r) => toNumber(r[key])) : [], [0, 0]);
    const config = columnConfigOf(fd, key);
    const width = Number(config.columnWidth);
    return {
      key,
      label: comparison ? comparison.kind : labelOf(key),
      isMetric,
      isNumeric,
      isTime,
      min,
      max,
      maxAbs: Math.max(Math.abs(min), Math.abs(max)),
      showCellBars: config.showCellBars ?? chartWide.showCellBars,
      alignPn: config.alignPositiveNegative ?? chartWide.alignPn,
      colorPn: config.colorPositiveNegative ?? chartWide.colorPn,
      // Superset aligns numbers left while comparing (the groups' headers read over them).
      align: config.horizontalAlign ?? (isNumeric && !shift ? 'right' : 'left'),
      width: config.columnWidth !== undefined && config.columnWidth !== null && width > 0 ? width : undefined,
      truncate: !!config.truncateLongCells,
      ...(comparison ? { comparison: { ...comparison, group: labelOf(comparison.metric) } } : {}),
    };
  });

  // A column's own d3 format wins over the chart's (Superset's column_config); a small number format takes values
  // between -1 and 1. A column's currency format (not a percent metric's) adds its symbol to either, or to the
  // chart's number format (a metric) or the adaptive one (another numeric column), as Superset's CurrencyFormatter.
  const format = (column: TableColumn, value: unknown) => {
    if (value === null || value === undefined) return 'N/A';
    const parent = comparisonOf.get(column.key);
    // A comparison column's own settings, its number format else the metric's (Superset's getComparisonColFormatter).
    const own = columnConfigOf(fd, column.key);
    const config = parent ? { ...own, d3NumberFormat: own.d3NumberFormat || columnConfigOf(fd, parent.metric).d3NumberFormat } : own;
    if (parent?.kind === '%') {
      const n = toNumber(value);
      return n === null ? String(value) : getNumberFormatter(config.d3NumberFormat || '.3%')(n);
    }
    if (column.isTime) return getTimeFormatter(config.d3TimeFormat || timeFormat)(typeof value === 'number' ? value : String(value));
    if (column.isNumeric) {
      const n = toNumber(value);
      if (n === null) return String(value);
      const isPercent = percentMetrics.includes(parent?.metric ?? column.key);
      const currency = isPercent ? undefined : currencyOf(config.currencyFormat);
      if (config.d3SmallNumberFormat && Math.abs(n) < 1) return getValueFormatter(config.d3SmallNumberFormat, currency)(n);
      if (config.d3NumberFormat) return getValueFormatter(config.d3NumberFormat, currency)(n);
      if (currency?.symbol) return getValueFormatter(column.isMetric ? fd.number_format : SMART_NUMBER, currency)(n);
      return column.key.startsWith('%') || isPercent ? percentFormat(n) : column.isMetric ? numberFormat(n) : String(value);
    }
    return String(value);
  };
  const background = (column: TableColumn, value: unknown) => {
    const n = toNumber(value);
    if (n === null) return undefined;
    const rule = rules.find((r) => r.column === column.key && ruleMatches(r, n));
    return rule ? `${rule.colorScheme}33` : undefined;
  };
  // Custom conditional formatting overrides the basic one (Superset applies the basic colours only without it).
  const basic = !!shift && !!fd.comparison_color_enabled && !rules.length;
  const styleOf = (column: TableColumn, row: Record<string, unknown>) => {
    const change = basic && column.comparison ? toNumber(row[`% ${column.comparison.metric}`]) : null;
    if (change === null) return undefined;
    const style = comparisonStyle(change, fd.comparison_color_scheme ?? 'Green');
    return column.comparison!.kind === 'Main' ? style : { ...style, arrow: '' as const };
  };
  // The summary row compares too (Superset's processComparisonTotals).
  const totalsOf = (row: Record<string, unknown> | undefined) => (row ? (shift ? withComparison(row, compared, shift) : row) : null);
  return {
    columns,
    rows,
    format,
    background,
    // Server pagination pages by 'Server Page Length' (0: no pages), the table by 'Page length'.
    pageLength: page ? Number(fd.server_page_length ?? 10) || 0 : Number(fd.page_length) || 0,
    includeSearch: !!fd.include_search,
    // Superset's comparison columns come in fixed groups: not rearranged.
    rearrangeColumns: !!fd.allow_rearrange_columns && !shift,
    groupby,
    // The value the chart's own cross-filter chose (a click on a dimension's cell): its cells are marked, as Superset's.
    renderHtml: fd.allow_render_html !== false,
    totals: totalsOf(!raw && fd.show_totals ? (totalsResult?.data?.[0] as Record<string, unknown> | undefined) : undefined),
    comparing: !!shift,
    comparisonStyle: styleOf,
    server: page ? { rowCount: Number(queriesData[1]?.data?.[0]?.rowcount ?? 0), currentPage: page.currentPage, pageSize: page.pageSize, sortBy: asList<SortByItem>(input.ownState?.sortBy as SortByItem[])[0] ?? null, sortable: colnames.filter((key) => orderTarget(fd, key) !== undefined), ...searchState(input.ownState, colnames.filter((_, i) => result.coltypes?.[i] === GenericDataType.STRING)) } : null,
    selected: hasSelection(input.filterState) && (input.filterState!.selectedValues as unknown[]).length === 1 ? String((input.filterState!.selectedValues as unknown[])[0]) : null,
  };
}

/**
 * The text of a cell that may be drawn as HTML, or null: with 'Render columns in HTML format' on, a string of a
 * column that no number or time format reads (Superset renders HTML only where no formatter applies).
 */
export function htmlCandidate(column: Pick<TableColumn, 'isNumeric' | 'isTime'>, value: unknown, renderHtml: boolean): string | null {
  return renderHtml && typeof value === 'string' && !column.isNumeric && !column.isTime ? value : null;
}

/** The header row over a time comparison's columns: each metric's name over its consecutive columns, blank over the others. */
export function headerGroups(drawn: readonly TableColumn[]): Array<{ group: string | null; metric: string | null; span: number }> {
  const out: Array<{ group: string | null; metric: string | null; span: number }> = [];
  for (const col of drawn) {
    const metric = col.comparison?.metric ?? null;
    const last = out[out.length - 1];
    if (last && last.metric === metric) last.span += 1;
    else out.push({ group: col.comparison?.group ?? null, metric, span: 1 });
  }
  return out;
}

/**
 * The summary row's cells, in the order the columns are drawn: 'Summary' under the chart's first column (the first of
 * its own order, wherever the reader dragged it), a metric's total under the others, as Superset's footer. The first
 * column names the row even when it is a metric (a table of metrics only): its total is not shown there.
 */
export function summaryCells(drawn: readonly TableColumn[], p: Pick<TableProps, 'columns' | 'totals' | 'format'>): string[] {
  const first = p.columns[0]?.key;
  return drawn.map((col) => {
    if (col.key === first) return 'Summary';
    const total = p.totals?.[col.key];
    return col.isMetric && total !== undefined ? p.format(col, total) : '';
  });
}

/** The column order after the dragged column is dropped on another: it takes that column's place (Superset's drag-and-drop headers). */
export function moveColumn(order: readonly string[], dragged: string, target: string): string[] {
  const from = order.indexOf(dragged);
  const to = order.indexOf(target);
  if (from < 0 || to < 0 || from === to) return [...order];
  const next = order.filter((key) => key !== dragged);
  next.splice(to, 0, dragged);
  return next;
}
