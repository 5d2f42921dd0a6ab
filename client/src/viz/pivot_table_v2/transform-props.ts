import { compareNatural } from '@meridian/contracts/rules/natural-order';
import type { TransformInput } from '../types';
import { getTimeFormatter, getValueFormatter } from '../shared/format';

import { asList, columnLabel, displayNames, metricLabel, temporalColumns, toNumber, type ColumnEntry, type MetricEntry } from '../shared/metrics';
import { ruleMatches, type FormattingRule } from '../shared/conditional-formatting';

export type Aggregate =
  | 'Sum'
  | 'Count'
  | 'Count Unique Values'
  | 'Average'
  | 'Median'
  | 'Sample Variance'
  | 'Sample Standard Deviation'
  | 'Minimum'
  | 'Maximum'
  | 'First'
  | 'Last';

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
/** The unbiased (n - 1) variance, as Superset's pivot aggregators: none below two values. */
const sampleVariance = (xs: number[]) => {
  if (xs.length < 2) return null;
  const mean = sum(xs) / xs.length;
  return xs.reduce((a, x) => a + (x - mean) ** 2, 0) / (xs.length - 1);
};

/** Superset's numeric pivot aggregators, by the names its 'Aggregation function' stores. Values come in the answer's order. */
export const AGGREGATES: Record<Aggregate, (xs: number[]) => number | null> = {
  Sum: sum,
  Count: (xs) => xs.length,
  'Count Unique Values': (xs) => new Set(xs).size,
  Average: (xs) => (xs.length ? sum(xs) / xs.length : null),
  Median: (xs) => {
    if (!xs.length) return null;
    const sorted = [...xs].sort((a, b) => a - b);
    const mid = Math.floor(sorted.length / 2);
    return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  },
  'Sample Variance': sampleVariance,
  'Sample Standard Deviation': (xs) => {
    const v = sampleVariance(xs);
    return v === null ? null : Math.sqrt(v);
  },
  Minimum: (xs) => (xs.length ? Math.min(...xs) : null),
  Maximum: (xs) => (xs.length ? Math.max(...xs) : null),
  First: (xs) => (xs.length ? xs[0]! : null),
  Last: (xs) => (xs.length ? xs[xs.length - 1]! : null),
};

/** Superset's fraction aggregators: a cell's Sum or Count over the grand total's, its row's or its column's. */
export type FractionAggregate = `${'Sum' | 'Count'} as Fraction of ${'Total' | 'Rows' | 'Columns'}`;

/** The base aggregator and the share's denominator of a fraction aggregator, or null for another. */
export function fractionOf(aggregate: string): { base: 'Sum' | 'Count'; of: 'Total' | 'Rows' | 'Columns' } | null {
  const m = /^(Sum|Count) as Fraction of (Total|Rows|Columns)$/.exec(aggregate);
  return m ? { base: m[1] as 'Sum' | 'Count', of: m[2] as 'Total' | 'Rows' | 'Columns' } : null;
}

/** Superset's 'Sort rows by' / 'Sort columns by': by the header keys, or by the groups' aggregated values. */
export type PivotOrder = 'key_a_to_z' | 'key_z_to_a' | 'value_a_to_z' | 'value_z_to_a';

