/**
 * Superset's pandas_postprocessing operations over a {@link Frame}: aggregate, pivot, rolling, cum,
 * diff, contribution, compare, resample, sort, flatten, rename, select, boxplot, histogram, plus the
 * time-offset join of `time_offsets`. Each mirrors the pandas semantics Superset relies on (std of
 * an aggregate is numpy's population std, a rolling std is pandas' sample std; rolling drops its
 * first `min_periods` rows; contribution fills nulls with 0) so charts built for Superset get the
 * same numbers.
 */
import {
  columnIndex,
  compareKeys,
  flatName,
  type ColumnKey,
  type Frame,
  frameFromRows,
  frameToRows,
  groupKey,
  isNumericColumn,
  NULL_STRING,
  TIME_COMPARISON,
  toNumber,
} from './frame';

/** A refused post-processing step (Superset's InvalidPostProcessingError, a 400). */
export class PostProcessingError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PostProcessingError';
  }
}

export interface PostProcessingOp {
  operation: string;
  options?: Record<string, unknown>;
}

// ---------------------------------------------------------------- numeric helpers

function numbers(values: readonly unknown[]): number[] {
  const out: number[] = [];
  for (const v of values) {
    const n = toNumber(v);
    if (n !== null) out.push(n);
  }
  return out;
}

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
const mean = (xs: number[]) => (xs.length ? sum(xs) / xs.length : null);

function variance(xs: number[], ddof: number): number | null {
  if (xs.length - ddof <= 0) return null;
  const m = sum(xs) / xs.length;
  return xs.reduce((acc, x) => acc + (x - m) ** 2, 0) / (xs.length - ddof);
}

/** numpy percentile with the 'linear' (default) or 'midpoint' method. */
export function percentile(xs: number[], q: number, method: 'linear' | 'midpoint' = 'linear'): number | null {
  if (!xs.length) return null;
  return percentileOfSorted([...xs].sort((a, b) => a - b), q, method);
}

/** percentile() of values already sorted ascending (not empty), for callers that take several of one set. */
function percentileOfSorted(sorted: number[], q: number, method: 'linear' | 'midpoint' = 'linear'): number {
  const rank = (q / 100) * (sorted.length - 1);
  const lo = Math.floor(rank);
  const hi = Math.ceil(rank);
  if (method === 'midpoint') return (sorted[lo] + sorted[hi]) / 2;
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (rank - lo);
}

const median = (xs: number[]) => percentile(xs, 50);

/** The numpy aggregate functions Superset allows in `aggregate`/`pivot` (nulls skipped, as pandas does). */
export function aggregateValues(operator: string, values: readonly unknown[], options: Record<string, unknown> = {}): unknown {
  const xs = () => numbers(values);
  switch (operator) {
    case 'sum':
    case 'nansum':
      return sum(xs());
    case 'mean':
    case 'average':
    case 'nanmean':
      return mean(xs());
    case 'median':
    case 'nanmedian':
      return median(xs());
    case 'min':
    case 'nanmin':
    case 'amin': {
      const n = xs();
      return n.length ? Math.min(...n) : null;
    }
    case 'max':
    case 'nanmax':
    case 'amax': {
      const n = xs();
      return n.length ? Math.max(...n) : null;
    }
    case 'count':
      return values.filter((v) => v !== null && v !== undefined).length;
    case 'count_nonzero':
      return xs().filter((x) => x !== 0).length;
    case 'std':
    case 'nanstd': {
      const v = variance(xs(), Number(options.ddof ?? 0));
      return v === null ? null : Math.sqrt(v);
    }
    case 'var':
    case 'nanvar':
      return variance(xs(), Number(options.ddof ?? 0));
    case 'percentile':
    case 'nanpercentile':
      return percentile(xs(), Number(options.q ?? 50));
    case 'prod':
    case 'product':
      return xs().reduce((a, b) => a * b, 1);
    default:
      throw new PostProcessingError(`Invalid numpy function: ${operator}`);
  }
}

interface AggregateSpec {
  column: string;
  operator: string;
  options: Record<string, unknown>;
}

function aggregateSpecs(frame: Frame, aggregates: unknown): Record<string, AggregateSpec> {
  if (!aggregates || typeof aggregates !== 'object') throw new PostProcessingError('Pivot operation must include at least one aggregate');
  const specs: Record<string, AggregateSpec> = {};
  for (const [name, raw] of Object.entries(aggregates as Record<string, Record<string, unknown>>)) {
    const column = String(raw?.column ?? name);
    if (columnIndex(frame, column) < 0) throw new PostProcessingError(`Column referenced by aggregate is undefined: ${column}`);
    if (!raw?.operator) throw new PostProcessingError(`Operator undefined for aggregator: ${name}`);
    specs[name] = { column, operator: String(raw.operator), options: (raw.options as Record<string, unknown>) ?? {} };
  }
  return specs;
}

function requireColumns(frame: Frame, names: readonly string[], argument: string): number[] {
  const missing = names.filter((name) => columnIndex(frame, name) < 0);
  if (missing.length) {
    throw new PostProcessingError(`Referenced columns not available in DataFrame: ${missing.join(', ')} (${argument})`);
  }
  return names.map((name) => columnIndex(frame, name));
}

/** Value columns of a frame (those after the index). */
function valueColumns(frame: Frame): number[] {
  return frame.columns.map((_, i) => i).filter((i) => i >= frame.indexSize);
}

