/**
 * Superset's `query_context_modified`: whether a chart data request asks for more than its chart shows. A guest (an
 * embedded dashboard's visitor) may read only what was shared with it, so its request's metrics, columns and
 * orderings — in its form data and in each query — must be among the chart's own.
 *
 * The chart's own are everything its saved definition names: its params (every key, since chart types keep their
 * metrics and columns under keys of their own) and the queries of its stored query context. Items are compared by
 * what they compute, not by their labels: a column by its name (or its SQL), a metric by its name, by aggregate and
 * column, or by its SQL. Filters are not compared: they can only narrow the rows.
 */
export interface StoredChartDefinition {
  id: number;
  params: Record<string, unknown>;
  /** The stored query context's queries; for a chart saved without one, the queries its params make. */
  queries: Array<Record<string, unknown>>;
}

interface ChartDataAsk {
  form_data?: Record<string, unknown> | null;
  queries: Array<Record<string, unknown>>;
}

const IDENTIFIER = /^[A-Za-z_][\w$]*$/;

/** Keys whose values narrow rows or carry context, and so name nothing a request may group or measure by. */
const NOT_DEFINITIONS = new Set(['adhoc_filters', 'filters', 'extra_filters', 'extra_form_data', 'extras', 'where', 'having', 'url_params', 'time_range', 'dashboards']);

/** What a metric, column or ordering target computes, as one string; null for what is neither. */
function identity(item: unknown): string | null {
  if (typeof item === 'string') return `name:${item}`;
  if (!item || typeof item !== 'object' || Array.isArray(item)) return null;
  const o = item as Record<string, any>;
  if (typeof o.sqlExpression === 'string' && o.sqlExpression.trim()) {
    const sql = o.sqlExpression.trim();
    return IDENTIFIER.test(sql) ? `name:${sql}` : `sql:${sql.replace(/\s+/g, ' ')}`;
  }
  const column = typeof o.column === 'object' && o.column ? o.column.column_name : o.column_name;
  if (typeof o.aggregate === 'string' && typeof column === 'string') return `agg:${o.aggregate.toUpperCase()}(${column})`;
  if (typeof column === 'string') return `name:${column}`;
  return null;
}

/** Every identity a stored value names, through arrays, objects and JSON text (such as `order_by_cols`). */
function collect(value: unknown, into: Set<string>, depth = 0): void {
  if (depth > 8 || value === null || value === undefined) return;
  if (typeof value === 'string') {
    into.add(`name:${value}`);
    const text = value.trim();
    if (text.startsWith('[') || text.startsWith('{')) {
      try {
        collect(JSON.parse(text), into, depth + 1);
      } catch {
        // Not JSON: the text itself is already counted.
      }
    }
    return;
  }
  if (typeof value !== 'object') return;
  const own = identity(value);
  if (own) into.add(own);
  if (Array.isArray(value)) for (const inner of value) collect(inner, into, depth + 1);
  else for (const [key, inner] of Object.entries(value)) if (!NOT_DEFINITIONS.has(key)) collect(inner, into, depth + 1);
}

const listOf = (value: unknown): unknown[] => (Array.isArray(value) ? value : value === null || value === undefined || value === '' ? [] : [value]);

/** The metrics, columns and ordering targets a request asks for. */
function asked(request: ChartDataAsk): unknown[] {
  const fd = request.form_data ?? {};
  const fromForm = ['metrics', 'columns', 'groupby'].flatMap((k) => listOf(fd[k]));
  const fromOrder = (orderby: unknown) => listOf(orderby).map((o) => (Array.isArray(o) ? o[0] : o));
  const fromQueries = request.queries.flatMap((q) => [
    ...listOf(q.metrics),
    ...listOf(q.columns),
    ...listOf(q.groupby),
    ...fromOrder(q.orderby),
    ...listOf(q.series_limit_metric ?? q.timeseries_limit_metric),
  ]);
  return [...fromForm, ...fromOrder(fd.orderby), ...fromQueries];
}

/**
 * True when the request asks for another chart than `chart` (its form data names another slice_id) or for a metric,
 * column or ordering the chart does not have.
 *
 * @example queryContextModified({ queries: [{ metrics: ['count'], columns: ['gender'] }] }, { id: 1, params: { metric: 'count', groupby: ['gender'] }, queries: [] }) // false
 * @example queryContextModified({ queries: [{ columns: ['name'] }] }, { id: 1, params: { groupby: ['gender'] }, queries: [] }) // true
 */
export function queryContextModified(request: ChartDataAsk, chart: StoredChartDefinition): boolean {
  const sliceId = request.form_data?.slice_id;
  if (sliceId !== undefined && sliceId !== null && Number(sliceId) !== chart.id) return true;
  const own = new Set<string>();
  collect(chart.params, own);
  collect(chart.queries, own);
  return asked(request).some((item) => {
    const id = identity(item);
    return id !== null && !own.has(id);
  });
}
