/**
 * Superset's query object (one entry of a chart data request's `queries`), its labels, and its
 * normalisation: legacy names folded in (`groupby`, `timeseries_limit`, `granularity_sqla`),
 * adhoc filters split into filters and extras, the time range resolved against a clock.
 */
import { getSinceUntil, type SinceUntil } from './time-range';
import { applyExtraFormData, type ExtraFormData } from '../dashboard/native-filters';

export interface AdhocColumn {
  label?: string;
  sqlExpression: string;
  expressionType?: 'SQL';
  columnType?: 'BASE_AXIS' | 'SERIES';
  timeGrain?: string | null;
  isColumnReference?: boolean;
}

export interface AdhocMetricSimple {
  expressionType: 'SIMPLE';
  column: { column_name: string; [key: string]: unknown } | string;
  aggregate: string;
  label?: string;
  hasCustomLabel?: boolean;
  optionName?: string;
}

export interface AdhocMetricSql {
  expressionType: 'SQL';
  sqlExpression: string;
  label?: string;
  hasCustomLabel?: boolean;
  optionName?: string;
}

export type AdhocMetric = AdhocMetricSimple | AdhocMetricSql;
export type Metric = string | AdhocMetric;
export type QueryColumn = string | AdhocColumn;

export interface QueryFilter {
  col: QueryColumn;
  op: string;
  val?: unknown;
  grain?: string | null;
  isExtra?: boolean;
}

export interface AdhocFilter {
  expressionType: 'SIMPLE' | 'SQL';
  clause?: 'WHERE' | 'HAVING';
  subject?: QueryColumn | null;
  operator?: string;
  operatorId?: string;
  comparator?: unknown;
  sqlExpression?: string;
  isExtra?: boolean;
}

export interface QueryExtras {
  where?: string | null;
  having?: string | null;
  time_grain_sqla?: string | null;
  relative_start?: string | null;
  relative_end?: string | null;
  [key: string]: unknown;
}

export type OrderBy = [Metric | QueryColumn, boolean];

/** A query object after normalisation: what the SQL builder reads. */
export interface QueryObject {
  columns: QueryColumn[];
  metrics: Metric[];
  filters: QueryFilter[];
  extras: QueryExtras;
  granularity: string | null;
  timeRange: string | null;
  fromDttm: Date | null;
  toDttm: Date | null;
  rowLimit: number | null;
  rowOffset: number;
  /** Superset's `is_rowcount`: the answer is the number of rows the query gives (within its row limit), not the rows. */
  isRowcount: boolean;
  seriesColumns: QueryColumn[];
  seriesLimit: number;
  seriesLimitMetric: Metric | null;
  orderDesc: boolean;
  orderby: OrderBy[];
  isTimeseries: boolean;
  timeOffsets: string[];
  postProcessing: Array<{ operation: string; options?: Record<string, unknown> } | null>;
  annotationLayers: unknown[];
  appliedTimeExtras: Record<string, unknown>;
  resultType: string | null;
}

/** Superset's DTTM_ALIAS, the legacy time column. */
export const DTTM_ALIAS = '__timestamp';

export const FILTER_OPERATORS = [
  '==', '!=', '>', '<', '>=', '<=', 'LIKE', 'NOT LIKE', 'ILIKE', 'NOT ILIKE', 'IS NULL', 'IS NOT NULL', 'IN', 'NOT IN',
  'IS TRUE', 'IS FALSE', 'TEMPORAL_RANGE',
] as const;
export type FilterOperator = (typeof FILTER_OPERATORS)[number];