/** Source → target column mapping of rolling/cum/diff; no mapping means every value column in place. */
function columnMapping(frame: Frame, columns: unknown): Array<[number, ColumnKey]> {
  if (columns && typeof columns === 'object' && !Array.isArray(columns) && Object.keys(columns).length) {
    const entries = Object.entries(columns as Record<string, string>);
    const indexes = requireColumns(frame, entries.map(([source]) => source), 'columns');
    return entries.map(([, target], i) => [indexes[i], [target]]);
  }
  if (Array.isArray(columns) && columns.length) {
    return requireColumns(frame, columns.map(String), 'columns').map((i) => [i, frame.columns[i]]);
  }
  return valueColumns(frame).map((i) => [i, frame.columns[i]]);
}

/** Writes computed columns: replaces a column of the same key, else appends (Superset's _append_columns). */
function withColumns(frame: Frame, computed: Array<{ key: ColumnKey; values: unknown[] }>): Frame {
  const columns = [...frame.columns];
  const data = frame.data.map((row) => [...row]);
  for (const { key, values } of computed) {
    const name = flatName(key);
    let at = columns.findIndex((k) => flatName(k) === name);
    if (at < 0) {
      at = columns.length;
      columns.push(key);
    }
    data.forEach((row, r) => {
      row[at] = values[r];
    });
  }
  return { ...frame, columns, data };
}

const columnValues = (frame: Frame, col: number) => frame.data.map((row) => row[col]);

// ---------------------------------------------------------------- operations

/** Group by columns and aggregate: `{groupby: ['gender'], aggregates: {total: {column: 'num', operator: 'sum'}}}`. */
export function aggregate(frame: Frame, options: { groupby?: string[]; aggregates?: unknown }): Frame {
  const groupby = options.groupby ?? [];
  const groupIdx = requireColumns(frame, groupby, 'groupby');
  const specs = aggregateSpecs(frame, options.aggregates);
  const groups = new Map<string, { key: unknown[]; rows: unknown[][] }>();
  for (const row of frame.data) {
    const key = groupIdx.map((i) => row[i]);
    if (key.some((v) => v === null || v === undefined)) continue; // pandas groupby drops null keys
    const k = groupKey(key);
    const group = groups.get(k) ?? { key, rows: [] };
    group.rows.push(row);
    groups.set(k, group);
  }
  const ordered = [...groups.values()].sort((a, b) => {
    for (let i = 0; i < a.key.length; i++) {
      const c = compareKeys(a.key[i], b.key[i]);
      if (c) return c;
    }
    return 0;
  });
  if (!groupby.length && !ordered.length) ordered.push({ key: [], rows: [] });
  const names = Object.keys(specs);
  return {
    columns: [...groupby.map((g) => [g]), ...names.map((n) => [n])],
    indexSize: 0,
    data: ordered.map(({ key, rows }) => [
      ...key,
      ...names.map((name) => {
        const spec = specs[name];
        const col = columnIndex(frame, spec.column);
        return aggregateValues(spec.operator, rows.map((r) => r[col]), spec.options);
      }),
    ]),
  };
}

/**
 * Pivot to one row per index value and one column per (metric, column values...). Missing series
 * values are null; with `drop_missing_columns` (default) all-null columns are dropped.
 */
export function pivot(
  frame: Frame,
  options: {
    index?: string[];
    columns?: string[];
    aggregates?: unknown;
    column_fill_value?: string | null;
    drop_missing_columns?: boolean;
    combine_value_with_metric?: boolean;
    marginal_distributions?: boolean;
    marginal_distribution_name?: string;
  },
): Frame {
  const index = options.index ?? [];
  if (!index.length) throw new PostProcessingError('Pivot operation requires at least one index');
  const specs = aggregateSpecs(frame, options.aggregates);
  if (!Object.keys(specs).length) throw new PostProcessingError('Pivot operation must include at least one aggregate');
  const columns = options.columns ?? [];
  const indexIdx = requireColumns(frame, index, 'index');
  const columnIdx = requireColumns(frame, columns, 'columns');
  const fill = options.column_fill_value === undefined ? NULL_STRING : options.column_fill_value;
  const dropMissing = options.drop_missing_columns ?? true;
  const metrics = Object.keys(specs);

  const rowKeys = new Map<string, unknown[]>();
  const colKeys = new Map<string, unknown[]>();
  const cells = new Map<string, unknown[][]>();
  for (const row of frame.data) {
    const rk = indexIdx.map((i) => row[i]);
    if (rk.some((v) => v === null || v === undefined)) continue;
    const ck = columnIdx.map((i) => (row[i] === null || row[i] === undefined ? fill : row[i]));
    if (ck.some((v) => v === null || v === undefined)) continue;
    const rks = groupKey(rk);
    const cks = groupKey(ck);
    rowKeys.set(rks, rk);
    colKeys.set(cks, ck);
    const cell = `${rks}|${cks}`;
    const list = cells.get(cell) ?? [];
    list.push(row);
    cells.set(cell, list);
  }
  const sortKeys = (a: unknown[], b: unknown[]) => {
    for (let i = 0; i < a.length; i++) {
      const c = compareKeys(a[i], b[i]);
      if (c) return c;
    }
    return 0;
  };
  const rows = [...rowKeys.entries()].sort((a, b) => sortKeys(a[1], b[1]));
  const cols = [...colKeys.entries()].sort((a, b) => sortKeys(a[1], b[1]));
  const margins = options.marginal_distributions ? (options.marginal_distribution_name ?? 'All') : null;

  type Out = { key: ColumnKey; values: unknown[] };
  const out: Out[] = [];
  for (const metric of metrics) {
    const spec = specs[metric];
    const src = columnIndex(frame, spec.column);
    const colList: Array<[string | null, unknown[]]> = cols.map(([k, v]) => [k, v]);
    if (margins && columns.length) colList.push([null, columns.map(() => margins)]);
    for (const [cks, ck] of colList) {
      const values = rows.map(([rks]) => {
        const matching = cks === null ? cols.flatMap(([k]) => cells.get(`${rks}|${k}`) ?? []) : (cells.get(`${rks}|${cks}`) ?? []);
        return matching.length ? aggregateValues(spec.operator, matching.map((r) => r[src]), spec.options) : null;
      });
      if (margins) {
        const all = cks === null ? [...cells.values()].flat() : rows.flatMap(([rks]) => cells.get(`${rks}|${cks}`) ?? []);
        values.push(aggregateValues(spec.operator, all.map((r) => r[src]), spec.options));
      }
      const key: ColumnKey = columns.length ? [metric, ...ck.map((v) => String(v))] : [metric];
      if (dropMissing && values.every((v) => v === null)) continue;
      out.push({ key, values });
    }
  }
  let ordered = out;
  if (options.combine_value_with_metric && columns.length) {
    ordered = out
      .map(({ key, values }) => ({ key: [...key.slice(1), key[0]], values }))
      .sort((a, b) => sortKeys([...a.key], [...b.key]));
  }
  const indexValues = rows.map(([, rk]) => rk);
  if (margins) indexValues.push(index.map(() => margins));
  return {
    columns: [...index.map((i) => [i]), ...ordered.map((o) => o.key)],
    indexSize: index.length,
    data: indexValues.map((rk, r) => [...rk, ...ordered.map((o) => o.values[r])]),
  };
}