export interface PivotProps {
  rowHeaders: string[];
  /** What each column header level lists: a column's name, or 'metric' for the metrics' level (Superset's words). */
  columnNames: string[];
  /** Column header levels: each a list of [label, span]. */
  columnLevels: Array<Array<[string, number]>>;
  rows: Array<{ keys: string[]; cells: string[]; total?: boolean; backgrounds?: Array<string | undefined> }>;
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
type PivotInput = Parameters<typeof pivotByColumns>[0];

/** Where the metrics stand in the melted answer of 'Apply metrics on' Rows: no column of a dataset is named so. */
const METRIC_COLUMN = '\u0001metric';
const VALUE_COLUMN = '\u0001value';

export function pivot(input: PivotInput): PivotProps {
  return input.metricsLayout === 'ROWS' && input.metrics.length ? pivotByColumns(metricsOnRows(input)) : pivotByColumns(input);
}

/**
 * 'Apply metrics on' Rows: each answer row becomes one row per metric (its value under one column), the metric a
 * level of the rows, first or, with 'Combine metrics', last (Superset's rows = [metric, ...rows]). The metrics keep
 * their order: the level's keys are their positions, headed by their names.
 */
function metricsOnRows(input: PivotInput): PivotInput {
  const names = input.names ?? ((label: string) => label);
  const label = input.label ?? ((_column: string, value: string) => value);
  const position = (i: number) => String(i).padStart(4, '0');
  const rowCols = input.combineMetric ? [...input.rowCols, METRIC_COLUMN] : [METRIC_COLUMN, ...input.rowCols];
  const metricAt = (key: string[]) => input.metrics[Number(key[rowCols.indexOf(METRIC_COLUMN)])] ?? '';
  const background = input.background;
  return {
    ...input,
    rows: input.rows.flatMap((r) => input.metrics.map((m, i) => ({ ...r, [METRIC_COLUMN]: position(i), [VALUE_COLUMN]: r[m] }))),
    rowCols,
    metrics: [VALUE_COLUMN],
    metricsLayout: 'COLUMNS',
    nameEveryMetric: false,
    names: (l) => (l === METRIC_COLUMN ? 'metric' : l === VALUE_COLUMN ? '' : names(l)),
    label: (column, value) => (column === METRIC_COLUMN ? names(input.metrics[Number(value)] ?? value) : label(column, value)),
    background: background && ((_metric, value, rowKey) => background(metricAt(rowKey), value, rowKey)),
  };
}

function pivotByColumns(input: {
  rows: Record<string, unknown>[];
  rowCols: string[];
  colCols: string[];
  metrics: string[];
  aggregate: Aggregate | FractionAggregate;
  rowTotals: boolean;
  colTotals: boolean;
  rowSubTotals?: boolean;
  colSubTotals?: boolean;
  format: (n: number | null) => string;
  /**
   * Superset's 'Combine metrics': the metrics side by side within each column; otherwise (its default) the metrics
   * are the top column level, each over all the columns.
   */
  combineMetric?: boolean;
  rowOrder?: PivotOrder;
  colOrder?: PivotOrder;
  /** Superset's 'Rows subtotal position' Top (true) / Bottom, and 'Columns subtotal position' Left (true) / Right. */
  rowSubtotalTop?: boolean;
  colSubtotalLeft?: boolean;
  /** A cell's background from the conditional formatting (by metric, aggregated value and row key), or undefined. */
  background?: (metric: string, value: number, rowKey: string[]) => string | undefined;
  /** Superset's 'Apply metrics on': the metrics as a level of the columns (the default) or of the rows. */
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
  const fraction = fractionOf(input.aggregate);
  const agg = AGGREGATES[fraction ? fraction.base : (input.aggregate as Aggregate)] ?? AGGREGATES.Sum;
  const str = (v: unknown) => (v === null || v === undefined ? 'NULL' : String(v));
  // Every value of the answer (all metrics) under each leading part of its row and column key: what 'value' orders compare.
  const groupValues = new Map<string, number[]>();
  const note = (side: 'r' | 'c', parts: string[], v: number | null) => {
    if (v === null) return;
    for (let i = 1; i <= parts.length; i++) {
      const key = `${side}${keyOf(parts.slice(0, i))}`;
      const list = groupValues.get(key) ?? [];
      list.push(v);
      groupValues.set(key, list);
    }
  };
  // Only a side ordered by value reads them (the default orders by key).
  const byRowValue = !!input.rowOrder?.startsWith('value');
  const byColValue = !!input.colOrder?.startsWith('value');
  if (byRowValue || byColValue) {
    for (const r of rows) {
      const rowParts = byRowValue ? rowCols.map((c) => str(r[c])) : [];
      const colParts = byColValue ? colCols.map((c) => str(r[c])) : [];
      for (const m of metrics) {
        const v = toNumber(r[m]);
        note('r', rowParts, v);
        note('c', colParts, v);
      }
    }
  }
  const sortKeys = (keys: string[][], side: 'r' | 'c', order: PivotOrder = 'key_a_to_z') => {
    const byValue = order.startsWith('value');
    const sign = order.endsWith('z_to_a') ? -1 : 1;
    // Each group's aggregate once, not at every comparison (a median sorts its values each time).
    const aggregates = new Map<string, number>();
    const groupValue = (parts: string[]) => {
      const key = `${side}${keyOf(parts)}`;
      let value = aggregates.get(key);
      if (value === undefined) aggregates.set(key, (value = agg(groupValues.get(key) ?? []) ?? -Infinity));
      return value;
    };
    // Level by level, as the headers nest: a group's place is its key's, or its aggregate's over all its values.
    return [...keys].sort((a, b) => {
      for (let i = 0; i < Math.max(a.length, b.length); i++) {
        if (a[i] === b[i]) continue;
        const diff = byValue ? groupValue(a.slice(0, i + 1)) - groupValue(b.slice(0, i + 1)) : 0;
        return sign * (diff !== 0 ? diff : compareNatural(a[i] ?? '', b[i] ?? ''));
      }
      return 0;
    });
  };
  const rowKeys = sortKeys([...new Map(rows.map((r) => { const k = rowCols.map((c) => str(r[c])); return [keyOf(k), k]; })).values()], 'r', input.rowOrder);
  const colKeys = sortKeys([...new Map(rows.map((r) => { const k = colCols.map((c) => str(r[c])); return [keyOf(k), k]; })).values()], 'c', input.colOrder);
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
  // A combination with no rows is an empty cell, not a zero. Each cell, subtotal and total is aggregated once: a
  // fraction's denominator (the grand total, a row's or a column's) is read by every cell it divides, and the
  // backgrounds read the cells again.
  const cellAggregates = new Map<string, number | null | undefined>();
  const aggregated = (rk: string, ck: string, m: string) => {
    const key = `${rk}|${ck}|${m}`;
    if (cellAggregates.has(key)) return cellAggregates.get(key);
    const xs = values.get(key);
    const value = xs?.length ? agg(xs) : undefined;
    cellAggregates.set(key, value);
    return value;
  };
  // A fraction aggregator divides by the grand total, the row's total or the column's (react-pivottable's fractionOf).
  const valueOf = (rk: string, ck: string, m: string) => {
    const v = aggregated(rk, ck, m);
    if (!fraction || v === undefined || v === null) return v;
    const whole = fraction.of === 'Total' ? aggregated('*', '*', m) : fraction.of === 'Rows' ? aggregated(rk, '*', m) : aggregated('*', ck, m);
    return whole ? v / whole : null;
  };
  const cell = (rk: string, ck: string, m: string) => {
    const v = valueOf(rk, ck, m);
    return v === undefined ? '' : format(v);
  };
  const backgroundsOf = (parts: string[]) => {
    if (!input.background) return undefined;
    const rk = keyOf(parts);
    const list = cols.map((c) => {
      const v = valueOf(rk, c.ck, c.metric);
      return v === undefined || v === null ? undefined : input.background!(c.metric, v, parts);
    });
    return list.some(Boolean) ? list : undefined;
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
  /**
   * Keys in order with their groups' subtotals when asked: each group of leading parts closed by its subtotal (deepest
   * first), or opened by it (shallowest first) when subtotals go on top / on the left.
   */
  const withSubtotals = <T>(keys: string[][], enabled: boolean | undefined, first: boolean | undefined, whole: (k: string[]) => T, subtotal: (prefix: string[]) => T): T[] => {
    const out: T[] = [];
    keys.forEach((k, i) => {
      if (enabled && first) {
        const prev = keys[i - 1];
        for (const p of prefixesOf(k).filter((p) => !prev || keyOf(prev.slice(0, p.length)) !== keyOf(p))) out.push(subtotal(p));
      }
      out.push(whole(k));
      if (!enabled || first) return;
      const next = keys[i + 1];
      const closing = prefixesOf(k).filter((p) => !next || keyOf(next.slice(0, p.length)) !== keyOf(p));
      for (const p of closing.reverse()) out.push(subtotal(p));
    });
    return out;
  };
  // Each column's header parts as shown, and as raw values (what spans group by; a subtotal's and a total's marked
  // so that no value reading 'Subtotal' or 'Total' joins them).
  type Col = { ck: string; parts: string[]; raw: string[]; metric: string };
  // One metric's columns (with subtotals), its header parts before (metrics on top) or after (combined) the columns'.
  const metricColumns = (ms: string[], metricFirst: boolean): Col[] => {
    const withMetric = (parts: string[], raw: string[], m: string, ck: string): Col =>
      metricFirst ? { ck, parts: [...metricPart(m), ...parts], raw: [...metricPart(m), ...raw], metric: m } : { ck, parts: [...parts, ...metricPart(m)], raw: [...raw, ...metricPart(m)], metric: m };
    return withSubtotals<Col[]>(
      colKeys,
      input.colSubTotals,
      input.colSubtotalLeft,
      (c) => ms.map((m) => withMetric(colLabels(c), c, m, keyOf(c))),
      (p) => ms.map((m) => withMetric(subtotalParts(colLabels(p), colCols.length), subtotalParts(p, colCols.length, SUBTOTAL_MARK), m, keyOf(p))),
    ).flat();
  };
  const totalColumn = (m: string, metricFirst: boolean): Col => {
    const totalParts = ['Total', ...Array(colCols.length - 1).fill('')];
    const rawParts = [TOTAL_MARK, ...totalParts.slice(1)];
    return metricFirst
      ? { ck: '*', parts: [...metricPart(m), ...totalParts], raw: [...metricPart(m), ...rawParts], metric: m }
      : { ck: '*', parts: [...totalParts, ...metricPart(m)], raw: [...rawParts, ...metricPart(m)], metric: m };
  };
  const withTotals = rowTotals && colCols.length > 0;
  // Metrics on top (Superset's default): each metric heads its columns and its total; combined: each column lists them.
  const metricFirst = !input.combineMetric && hasMetricLevel && colCols.length > 0;
  const cols: Col[] = metricFirst
    ? metrics.flatMap((m) => [...metricColumns([m], true), ...(withTotals ? [totalColumn(m, true)] : [])])
    : [...metricColumns(metrics, false), ...(withTotals ? metrics.map((m) => totalColumn(m, false)) : [])];
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
  const body: Array<PivotProps['rows'][number] & { raw: string[] }> = withSubtotals<PivotProps['rows'][number] & { raw: string[] }>(
    rowKeys,
    input.rowSubTotals,
    input.rowSubtotalTop,
    (k) => ({ keys: rowLabels(k), raw: k, cells: cols.map((c) => cell(keyOf(k), c.ck, c.metric)), backgrounds: backgroundsOf(k) }),
    (p) => ({ keys: subtotalParts(rowLabels(p), rowCols.length), raw: subtotalParts(p, rowCols.length, SUBTOTAL_MARK), cells: cols.map((c) => cell(keyOf(p), c.ck, c.metric)), total: true }),
  );
  if (colTotals) {
    const keys = ['Total', ...Array(Math.max(0, rowCols.length - 1)).fill('')];
    body.push({ keys, raw: [TOTAL_MARK, ...keys.slice(1)], cells: cols.map((c) => cell('*', c.ck, c.metric)), total: true });
  }
  const metricName = hasMetricLevel && metrics.length ? ['metric'] : [];
  const columnNames = metricFirst ? [...metricName, ...colCols.map(names)] : [...colCols.map(names), ...metricName];
  return {
    rowHeaders: rowCols.length ? rowCols.map(names) : [''],
    columnNames: columnLevels.map((_, i) => columnNames[i] ?? ''),
    columnLevels,
    rows: body.map(({ raw: _raw, backgrounds, ...row }) => (backgrounds ? { ...row, backgrounds } : row)),
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
  const temporal = temporalColumns(answer);
  const timeFormat = getTimeFormatter(fd.date_format as string | undefined);
  const rowCols = asList<ColumnEntry>(fd.groupbyRows).map(columnLabel);
  const colCols = asList<ColumnEntry>(fd.groupbyColumns).map(columnLabel);
  // 'Transpose pivot' swaps the rows' and the columns' group-bys (Superset's transformProps); the totals keep their axis.
  const transpose = !!fd.transposePivot;
  return {
    label: (column: string, value: string) => (temporal.has(column) && value !== 'NULL' && Number.isFinite(Number(value)) ? timeFormat(Number(value)) : value),
    rows: (queriesData[0]?.data ?? []) as Record<string, unknown>[],
    rowCols: transpose ? colCols : rowCols,
    colCols: transpose ? rowCols : colCols,
    metrics: asList<MetricEntry>(fd.metrics).map(metricLabel),
    aggregate: (fd.aggregateFunction as Aggregate | FractionAggregate) ?? 'Sum',
    rowTotals: !!fd.rowTotals,
    colTotals: !!fd.colTotals,
    rowSubTotals: !!fd.rowSubTotals,
    colSubTotals: !!fd.colSubTotals,
    combineMetric: !!fd.combineMetric,
    metricsLayout: fd.metricsLayout === 'ROWS' ? ('ROWS' as const) : ('COLUMNS' as const),
    rowOrder: (fd.rowOrder as PivotOrder | undefined) ?? 'key_a_to_z',
    colOrder: (fd.colOrder as PivotOrder | undefined) ?? 'key_a_to_z',
    // Stored as Superset's booleans (true: Top / Left); a string 'true' from an old export reads the same.
    rowSubtotalTop: fd.rowSubtotalPosition === true || fd.rowSubtotalPosition === 'true',
    colSubtotalLeft: fd.colSubtotalPosition === true || fd.colSubtotalPosition === 'true',
  };
}

/** The background of a metric's cell from the first conditional formatting rule on that metric it meets. */
function pivotBackground(conditionalFormatting: unknown): ((metric: string, value: number) => string | undefined) | undefined {
  const rules = asList<FormattingRule>(conditionalFormatting as FormattingRule[] | null | undefined).filter((r) => r && r.column && r.colorScheme);
  if (!rules.length) return undefined;
  return (metric, value) => {
    const rule = rules.find((r) => r.column === metric && ruleMatches(r, value));
    return rule ? `${rule.colorScheme}33` : undefined;
  };
}

export function transformPivot(input: TransformInput): PivotProps {
  const fd = input.formData;
  return pivot({ ...pivotInput(input), format: getValueFormatter(fd.valueFormat, fd.currency_format), names: displayNames(input.datasource), nameEveryMetric: true, background: pivotBackground(fd.conditional_formatting) });
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