/** Adhoc filter operator names the client sends → query filter ops (Superset's `convertFilter`). */
const ADHOC_OPERATOR_ALIASES: Record<string, FilterOperator> = {
  '==': '==', '=': '==', EQUALS: '==', '!=': '!=', '<>': '!=', NOT_EQUALS: '!=',
  '>': '>', GREATER_THAN: '>', '<': '<', LESS_THAN: '<', '>=': '>=', GREATER_THAN_OR_EQUAL: '>=', '<=': '<=', LESS_THAN_OR_EQUAL: '<=',
  LIKE: 'LIKE', 'NOT LIKE': 'NOT LIKE', ILIKE: 'ILIKE', 'NOT ILIKE': 'NOT ILIKE',
  'IS NULL': 'IS NULL', IS_NULL: 'IS NULL', 'IS NOT NULL': 'IS NOT NULL', IS_NOT_NULL: 'IS NOT NULL',
  IN: 'IN', 'NOT IN': 'NOT IN', IS_TRUE: 'IS TRUE', 'IS TRUE': 'IS TRUE', IS_FALSE: 'IS FALSE', 'IS FALSE': 'IS FALSE',
  TEMPORAL_RANGE: 'TEMPORAL_RANGE',
};

export function normaliseOperator(op: string): string {
  return ADHOC_OPERATOR_ALIASES[op] ?? ADHOC_OPERATOR_ALIASES[op.toUpperCase()] ?? op;
}

export function isAdhocColumn(column: unknown): column is AdhocColumn {
  return !!column && typeof column === 'object' && 'sqlExpression' in column;
}

export function isAdhocMetric(metric: unknown): metric is AdhocMetric {
  return !!metric && typeof metric === 'object' && 'expressionType' in metric;
}

/** Superset's getMetricLabel: a saved metric's name, a custom label, `AGG(column)`, or the SQL text. */
export function getMetricLabel(metric: Metric): string {
  if (typeof metric === 'string') return metric;
  return metric.label || defaultMetricLabel(metric);
}

function defaultMetricLabel(metric: AdhocMetric): string {
  if (metric.expressionType === 'SIMPLE') {
    const column = typeof metric.column === 'string' ? metric.column : metric.column?.column_name;
    return `${metric.aggregate}(${column ?? ''})`;
  }
  return metric.sqlExpression;
}

/** Label of a column: its name, or an adhoc column's label (else its SQL). */
export function getColumnLabel(column: QueryColumn): string {
  if (typeof column === 'string') return column;
  return column.label ?? column.sqlExpression;
}

export interface NormaliseOptions {
  now: Date;
  /** Form data of the request, for legacy fields (time_range, granularity_sqla) absent from the query. */
  formData?: Record<string, unknown> | null;
  defaultRowLimit?: number;
  maxRowLimit?: number;
}