/**
 * Rolling window: mean, sum, std (sample), var, min, max, median, count; drops the first `min_periods - 1` rows like Superset.
 * With `is_pivot_df` (a pivoted frame, as the time-series charts send) every value column rolls in place.
 */
export function rolling(
  frame: Frame,
  options: { rolling_type?: string; columns?: unknown; window?: number; min_periods?: number; center?: boolean; rolling_type_options?: Record<string, unknown>; is_pivot_df?: boolean },
): Frame {
  const window = options.window;
  if (window === undefined || window === null) throw new PostProcessingError('Undefined window for rolling operation');
  if (!Number.isInteger(window) || window <= 0) throw new PostProcessingError('Window must be > 0');
  const type = options.rolling_type ?? '';
  const fns: Record<string, (xs: number[]) => number | null> = {
    mean,
    sum,
    std: (xs) => {
      const v = variance(xs, 1);
      return v === null ? null : Math.sqrt(v);
    },
    var: (xs) => variance(xs, 1),
    min: (xs) => (xs.length ? Math.min(...xs) : null),
    max: (xs) => (xs.length ? Math.max(...xs) : null),
    median,
    count: (xs) => xs.length,
    quantile: (xs) => percentile(xs, Number(options.rolling_type_options?.quantile ?? 0.5) * 100),
  };
  const fn = fns[type];
  if (!fn) throw new PostProcessingError(`Invalid rolling_type: ${type}`);
  const minPeriods = options.min_periods ?? window;
  const center = !!options.center;
  const computed = columnMapping(frame, options.is_pivot_df ? null : options.columns).map(([src, key]) => {
    const values = columnValues(frame, src).map(toNumber);
    return {
      key,
      values: values.map((_, i) => {
        const end = center ? Math.min(values.length, i + Math.floor(window / 2) + 1) : i + 1;
        const start = Math.max(0, end - window);
        const xs = values.slice(start, end).filter((x): x is number => x !== null);
        return xs.length >= Math.max(minPeriods, type === 'count' ? 0 : 1) ? fn(xs) : null;
      }),
    };
  });
  const result = withColumns(frame, computed);
  // Superset drops the rows before the first one that can have `min_periods` values (`df[min_periods - 1:]`).
  return options.min_periods ? { ...result, data: result.data.slice(options.min_periods - 1) } : result;
}

/** Cumulative sum, product, min or max (nulls keep their place and are skipped); with `is_pivot_df` over every value column. */
export function cum(frame: Frame, options: { operator?: string; columns?: unknown; is_pivot_df?: boolean }): Frame {
  const operator = options.operator ?? '';
  const step: Record<string, (acc: number, x: number) => number> = {
    sum: (a, x) => a + x,
    prod: (a, x) => a * x,
    min: (a, x) => Math.min(a, x),
    max: (a, x) => Math.max(a, x),
  };
  if (!step[operator]) throw new PostProcessingError(`Invalid cumulative operator: ${operator}`);
  const computed = columnMapping(frame, options.is_pivot_df ? null : options.columns).map(([src, key]) => {
    let acc: number | null = null;
    return {
      key,
      values: columnValues(frame, src).map((v) => {
        const x = toNumber(v);
        if (x === null) return null;
        acc = acc === null ? x : step[operator](acc, x);
        return acc;
      }),
    };
  });
  return withColumns(frame, computed);
}

/** Difference with the value `periods` rows earlier. */
export function diff(frame: Frame, options: { columns?: unknown; periods?: number; axis?: number }): Frame {
  const periods = options.periods ?? 1;
  const computed = columnMapping(frame, options.columns).map(([src, key]) => {
    const values = columnValues(frame, src).map(toNumber);
    return {
      key,
      values: values.map((x, i) => {
        const j = i - periods;
        const prev = j >= 0 && j < values.length ? values[j] : null;
        return x === null || prev === null ? null : x - prev;
      }),
    };
  });
  return withColumns(frame, computed);
}

