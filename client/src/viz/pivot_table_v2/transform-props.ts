import { GenericDataType } from '@meridian/contracts/rules/constants';
import { compareNatural } from '@meridian/contracts/rules/natural-order';
import type { TransformInput } from '../types';
import { getTimeFormatter, getValueFormatter } from '../shared/format';

import { asList, columnLabel, displayNames, metricLabel, toNumber, type ColumnEntry, type MetricEntry } from '../shared/metrics';

export type Aggregate = 'Sum' | 'Count' | 'Average' | 'Minimum' | 'Maximum';

const AGGREGATES: Record<Aggregate, (xs: number[]) => number | null> = {
  Sum: (xs) => xs.reduce((a, b) => a + b, 0),
  Count: (xs) => xs.length,
  Average: (xs) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null),
  Minimum: (xs) => (xs.length ? Math.min(...xs) : null),
  Maximum: (xs) => (xs.length ? Math.max(...xs) : null),
};

export interface PivotProps {
  rowHeaders: string[];
  /** What each column header level lists: a column's name, or 'metric' for the metrics' level (Superset's words). */
  columnNames: string[];
  /** Column header levels: each a list of [label, span]. */
  columnLevels: Array<Array<[string, number]>>;
  rows: Array<{ keys: string[]; cells: string[]; total?: boolean }>;
  /** Each row's header spans (headerSpans), grouped by the raw values: two times that read alike stay apart. */
  rowSpans: number[][];
}

const keyOf = (parts: string[]) => JSON.stringify(parts);

/** Where a subtotal or total stands in the raw keys that header spans group by: no value of a column reads so. */
const SUBTOTAL_MARK = '\u0001subtotal';
const TOTAL_MARK = '\u0001total';

/** A key's leading parts, shortest first, short of the whole key: the groups a subtotal closes. */
const prefixesOf = (parts: string[]) => parts.slice(0, -1).map((_, i) => parts.slice(0, i + 1));

/**
 * The pivot of the answer: unique row keys down, unique column keys (times the metrics) across, each cell the
 * aggregate of its rows; with row and column totals, and subtotals (Superset's pivot_table_v2, metrics laid out
 * as columns): rowSubTotals closes each group of the leading row columns with a subtotal row, colSubTotals each
 * group of the leading column columns with a subtotal column.
 */