function asArray<T>(value: T | T[] | null | undefined): T[] {
  if (value === null || value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}

/** Turns adhoc filters into query filters (SIMPLE WHERE) and WHERE / HAVING SQL clauses (Superset's processFilters). */
export function splitAdhocFilters(adhocFilters: readonly AdhocFilter[]): { filters: QueryFilter[]; where: string[]; having: string[]; havingFilters: QueryFilter[] } {
  const filters: QueryFilter[] = [];
  const havingFilters: QueryFilter[] = [];
  const where: string[] = [];
  const having: string[] = [];
  for (const filter of adhocFilters) {
    const clause = (filter.clause ?? 'WHERE').toUpperCase();
    if (filter.expressionType === 'SQL') {
      if (!filter.sqlExpression?.trim()) continue;
      (clause === 'HAVING' ? having : where).push(filter.sqlExpression);
    } else if (filter.subject) {
      const f: QueryFilter = { col: filter.subject, op: normaliseOperator(filter.operator ?? filter.operatorId ?? ''), val: filter.comparator, ...(filter.isExtra ? { isExtra: true } : {}) };
      (clause === 'HAVING' ? havingFilters : filters).push(f);
    }
  }
  return { filters, where, having, havingFilters };
}

/**
 * Normalises one raw query object of a chart data request. Unknown keys are ignored; legacy keys
 * (`groupby`, `timeseries_limit`, `timeseries_limit_metric`, `granularity_sqla`, `adhoc_filters`,
 * `where`, `having`, `time_grain_sqla`) are folded into their current names.
 */
export function normaliseQueryObject(input: Record<string, any>, opts: NormaliseOptions): QueryObject & { havingFilters: QueryFilter[] } {
  const form = opts.formData ?? {};
  // Native filters and cross-filters (spec 02 §3 Data mask) reach every chart type the same way: the
  // form data's extra_form_data (or the query's own) is applied here, in the server-side query context.
  const raw = applyExtraFormData(input, (input.extra_form_data ?? form.extra_form_data) as ExtraFormData | undefined);
  const extras: QueryExtras = { ...(raw.extras ?? {}) };
  for (const key of ['where', 'having', 'time_grain_sqla'] as const) {
    if (extras[key] === undefined && raw[key] !== undefined) extras[key] = raw[key];
  }
  const split = splitAdhocFilters(asArray(raw.adhoc_filters));
  const filters: QueryFilter[] = [...asArray<QueryFilter>(raw.filters ?? raw.filter), ...split.filters].map((f) => ({ ...f, op: normaliseOperator(String(f.op ?? '')) }));
  const joinClauses = (existing: unknown, more: string[]) => {
    const parts = [typeof existing === 'string' && existing.trim() ? existing : null, ...more].filter((p): p is string => !!p);
    return parts.length ? parts.map((p) => (parts.length > 1 ? `(${p})` : p)).join(' AND ') : (existing as string | null | undefined) ?? null;
  };
  extras.where = joinClauses(extras.where, split.where);
  extras.having = joinClauses(extras.having, split.having);

  const columns: QueryColumn[] = asArray<QueryColumn>(raw.columns).length ? asArray(raw.columns) : asArray(raw.groupby);
  const granularity = (raw.granularity ?? raw.granularity_sqla ?? null) as string | null;
  const timeRange = (raw.time_range ?? form.time_range ?? null) as string | null;
  const temporalFilter = filters.find((f) => f.op === 'TEMPORAL_RANGE');
  let range: SinceUntil = { since: null, until: null };
  const relative = { relativeStart: extras.relative_start ?? null, relativeEnd: extras.relative_end ?? null };
  if (timeRange && (granularity || !temporalFilter)) range = getSinceUntil(timeRange, { now: opts.now, ...relative });
  else if (temporalFilter && typeof temporalFilter.val === 'string') range = getSinceUntil(temporalFilter.val, { now: opts.now, ...relative });

  const rowLimitRaw = raw.row_limit ?? null;
  let rowLimit = rowLimitRaw === null || rowLimitRaw === undefined ? (opts.defaultRowLimit ?? null) : Number(rowLimitRaw);
  if (rowLimit !== null && !(rowLimit > 0)) rowLimit = opts.defaultRowLimit ?? null;
  if (rowLimit !== null && opts.maxRowLimit) rowLimit = Math.min(rowLimit, opts.maxRowLimit);
  const isTimeseries = !!raw.is_timeseries;
  const seriesColumns = raw.series_columns !== undefined && raw.series_columns !== null
    ? asArray<QueryColumn>(raw.series_columns)
    : columns.filter((c) => !(typeof c === 'object' && c.columnType === 'BASE_AXIS'));
  const orderby = asArray<OrderBy | string>(raw.orderby).map((item) => (typeof item === 'string' ? JSON.parse(item) : item)) as OrderBy[];

  return {
    columns,
    metrics: asArray<Metric>(raw.metrics),
    filters,
    havingFilters: split.havingFilters,
    extras,
    granularity,
    timeRange,
    fromDttm: range.since,
    toDttm: range.until,
    rowLimit,
    rowOffset: Number(raw.row_offset ?? 0) || 0,
    isRowcount: !!raw.is_rowcount,
    seriesColumns,
    seriesLimit: Number(raw.series_limit ?? raw.timeseries_limit ?? 0) || 0,
    seriesLimitMetric: (raw.series_limit_metric ?? raw.timeseries_limit_metric ?? null) as Metric | null,
    orderDesc: raw.order_desc === undefined ? true : !!raw.order_desc,
    orderby,
    isTimeseries,
    timeOffsets: asArray<string>(raw.time_offsets),
    postProcessing: asArray(raw.post_processing),
    annotationLayers: asArray(raw.annotation_layers),
    appliedTimeExtras: raw.applied_time_extras ?? {},
    resultType: raw.result_type ?? null,
  };
}