/** Share of each cell in its column total (orientation 'column', default; nulls count as 0) or its row total ('row'; a null cell stays null). */
export function contribution(
  frame: Frame,
  options: { orientation?: 'row' | 'column'; columns?: string[]; rename_columns?: string[]; time_shifts?: string[] },
): Frame {
  const numeric = valueColumns(frame).filter((i) => isNumericColumn(frame, i));
  let actual = numeric;
  if (options.columns?.length) {
    actual = options.columns.map((name) => {
      const i = columnIndex(frame, name);
      if (i < 0 || !numeric.includes(i)) throw new PostProcessingError(`Column "${name}" is not numeric or does not exists in the query results.`);
      return i;
    });
  }
  const rename = options.rename_columns?.length ? options.rename_columns.map((n) => [n] as ColumnKey) : actual.map((i) => frame.columns[i]);
  if (rename.length !== actual.length) throw new PostProcessingError('`rename_columns` must have the same length as `columns` + `time_shift_columns`.');
  // Column totals count nulls as 0 (Superset fills them); row contributions leave a null cell null.
  const cell = (r: number, c: number) => toNumber(frame.data[r][c]) ?? 0;
  if ((options.orientation ?? 'column') === 'column') {
    return withColumns(
      frame,
      actual.map((c, k) => {
        const total = frame.data.reduce((acc, _, r) => acc + cell(r, c), 0);
        return { key: rename[k], values: frame.data.map((_, r) => cell(r, c) / total) };
      }),
    );
  }
  // Row orientation: columns of each time shift are totalled separately from the rest.
  const shifts = options.time_shifts ?? [];
  const groupOf = (c: number) => shifts.find((ts) => String(frame.columns[c][0] ?? '').endsWith(`${TIME_COMPARISON}${ts}`)) ?? '';
  const groups = new Map<string, number[]>();
  actual.forEach((c) => groups.set(groupOf(c), [...(groups.get(groupOf(c)) ?? []), c]));
  return withColumns(
    frame,
    actual.map((c, k) => {
      const members = groups.get(groupOf(c))!;
      return {
        key: rename[k],
        values: frame.data.map((_, r) => (toNumber(frame.data[r][c]) === null ? null : cell(r, c) / members.reduce((acc, m) => acc + cell(r, m), 0))),
      };
    }),
  );
}

/** numpy's round: halves go to the even neighbour (0.03125 -> 0.0312 at 4 places). */
function round(x: number, precision: number): number {
  const f = 10 ** precision;
  const y = x * f;
  return (Math.abs(y % 1) === 0.5 ? 2 * Math.round(y / 2) : Math.round(y)) / f;
}

/**
 * Column-by-column comparison: `difference` (s - c), `percentage` ((s - c) / c) or `ratio` (s / c), named `type__s__c`.
 * On a pivoted frame a name is its first level, as pandas' `df.loc[:, [s]]` reads it: each group's column of `s` is
 * compared with the same group's column of `c`, giving `(type__s__c, group...)`.
 */
export function compare(
  frame: Frame,
  options: { source_columns?: string[]; compare_columns?: string[]; compare_type?: string; drop_original_columns?: boolean; precision?: number },
): Frame {
  const sources = options.source_columns ?? [];
  const compares = options.compare_columns ?? [];
  if (sources.length !== compares.length) throw new PostProcessingError('`compare_columns` must have the same length as `source_columns`.');
  const type = options.compare_type ?? '';
  if (!['difference', 'percentage', 'ratio'].includes(type)) throw new PostProcessingError('`compare_type` must be `difference`, `percentage` or `ratio`');
  if (!sources.length) return frame;
  /** The columns a name selects: the one so named, else those whose first level it is. */
  const selected = (name: string) => {
    const exact = columnIndex(frame, name);
    if (exact >= 0) return [{ at: exact, rest: [] as ColumnKey }];
    return valueColumns(frame).filter((i) => frame.columns[i].length > 1 && frame.columns[i][0] === name).map((at) => ({ at, rest: frame.columns[at].slice(1) }));
  };
  const missing = [...sources, ...compares].filter((name) => !selected(name).length);
  if (missing.length) throw new PostProcessingError(`Referenced columns not available in DataFrame: ${missing.join(', ')} (source_columns, compare_columns)`);
  const precision = options.precision ?? 4;
  const computed: Array<{ key: ColumnKey; values: unknown[] }> = [];
  sources.forEach((source, k) => {
    const against = selected(compares[k]);
    for (const { at: si, rest } of selected(source)) {
      const ci = against.find((c) => groupKey([...c.rest]) === groupKey([...rest]))?.at;
      computed.push({
        key: [[type, source, compares[k]].join(TIME_COMPARISON), ...rest],
        values: frame.data.map((row) => {
          const a = toNumber(row[si]);
          const b = ci === undefined ? null : toNumber(row[ci]);
          if (a === null || b === null) return null;
          if (type === 'difference') return a - b;
          if (b === 0) return null;
          return round(type === 'percentage' ? (a - b) / b : a / b, precision);
        }),
      });
    }
  });
  let result = withColumns(frame, computed);
  if (options.drop_original_columns) {
    const drop = new Set([...sources, ...compares]);
    const keep = result.columns.map((key, i) => [key, i] as const).filter(([key], i) => i < result.indexSize || !(drop.has(flatName(key)) || (key.length > 1 && drop.has(String(key[0])))));
    result = { ...result, columns: keep.map(([key]) => key), data: result.data.map((row) => keep.map(([, i]) => row[i])) };
  }
  return result;
}