export function pivot(input: {
  rows: Record<string, unknown>[];
  rowCols: string[];
  colCols: string[];
  metrics: string[];
  aggregate: Aggregate;
  rowTotals: boolean;
  colTotals: boolean;
  rowSubTotals?: boolean;
  colSubTotals?: boolean;
  format: (n: number | null) => string;
  metricsLayout?: 'COLUMNS' | 'ROWS';
  /** What the headers say for a metric or column label (its verbose name); the label itself by default. */
  names?: (label: string) => string;
  /**
   * A level naming the metrics even when there is one metric and columns (the table's headers, as Superset's);
   * without it a single metric is left unnamed there (the pivoted CSV).
   */
  nameEveryMetric?: boolean;
  /** What a row or column header says for a value of a grouping column (a time formatted); the value by default. */
  label?: (column: string, value: string) => string;
}): PivotProps {
  const { rows, rowCols, colCols, metrics, rowTotals, colTotals, format } = input;
  const agg = AGGREGATES[input.aggregate] ?? AGGREGATES.Sum;
  const str = (v: unknown) => (v === null || v === undefined ? 'NULL' : String(v));
  const sortKeys = (keys: string[][]) =>
    keys
      .map((k) => ({ k, text: k.join('\u0000') }))
      .sort((a, b) => compareNatural(a.text, b.text))
      .map(({ k }) => k);
  const rowKeys = sortKeys([...new Map(rows.map((r) => { const k = rowCols.map((c) => str(r[c])); return [keyOf(k), k]; })).values()]);
  const colKeys = sortKeys([...new Map(rows.map((r) => { const k = colCols.map((c) => str(r[c])); return [keyOf(k), k]; })).values()]);
  const values = new Map<string, number[]>();
  const add = (key: string, v: number | null) => {
    if (v === null) return;
    const list = values.get(key) ?? [];
    list.push(v);
    values.set(key, list);
  };
  // Each value counts towards its own cell, its groups' subtotals and the totals ('*'); a prefix key is
  // shorter than a whole key, so the two never collide.
  for (const r of rows) {
    const rk = rowCols.map((c) => str(r[c]));
    const ck = colCols.map((c) => str(r[c]));
    const rowVariants = [keyOf(rk), ...(input.rowSubTotals ? prefixesOf(rk).map(keyOf) : []), '*'];
    const colVariants = [keyOf(ck), ...(input.colSubTotals ? prefixesOf(ck).map(keyOf) : []), '*'];
    for (const m of metrics) {
      const v = toNumber(r[m]);
      for (const rv of rowVariants) for (const cv of colVariants) add(`${rv}|${cv}|${m}`, v);
    }
  }
  // A combination with no rows is an empty cell, not a zero.
  const cell = (rk: string, ck: string, m: string) => {
    const xs = values.get(`${rk}|${ck}|${m}`);
    return xs?.length ? format(agg(xs)) : '';
  };
  const names = input.names ?? ((label: string) => label);
  // Keys stay the raw values (sorted and grouped by them, times in time order); headers say them as labelled.
  const label = input.label ?? ((_column: string, value: string) => value);
  const colLabels = (parts: string[]) => parts.map((v, i) => label(colCols[i]!, v));
  const rowLabels = (parts: string[]) => parts.map((v, i) => label(rowCols[i]!, v));
  const hasMetricLevel = metrics.length > 1 || !colCols.length || !!input.nameEveryMetric;
  const metricPart = (m: string) => (hasMetricLevel ? [names(m)] : []);
  /** A group's subtotal, padded to the key's length: its leading parts, 'Subtotal' (or the raw keys' mark), then blanks. */
  const subtotalParts = (prefix: string[], length: number, mark = 'Subtotal') => [...prefix, mark, ...Array(Math.max(0, length - prefix.length - 1)).fill('')];
  /** Keys in order, each group of leading parts closed by its subtotal (deepest first) when asked. */
  const withSubtotals = <T>(keys: string[][], enabled: boolean | undefined, whole: (k: string[]) => T, subtotal: (prefix: string[]) => T): T[] => {
    const out: T[] = [];
    keys.forEach((k, i) => {
      out.push(whole(k));
      if (!enabled) return;
      const next = keys[i + 1];
      const closing = prefixesOf(k).filter((p) => !next || keyOf(next.slice(0, p.length)) !== keyOf(p));
      for (const p of closing.reverse()) out.push(subtotal(p));
    });
    return out;
  };
  // Each column's header parts as shown, and as raw values (what spans group by; a subtotal's and a total's marked
  // so that no value reading 'Subtotal' or 'Total' joins them).
  const cols = withSubtotals<Array<{ ck: string; parts: string[]; raw: string[]; metric: string }>>(
    colKeys,
    input.colSubTotals,
    (c) => metrics.map((m) => ({ ck: keyOf(c), parts: [...colLabels(c), ...metricPart(m)], raw: [...c, ...metricPart(m)], metric: m })),
    (p) => metrics.map((m) => ({ ck: keyOf(p), parts: [...subtotalParts(colLabels(p), colCols.length), ...metricPart(m)], raw: [...subtotalParts(p, colCols.length, SUBTOTAL_MARK), ...metricPart(m)], metric: m })),
  ).flat();
  if (rowTotals && colCols.length) {
    for (const m of metrics) {
      const parts = ['Total', ...Array(colCols.length - 1).fill(''), ...(hasMetricLevel ? [names(m)] : [])];
      cols.push({ ck: '*', parts, raw: [TOTAL_MARK, ...parts.slice(1)], metric: m });
    }
  }
  const depth = Math.max(1, ...cols.map((c) => c.parts.length));
  const columnLevels: PivotProps['columnLevels'] = [];
  for (let level = 0; level < depth; level++) {
    const spans: Array<[string, number]> = [];
    cols.forEach((c, i) => {
      const label = c.parts[level] ?? '';
      const prev = cols[i - 1];
      const samePrefix = prev && prev.raw.slice(0, level + 1).join('\u0000') === c.raw.slice(0, level + 1).join('\u0000') && level < depth - 1;
      if (samePrefix) spans[spans.length - 1]![1]++;
      else spans.push([label, 1]);
    });
    columnLevels.push(spans);
  }
  const body: Array<PivotProps['rows'][number] & { raw: string[] }> = withSubtotals(
    rowKeys,
    input.rowSubTotals,
    (k) => ({ keys: rowLabels(k), raw: k, cells: cols.map((c) => cell(keyOf(k), c.ck, c.metric)) }),
    (p) => ({ keys: subtotalParts(rowLabels(p), rowCols.length), raw: subtotalParts(p, rowCols.length, SUBTOTAL_MARK), cells: cols.map((c) => cell(keyOf(p), c.ck, c.metric)), total: true }),
  );
  if (colTotals) {
    const keys = ['Total', ...Array(Math.max(0, rowCols.length - 1)).fill('')];
    body.push({ keys, raw: [TOTAL_MARK, ...keys.slice(1)], cells: cols.map((c) => cell('*', c.ck, c.metric)), total: true });
  }
  const columnNames = [...colCols.map(names), ...(hasMetricLevel && metrics.length ? ['metric'] : [])];
  return {
    rowHeaders: rowCols.length ? rowCols.map(names) : [''],
    columnNames: columnLevels.map((_, i) => columnNames[i] ?? ''),
    columnLevels,
    rows: body.map(({ raw: _raw, ...row }) => row),
    rowSpans: headerSpans(body.map((r) => (r.raw.length ? r.raw : ['']))),
  };
}