/** Sorts rows: `{by: ['a'], ascending: [false]}`, `{columns: {a: false}}` or `{is_sort_index: true}`. */
export function sort(frame: Frame, options: { by?: string | string[]; ascending?: boolean | boolean[]; columns?: Record<string, boolean>; is_sort_index?: boolean }): Frame {
  let keys: Array<[number, boolean]>;
  if (options.is_sort_index) {
    const asc = Array.isArray(options.ascending) ? (options.ascending[0] ?? true) : (options.ascending ?? true);
    keys = Array.from({ length: Math.max(frame.indexSize, 1) }, (_, i) => [i, asc]);
  } else if (options.columns && Object.keys(options.columns).length) {
    const names = Object.keys(options.columns);
    keys = requireColumns(frame, names, 'columns').map((i, k) => [i, options.columns![names[k]] !== false]);
  } else {
    const by = options.by === undefined ? [] : Array.isArray(options.by) ? options.by : [options.by];
    const asc: boolean[] = Array.isArray(options.ascending) ? options.ascending : by.map(() => (options.ascending as boolean | undefined) ?? true);
    keys = requireColumns(frame, by, 'by').map((i, k) => [i, asc[k] ?? true]);
  }
  const data = frame.data
    .map((row, position) => ({ row, position }))
    .sort((a, b) => {
      for (const [col, asc] of keys) {
        const x = a.row[col];
        const y = b.row[col];
        // pandas puts nulls last whatever the direction
        if (x === null || x === undefined || y === null || y === undefined) {
          const c = compareKeys(x, y);
          if (c) return c;
          continue;
        }
        const c = compareKeys(typeof x === 'string' && toNumber(x) !== null && typeof y === 'string' ? toNumber(x) : x, typeof y === 'string' && toNumber(y) !== null && typeof x === 'string' ? toNumber(y) : y);
        if (c) return asc ? c : -c;
      }
      return a.position - b.position;
    })
    .map(({ row }) => row);
  return { ...frame, data };
}

/** Joins multi-level column names with ', ' (null levels skipped) and turns the index into columns. */
export function flatten(frame: Frame, options: { reset_index?: boolean; drop_levels?: number[] } = {}): Frame {
  const drop = new Set(options.drop_levels ?? []);
  const columns = frame.columns.map((key, i) => {
    if (i < frame.indexSize || key.length === 1) return key;
    const kept = key.filter((_, level) => !drop.has(level));
    return [flatName(kept)];
  });
  return { ...frame, columns, indexSize: options.reset_index === false ? frame.indexSize : 0 };
}

/** Renames columns at a level (default 0); renaming to null removes that level from the flattened name. */
export function rename(frame: Frame, options: { columns?: Record<string, string | null>; level?: number; inplace?: boolean }): Frame {
  const mapping = options.columns ?? {};
  const level = options.level ?? 0;
  return {
    ...frame,
    columns: frame.columns.map((key, i) => {
      if (i < frame.indexSize) return key;
      const cell = key[level];
      if (cell === undefined || cell === null || !(cell in mapping)) return key;
      const next = [...key];
      next[level] = mapping[cell];
      return next;
    }),
  };
}

/** Keeps, drops and renames columns: `{columns: ['a', 'b'], exclude: ['b'], rename: {a: 'A'}}`. */
export function select(frame: Frame, options: { columns?: string[]; exclude?: string[]; rename?: Record<string, string> }): Frame {
  let keep = frame.columns.map((_, i) => i);
  if (options.columns?.length) keep = requireColumns(frame, options.columns, 'columns');
  if (options.exclude?.length) {
    const ex = new Set(requireColumns(frame, options.exclude, 'exclude'));
    keep = keep.filter((i) => !ex.has(i));
  }
  const renames = options.rename ?? {};
  return {
    indexSize: 0,
    columns: keep.map((i) => {
      const name = flatName(frame.columns[i]);
      return name in renames ? [renames[name]] : frame.columns[i];
    }),
    data: frame.data.map((row) => keep.map((i) => row[i])),
  };
}

/** Box plot statistics per group: `metric__mean/median/max/min/q1/q3/count/outliers` (whiskers: tukey, min/max or percentile). */
export function boxplot(frame: Frame, options: { groupby?: string[]; metrics?: string[]; whisker_type?: string; percentiles?: number[] }): Frame {
  const metrics = options.metrics ?? [];
  requireColumns(frame, metrics, 'metrics');
  const whisker = options.whisker_type ?? 'tukey';
  const p = options.percentiles;
  if (whisker === 'percentile' && (!Array.isArray(p) || p.length !== 2 || typeof p[0] !== 'number' || typeof p[1] !== 'number' || p[0] >= p[1])) {
    throw new PostProcessingError('percentiles must be a list or tuple with two numeric values, of which the first is lower than the second value');
  }
  // One group's values are sorted once and every statistic is read from them (each used to sort anew, per
  // value for the whiskers and outliers: a 5,000-row box plot took ~150 ms of the server's thread).
  const statsOf = (xs: number[]): Record<string, unknown> => {
    if (!xs.length) return { mean: null, median: null, max: null, min: null, q1: null, q3: null, count: 0, outliers: [] };
    const sorted = [...xs].sort((a, b) => a - b);
    const q1 = percentileOfSorted(sorted, 25, 'midpoint');
    const q3 = percentileOfSorted(sorted, 75, 'midpoint');
    let low = sorted[0]!;
    let high = sorted[sorted.length - 1]!;
    if (whisker === 'tukey') {
      // The whiskers reach the furthest values within 1.5 IQR of the quartiles.
      const iqr = q3 - q1;
      low = sorted.find((x) => x >= q1 - 1.5 * iqr)!;
      high = sorted.findLast((x) => x <= q3 + 1.5 * iqr)!;
    } else if (whisker === 'percentile') {
      low = percentileOfSorted(sorted, p![0]!);
      high = percentileOfSorted(sorted, p![1]!);
    }
    return { mean: mean(xs), median: percentileOfSorted(sorted, 50), max: high, min: low, q1, q3, count: xs.length, outliers: [...xs.filter((x) => x > high), ...xs.filter((x) => x < low)] };
  };
  const STATS = ['mean', 'median', 'max', 'min', 'q1', 'q3', 'count', 'outliers'];
  const groupby = options.groupby ?? [];
  const groupIdx = requireColumns(frame, groupby, 'groupby');
  const groups = new Map<string, { key: unknown[]; rows: unknown[][] }>();
  for (const row of frame.data) {
    const key = groupIdx.map((i) => row[i]);
    const k = groupKey(key);
    const g = groups.get(k) ?? { key, rows: [] };
    g.rows.push(row);
    groups.set(k, g);
  }
  const names: Array<[string, string, string]> = [];
  for (const stat of STATS) for (const metric of metrics) names.push([`${metric}__${stat}`, metric, stat]);
  const ordered = [...groups.values()].sort((a, b) => {
    for (let i = 0; i < a.key.length; i++) {
      const c = compareKeys(a.key[i], b.key[i]);
      if (c) return c;
    }
    return 0;
  });
  return {
    indexSize: 0,
    columns: [...groupby.map((g) => [g]), ...names.map(([n]) => [n])],
    data: ordered.map(({ key, rows }) => {
      const byMetric = new Map(metrics.map((metric) => [metric, statsOf(numbers(rows.map((r) => r[columnIndex(frame, metric)])))]));
      return [...key, ...names.map(([, metric, stat]) => byMetric.get(metric)![stat])];
    }),
  };
}

/** Python's str() of a float, used in histogram bin labels ('0.0 - 2.5'). */
function pyFloat(x: number): string {
  if (Number.isInteger(x) && Math.abs(x) < 1e16) return `${x}.0`;
  return String(x).replace(/e([+-])(\d)$/, 'e$10$2');
}

/** Histogram with `bins` equal-width bins over the column's range; counts per group, optionally cumulative or normalised. */
export function histogram(frame: Frame, options: { column?: string; groupby?: string[] | null; bins?: number; cumulative?: boolean; normalize?: boolean }): Frame {
  const bins = options.bins ?? 5;
  if (!Number.isInteger(bins) || bins < 1 || bins > 1000) throw new PostProcessingError('`bins` must be an integer between 1 and 1000');
  const column = String(options.column ?? '');
  const [col] = requireColumns(frame, [column], 'column');
  const groupby = options.groupby ?? [];
  const groupIdx = requireColumns(frame, groupby, 'groupby');
  const rows = frame.data.filter((row) => row[col] !== null && row[col] !== undefined);
  if (!rows.length) return { ...frame, data: [] };
  const values = rows.map((row) => {
    const x = toNumber(row[col]);
    if (x === null) throw new PostProcessingError(`Column '${column}' contains non-numeric values`);
    return x;
  });
  let lo = Math.min(...values);
  let hi = Math.max(...values);
  if (lo === hi) {
    lo -= 0.5;
    hi += 0.5;
  }
  const edges = Array.from({ length: bins + 1 }, (_, i) => (i === bins ? hi : lo + ((hi - lo) * i) / bins));
  const labels = edges.slice(0, -1).map((e, i) => `${pyFloat(e)} - ${pyFloat(edges[i + 1])}`);
  const binOf = (x: number) => (x === hi ? bins - 1 : Math.min(bins - 1, Math.floor(((x - lo) / (hi - lo)) * bins)));
  const groups = new Map<string, { key: unknown[]; counts: number[] }>();
  rows.forEach((row, r) => {
    const key = groupIdx.map((i) => row[i]);
    const k = groupKey(key);
    const g = groups.get(k) ?? { key, counts: new Array(bins).fill(0) };
    g.counts[binOf(values[r])]++;
    groups.set(k, g);
  });
  const ordered = [...groups.values()].sort((a, b) => {
    for (let i = 0; i < a.key.length; i++) {
      const c = compareKeys(a.key[i], b.key[i]);
      if (c) return c;
    }
    return 0;
  });
  let table = ordered.map((g) => {
    if (!options.cumulative) return g.counts as number[];
    let acc = 0;
    return g.counts.map((c) => (acc += c));
  });
  if (options.normalize) {
    const total = table.flat().reduce((a, b) => a + b, 0);
    table = table.map((counts) => counts.map((c) => c / total));
  }
  return {
    indexSize: 0,
    columns: [...groupby.map((g) => [g]), ...labels.map((l) => [l])],
    data: ordered.map((g, i) => [...g.key, ...table[i]]),
  };
}

// ---------------------------------------------------------------- resample