/**
 * Row header spans: a leading key shared with the rows above is drawn once, spanning its group (its
 * subtotal row included); 0 marks a header covered by the span above.
 */
export function headerSpans(keys: string[][]): number[][] {
  const same = (a: string[] | undefined, b: string[], upTo: number) => !!a && a.slice(0, upTo + 1).join('\u0000') === b.slice(0, upTo + 1).join('\u0000');
  return keys.map((k, i) =>
    k.map((_, j) => {
      // The last level and total rows are never merged; a 'Total' row's blanks stay its own.
      if (j === k.length - 1 || same(keys[i - 1], k, j)) return j === k.length - 1 ? 1 : 0;
      let span = 1;
      while (same(keys[i + span], k, j)) span++;
      return span;
    }),
  );
}

/** The pivot's input read from the form data and the answer. */
function pivotInput({ formData: fd, queriesData }: Pick<TransformInput, 'formData' | 'queriesData'>) {
  // Time columns (the answer's coltypes) are headed by the date format, not by their epoch milliseconds.
  const answer = queriesData[0];
  const temporal = new Set((answer?.colnames ?? []).filter((_, i) => answer?.coltypes?.[i] === GenericDataType.TEMPORAL));
  const timeFormat = getTimeFormatter(fd.date_format as string | undefined);
  return {
    label: (column: string, value: string) => (temporal.has(column) && value !== 'NULL' && Number.isFinite(Number(value)) ? timeFormat(Number(value)) : value),
    rows: (queriesData[0]?.data ?? []) as Record<string, unknown>[],
    rowCols: asList<ColumnEntry>(fd.groupbyRows).map(columnLabel),
    colCols: asList<ColumnEntry>(fd.groupbyColumns).map(columnLabel),
    metrics: asList<MetricEntry>(fd.metrics).map(metricLabel),
    aggregate: (fd.aggregateFunction as Aggregate) ?? 'Sum',
    rowTotals: !!fd.rowTotals,
    colTotals: !!fd.colTotals,
    rowSubTotals: !!fd.rowSubTotals,
    colSubTotals: !!fd.colSubTotals,
  };
}

export function transformPivot(input: TransformInput): PivotProps {
  return pivot({ ...pivotInput(input), format: getValueFormatter(input.formData.valueFormat, input.formData.currency_format), names: displayNames(input.datasource), nameEveryMetric: true });
}

/**
 * The pivot as CSV rows, as drawn (headers spanned out) but with raw numbers: "Export to Pivoted .CSV" of a
 * dashboard's pivot table.
 */
export function pivotCsvRows(input: Pick<TransformInput, 'formData' | 'queriesData'>): string[][] {
  const p = pivot({ ...pivotInput(input), format: (n) => (n === null ? '' : String(n)) });
  const lead = p.rowHeaders.length;
  const header = p.columnLevels.map((level, i) => [
    ...Array<string>(lead).fill('').map((blank, j) => (i === p.columnLevels.length - 1 ? p.rowHeaders[j] ?? blank : blank)),
    ...level.flatMap(([label, span]) => [label, ...Array<string>(span - 1).fill('')]),
  ]);
  return [...header, ...p.rows.map((r) => [...r.keys, ...r.cells])];
}