const RESAMPLE_METHODS = ['asfreq', 'bfill', 'ffill', 'linear', 'median', 'mean', 'sum'];
const DAY = 86_400_000;

function toMs(value: unknown): number | null {
  if (typeof value === 'number') return value;
  if (typeof value === 'bigint') return Number(value);
  if (value instanceof Date) return value.getTime();
  if (typeof value === 'string') {
    const t = Date.parse(/[zZ]|[+-]\d\d:?\d\d$/.test(value) ? value : `${value.replace(' ', 'T')}Z`);
    return Number.isNaN(t) ? null : t;
  }
  return null;
}

interface Rule {
  /** The bin label holding a timestamp. */
  label(t: number): number;
  next(label: number): number;
}

const WEEKDAYS = ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'];

/** pandas offset aliases Superset's resample control uses: nS, nT/nmin, nH, nD, W[-DAY], MS, M, QS, Q, AS/YS, A/Y. */
function parseRule(rule: string): Rule {
  const m = /^(\d*)\s*(S|T|MIN|H|D|W(?:-(SUN|MON|TUE|WED|THU|FRI|SAT))?|MS|M|QS|Q|AS|YS|A|Y)$/i.exec(rule.trim());
  if (!m) throw new PostProcessingError(`Invalid frequency: ${rule}`);
  const n = m[1] ? Number(m[1]) : 1;
  const unit = m[2].toUpperCase();
  const fixed: Record<string, number> = { S: 1000, T: 60_000, MIN: 60_000, H: 3_600_000, D: DAY };
  if (fixed[unit]) {
    const step = fixed[unit] * n;
    // origin 'start_day': bins are counted from midnight of the first day; labels are left edges
    return { label: (t) => Math.floor(t / step) * step, next: (l) => l + step };
  }
  const months = (y: number, mo: number) => Date.UTC(y, mo, 1);
  if (unit.startsWith('W')) {
    const anchor = WEEKDAYS.indexOf(m[3]?.toUpperCase() ?? 'SUN');
    // weekly bins close on the anchor day and are labelled with it
    return {
      label: (t) => {
        const day = Math.floor(t / DAY) * DAY;
        const dow = new Date(day).getUTCDay();
        const ahead = (anchor - dow + 7) % 7;
        return day + ahead * DAY + (ahead === 0 && t > day ? 7 * DAY : 0);
      },
      next: (l) => l + 7 * n * DAY,
    };
  }
  const span = unit === 'MS' || unit === 'M' ? 1 : unit === 'QS' || unit === 'Q' ? 3 : 12;
  const start = unit === 'MS' || unit === 'QS' || unit === 'AS' || unit === 'YS';
  const periodStart = (t: number) => {
    const d = new Date(t);
    const mo = d.getUTCMonth();
    return months(d.getUTCFullYear(), span === 12 ? 0 : mo - (mo % span));
  };
  const addMonths = (t: number, k: number) => {
    const d = new Date(t);
    return months(d.getUTCFullYear(), d.getUTCMonth() + k);
  };
  if (start) return { label: periodStart, next: (l) => addMonths(l, span * n) };
  // period end labels: the last day of the period at midnight
  const endOf = (t: number) => addMonths(periodStart(t), span) - DAY;
  return { label: (t) => (t > endOf(t) ? endOf(endOf(t) + DAY) : endOf(t)), next: (l) => addMonths(l + DAY, span * n) - DAY };
}

/** Resamples a frame whose index is temporal: asfreq (optionally zero-filled over the query's time range), ffill, bfill, linear, sum, mean, median. */
export function resample(
  frame: Frame,
  options: { rule?: string; method?: string; fill_value?: number | null; time_range_start?: string | number | null; time_range_end?: string | number | null },
): Frame {
  if (frame.indexSize < 1 || frame.data.some((row) => toMs(row[0]) === null)) throw new PostProcessingError('Resample operation requires DatetimeIndex');
  const method = options.method ?? '';
  if (!RESAMPLE_METHODS.includes(method)) throw new PostProcessingError(`Resample method should be in ${RESAMPLE_METHODS.join(', ')}.`);
  const rule = parseRule(String(options.rule ?? ''));
  const values = valueColumns(frame);
  const points = frame.data.map((row) => ({ t: toMs(row[0])!, row })).sort((a, b) => a.t - b.t);
  if (!points.length) return frame;
  const first = rule.label(points[0].t);
  const last = rule.label(points[points.length - 1].t);
  const grid: number[] = [];
  for (let l = first; l <= last; l = rule.next(l)) grid.push(l);
  const fill = options.fill_value ?? null;
  const start = options.time_range_start != null ? toMs(options.time_range_start) : null;
  const end = options.time_range_end != null ? toMs(options.time_range_end) : null;
  if (method === 'asfreq' && fill !== null && start !== null && end !== null) {
    // zero-filling covers the whole queried range (end exclusive)
    for (let l = rule.label(start) < start ? rule.next(rule.label(start)) : rule.label(start); l < end; l = rule.next(l)) grid.push(l);
  }
  const labels = [...new Set(grid)].sort((a, b) => a - b);
  const exact = new Map(points.map((p) => [p.t, p.row]));
  let rows: unknown[][];
  if (method === 'asfreq') {
    rows = labels.map((l) => [l, ...values.map((c) => (exact.has(l) ? (exact.get(l)![c] ?? fill) : fill))]);
  } else if (method === 'sum' || method === 'mean' || method === 'median') {
    const buckets = new Map<number, unknown[][]>();
    for (const p of points) buckets.set(rule.label(p.t), [...(buckets.get(rule.label(p.t)) ?? []), p.row]);
    rows = labels.map((l) => [l, ...values.map((c) => {
      const xs = numbers((buckets.get(l) ?? []).map((r) => r[c]));
      return method === 'sum' ? sum(xs) : method === 'mean' ? mean(xs) : median(xs);
    })]);
  } else if (method === 'ffill' || method === 'bfill') {
    rows = labels.map((l) => {
      const src = method === 'ffill' ? [...points].reverse().find((p) => p.t <= l) : points.find((p) => p.t >= l);
      return [l, ...values.map((c) => (src ? src.row[c] : null))];
    });
    // then fill remaining nulls in the same direction
    for (let k = 1; k <= values.length; k++) {
      const order = method === 'ffill' ? rows : [...rows].reverse();
      let carry: unknown = null;
      for (const row of order) {
        if (row[k] === null || row[k] === undefined) row[k] = carry;
        else carry = row[k];
      }
    }
  } else {
    // linear, as pandas' resample().interpolate(): the values found at the new labels (asfreq), then
    // linear interpolation by position (labels equally spaced, so Feb sits halfway between Jan and Mar);
    // leading gaps stay null and trailing ones take the last value.
    rows = labels.map((l) => [l, ...values.map((c) => (exact.has(l) ? toNumber(exact.get(l)![c]) : null))]);
    for (let k = 1; k <= values.length; k++) {
      let prev = -1;
      rows.forEach((row, r) => {
        const v = row[k] as number | null;
        if (v === null) return;
        if (prev >= 0) {
          const a = rows[prev][k] as number;
          for (let g = prev + 1; g < r; g++) rows[g][k] = a + ((v - a) * (g - prev)) / (r - prev);
        }
        prev = r;
      });
      if (prev >= 0) for (let g = prev + 1; g < rows.length; g++) rows[g][k] = rows[prev][k];
    }
  }
  return { columns: [frame.columns[0], ...values.map((c) => frame.columns[c])], indexSize: 1, data: rows };
}

// ---------------------------------------------------------------- pipeline

const OPERATIONS: Record<string, (frame: Frame, options: any) => Frame> = {
  aggregate,
  pivot,
  rolling,
  cum,
  diff,
  contribution,
  compare,
  resample,
  sort,
  flatten,
  rename,
  select,
  boxplot,
  histogram,
};

/** Names of the supported operations. */
export const POST_PROCESSING_OPERATIONS = Object.keys(OPERATIONS);

/**
 * Runs a query's `post_processing` list over result rows and returns flat columns and rows
 * (multi-level names joined with ', ', the index turned back into columns).
 */
export function applyPostProcessing(
  colnames: readonly string[],
  rows: ReadonlyArray<Record<string, unknown>>,
  operations: ReadonlyArray<PostProcessingOp | null | undefined>,
): { colnames: string[]; rows: Record<string, unknown>[] } {
  let frame = frameFromRows(colnames, rows);
  for (const op of operations) {
    if (!op) continue;
    const fn = OPERATIONS[op.operation];
    if (!fn) throw new PostProcessingError(`Invalid post processing operation: ${op.operation}`);
    const options = op.options ?? {};
    if (typeof options !== 'object' || Array.isArray(options)) throw new PostProcessingError(`Invalid options for post processing operation: ${op.operation}`);
    try {
      frame = fn(frame, options);
    } catch (error) {
      // Options of the wrong shape (a list given as text...) fail inside the operation: said as a refused payload,
      // as Superset's InvalidPostProcessingError is, not as a server error.
      if (error instanceof PostProcessingError || !(error instanceof TypeError)) throw error;
      throw new PostProcessingError(`Invalid options for post processing operation ${op.operation}: ${error.message}`);
    }
  }
  return frameToRows(flatten(frame));
}

/**
 * Superset's time-offset join: the rows of the query shifted by `offset` are moved forward onto the
 * main rows' time axis and joined on the time column and the dimensions, adding `metric__offset` columns.
 */
export function joinTimeOffset(
  main: { colnames: string[]; rows: Record<string, unknown>[] },
  shifted: Record<string, unknown>[],
  opts: { offset: string; timeColumn: string | null; joinColumns: string[]; metrics: string[]; shiftMs: (t: number) => number },
): { colnames: string[]; rows: Record<string, unknown>[] } {
  // Without a time column (a table of group-bys) the rows join on the other columns alone.
  const timeOf = (row: Record<string, unknown>) => (opts.timeColumn === null ? null : toMs(row[opts.timeColumn]));
  const keyOf = (row: Record<string, unknown>, time: number | null) => groupKey([time, ...opts.joinColumns.map((c) => row[c])]);
  const lookup = new Map<string, Record<string, unknown>>();
  for (const row of shifted) {
    const t = timeOf(row);
    lookup.set(keyOf(row, t === null ? null : opts.shiftMs(t)), row);
  }
  const added = opts.metrics.map((m) => `${m}${TIME_COMPARISON}${opts.offset}`);
  return {
    colnames: [...main.colnames, ...added],
    rows: main.rows.map((row) => {
      const match = lookup.get(keyOf(row, timeOf(row)));
      const out = { ...row };
      opts.metrics.forEach((m, i) => {
        out[added[i]] = match ? (match[m] ?? null) : null;
      });
      return out;
    }),
  };
}

export { frameFromRows, frameToRows };
