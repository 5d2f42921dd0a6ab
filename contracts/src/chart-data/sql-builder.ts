/**
 * SQL generation for chart queries: a normalised query object + a dataset + an engine dialect →
 * one SELECT. User values become safely quoted literals of the engine (never pasted), column
 * names are checked against the dataset, ad hoc SQL is checked by {@link validateSqlExpression},
 * time grains come from the engine spec through the dialect. Pure: no I/O, no engine import.
 */
import {
  DTTM_ALIAS,
  getColumnLabel,
  getMetricLabel,
  isAdhocColumn,
  isAdhocMetric,
  type Metric,
  type QueryColumn,
  type QueryFilter,
  type QueryObject,
} from './query-object';
import { type Backend, SqlExpressionError, validateSqlExpression } from './sql-expression';
import { getSinceUntil, TimeRangeError } from './time-range';

/** What the builder needs of an engine: quoting, time grains and alias limits. */
export interface QueryDialect {
  backend: Backend;
  quote(identifier: string): string;
  /** The time grain expression of `expression` (`{col}` filled); throws on a grain the engine lacks. */
  timeGrain(grain: string, expression: string): string;
  /** `expression` (a column of epoch seconds or milliseconds) as a timestamp, so grains and the time axis work on it. */
  epochToDttm(format: 'epoch_s' | 'epoch_ms', expression: string): string;
  /** Longest alias the engine keeps (Postgres truncates at 63 bytes). */
  maxAliasLength?: number;
}

export interface DatasetColumnForQuery {
  column_name: string;
  expression?: string | null;
  type?: string | null;
  is_dttm?: boolean | null;
  python_date_format?: string | null;
  filterable?: boolean | null;
  groupby?: boolean | null;
}

export interface DatasetMetricForQuery {
  metric_name: string;
  expression: string;
}

/** The dataset a query runs on: a physical table or a virtual one (SQL). */
export interface DatasetForQuery {
  table_name: string;
  schema?: string | null;
  catalog?: string | null;
  sql?: string | null;
  main_dttm_col?: string | null;
  columns: DatasetColumnForQuery[];
  metrics: DatasetMetricForQuery[];
  /** Row-level security clauses for the querying user, ANDed into WHERE (set by an admin: trusted SQL, not checked as ad-hoc SQL is). */
  rls?: readonly string[];
}

/** A query the builder refused; `errorType` is Superset's, `status` the HTTP status to answer with. */
export class QueryBuildError extends Error {
  constructor(
    message: string,
    readonly errorType: string = 'INVALID_PAYLOAD_SCHEMA_ERROR',
    readonly status = 400,
  ) {
    super(message);
    this.name = 'QueryBuildError';
  }
}

export interface BuildOptions {
  now: Date;
  allowAdhocSubquery?: boolean;
}

export interface BuiltQuery {
  sql: string;
  /** Result column labels in select order. */
  labels: string[];
  /** Alias used in SQL → label, when an alias had to be shortened for the engine. */
  aliasToLabel: Record<string, string>;
  appliedFilterColumns: string[];
  /**
   * Labels the query makes time values (a time axis, a time grain, __timestamp): some engines
   * (SQLite) type such expressions as nothing or text, so the reader treats them as time by label.
   */
  temporalLabels: string[];
  rejectedFilterColumns: Array<{ column: string; reason: 'not_in_datasource' | 'not_filterable' }>;
}

// ---------------------------------------------------------------- literals

/** A string as a literal of the engine; doubling quotes keeps it a single literal whatever the escaping mode. */
export function quoteString(value: string, backend: Backend): string {
  if (value.includes('\0')) throw new QueryBuildError('Filter values cannot contain NUL characters.');
  if (backend === 'mysql') {
    return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "''").replace(/\n/g, '\\n').replace(/\r/g, '\\r').replace(/\x1a/g, '\\Z')}'`;
  }
  if (backend === 'postgresql' && value.includes('\\')) return `E'${value.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;
  return `'${value.replace(/'/g, "''")}'`;
}

const globLiteral = (c: string) => (c === '*' || c === '?' || c === '[' ? `[${c}]` : c);

/**
 * A LIKE pattern as a SQLite GLOB pattern, so LIKE is case-sensitive on SQLite as on the other
 * engines (SQLite's LIKE ignores ASCII case). A backslash escapes the next character, as LIKE's
 * default escape does on PostgreSQL and MySQL.
 *
 * @example likeToGlob('Jo%_*') // 'Jo*?[*]'
 */
export function likeToGlob(pattern: string): string {
  let out = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\' && i + 1 < pattern.length) out += globLiteral(pattern[++i]);
    else if (c === '%') out += '*';
    else if (c === '_') out += '?';
    else out += globLiteral(c);
  }
  return out;
}

function pad(n: number, width = 2): string {
  return String(n).padStart(width, '0');
}

/** A naive timestamp as `YYYY-MM-DD HH:MM:SS[.ffffff]`. */
export function formatTimestamp(date: Date): string {
  const base = `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())} ${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())}`;
  const ms = date.getUTCMilliseconds();
  return ms ? `${base}.${pad(ms, 3)}000` : base;
}

function strftime(date: Date, format: string): string {
  return format.replace(/%([YmdHMSfy%])/g, (_, c: string) => {
    switch (c) {
      case 'Y': return String(date.getUTCFullYear());
      case 'y': return pad(date.getUTCFullYear() % 100);
      case 'm': return pad(date.getUTCMonth() + 1);
      case 'd': return pad(date.getUTCDate());
      case 'H': return pad(date.getUTCHours());
      case 'M': return pad(date.getUTCMinutes());
      case 'S': return pad(date.getUTCSeconds());
      case 'f': return pad(date.getUTCMilliseconds() * 1000, 6);
      default: return '%';
    }
  });
}

/** A datetime literal for a column of the dataset (Superset's convert_dttm, and python_date_format for text or epoch columns). */
export function datetimeLiteral(date: Date, backend: Backend, column?: DatasetColumnForQuery | null): string {
  const format = column?.python_date_format;
  if (format === 'epoch_s') return String(Math.floor(date.getTime() / 1000));
  if (format === 'epoch_ms') return String(date.getTime());
  if (format) return quoteString(strftime(date, format), backend);
  const type = (column?.type ?? '').toUpperCase();
  const isDate = /^DATE$/.test(type);
  const text = isDate ? formatTimestamp(date).slice(0, 10) : formatTimestamp(date);
  if (backend === 'sqlite') return `'${text}'`;
  return isDate ? `DATE '${text}'` : `TIMESTAMP '${text}'`;
}

function isTemporal(column: DatasetColumnForQuery | null | undefined): boolean {
  if (!column) return false;
  if (column.is_dttm) return true;
  return /DATE|TIME/i.test(column.type ?? '') && !/INTERVAL/i.test(column.type ?? '');
}

function isNumericType(column: DatasetColumnForQuery | null | undefined): boolean {
  return !!column && /INT|NUMERIC|DECIMAL|FLOAT|DOUBLE|REAL|NUMBER|SERIAL/i.test(column.type ?? '');
}

/** A boolean column; MySQL's BOOLEAN is stored and described as TINYINT(1). */
function isBooleanType(column: DatasetColumnForQuery | null | undefined): boolean {
  return !!column && /BOOL|^TINYINT\(1\)/i.test(column.type ?? '');
}

/** A user value as a literal for comparison with a column: numbers, booleans, datetimes or strings, never raw SQL. */
export function valueLiteral(value: unknown, backend: Backend, column?: DatasetColumnForQuery | null): string {
  if (value === null || value === undefined) return 'NULL';
  if (typeof value === 'boolean') return backend === 'sqlite' || backend === 'mysql' ? (value ? '1' : '0') : value ? 'TRUE' : 'FALSE';
  if (typeof value === 'bigint') return value.toString();
  if (isTemporal(column)) {
    if (typeof value === 'number' && Number.isFinite(value)) return datetimeLiteral(new Date(value), backend, column);
    if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?)?Z?$/.test(value.trim())) {
      const parsed = Date.parse(/Z$/.test(value.trim()) ? value.trim() : `${value.trim().replace(' ', 'T')}Z`);
      if (!Number.isNaN(parsed)) return datetimeLiteral(new Date(parsed), backend, column);
    }
  }
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new QueryBuildError(`Invalid filter value: ${value}`);
    return String(value);
  }
  if (typeof value === 'string') {
    if (isNumericType(column) && /^\s*-?\d+(\.\d+)?([eE][-+]?\d+)?\s*$/.test(value)) return String(Number(value));
    if (isBooleanType(column) && /^(true|false)$/i.test(value)) return valueLiteral(value.toLowerCase() === 'true', backend, column);
    return quoteString(value, backend);
  }
  throw new QueryBuildError(`Invalid filter value: ${JSON.stringify(value)}`);
}

// ---------------------------------------------------------------- the builder

const AGGREGATES: Record<string, (expr: string) => string> = {
  AVG: (e) => `AVG(${e})`,
  COUNT: (e) => `COUNT(${e})`,
  COUNT_DISTINCT: (e) => `COUNT(DISTINCT ${e})`,
  MAX: (e) => `MAX(${e})`,
  MIN: (e) => `MIN(${e})`,
  SUM: (e) => `SUM(${e})`,
};

function fnv(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16).padStart(8, '0');
}

class Builder {
  private readonly columnsByName = new Map<string, DatasetColumnForQuery>();
  private readonly metricsByName = new Map<string, DatasetMetricForQuery>();
  readonly aliasToLabel: Record<string, string> = {};

  constructor(
    private readonly dataset: DatasetForQuery,
    private readonly dialect: QueryDialect,
    private readonly opts: BuildOptions,
  ) {
    for (const c of dataset.columns) this.columnsByName.set(c.column_name, c);
    for (const m of dataset.metrics) this.metricsByName.set(m.metric_name, m);
  }

  q(identifier: string): string {
    return this.dialect.quote(identifier);
  }

  /** An alias for a label, shortened with a hash when the engine would truncate it. */
  alias(label: string): string {
    const max = this.dialect.maxAliasLength;
    if (max && new TextEncoder().encode(label).length > max) {
      const short = `${label.slice(0, Math.max(1, Math.floor(max / 4)))}__${fnv(label)}`;
      this.aliasToLabel[short] = label;
      return this.q(short);
    }
    return this.q(label);
  }

  expression(text: string, place: 'select' | 'where' | 'having'): string {
    try {
      return validateSqlExpression(text, place, { backend: this.dialect.backend, allowSubquery: this.opts.allowAdhocSubquery });
    } catch (error) {
      if (error instanceof SqlExpressionError) throw new QueryBuildError(error.message, error.errorType);
      throw error;
    }
  }

  datasetColumn(name: string): DatasetColumnForQuery | null {
    return this.columnsByName.get(name) ?? null;
  }

  /** SQL of a dataset column: its calculated expression (written by the dataset's owners) or its quoted name. */
  columnSql(column: DatasetColumnForQuery): string {
    return column.expression?.trim() ? `(${column.expression})` : this.q(column.column_name);
  }

  /** A temporal column's SQL as a timestamp: epoch numbers (python_date_format epoch_s/epoch_ms) are converted first. */
  timestampSql(column: DatasetColumnForQuery): string {
    const sql = this.columnSql(column);
    const format = column.python_date_format;
    return format === 'epoch_s' || format === 'epoch_ms' ? this.dialect.epochToDttm(format, sql) : sql;
  }

  /** SQL of a query column (name or adhoc), with the time grain applied to an x-axis column. */
  queryColumnSql(column: QueryColumn, grain?: string | null): { sql: string; label: string; dataset: DatasetColumnForQuery | null; temporal: boolean } {
    if (typeof column === 'string') {
      const found = this.datasetColumn(column);
      if (!found) throw new QueryBuildError(`Columns missing in dataset: ['${column}']`, 'COLUMN_DOES_NOT_EXIST_ERROR');
      return { sql: this.columnSql(found), label: column, dataset: found, temporal: false };
    }
    if (!isAdhocColumn(column)) throw new QueryBuildError(`Invalid column: ${JSON.stringify(column)}`);
    const label = getColumnLabel(column);
    const referenced = this.datasetColumn(column.sqlExpression);
    let sql: string;
    let dataset: DatasetColumnForQuery | null = referenced;
    if (referenced) sql = this.columnSql(referenced);
    else if (column.isColumnReference) throw new QueryBuildError(`Columns missing in dataset: ['${column.sqlExpression}']`, 'COLUMN_DOES_NOT_EXIST_ERROR');
    else {
      sql = `(${this.expression(column.sqlExpression, 'select')}\n)`;
      dataset = null;
    }
    const timeGrain = column.columnType === 'BASE_AXIS' ? (column.timeGrain ?? grain) : null;
    let temporal = false;
    // The time axis of an epoch column is shown as time, grain or not (Superset's get_timestamp_expression).
    if (column.columnType === 'BASE_AXIS' && referenced && isTemporal(referenced)) {
      sql = this.timestampSql(referenced);
      temporal = true;
    }
    if (timeGrain && (referenced ? isTemporal(referenced) : true)) {
      sql = this.grain(timeGrain, sql);
      temporal = true;
    }
    return { sql, label, dataset, temporal };
  }

  grain(grain: string, sql: string): string {
    try {
      return this.dialect.timeGrain(grain, sql);
    } catch (error) {
      throw new QueryBuildError((error as Error).message || `No grain spec for ${grain}`);
    }
  }

  metricSql(metric: Metric): { sql: string; label: string } {
    if (typeof metric === 'string') {
      const saved = this.metricsByName.get(metric);
      if (!saved) throw new QueryBuildError(`Metric '${metric}' does not exist`);
      return { sql: saved.expression, label: metric };
    }
    if (!isAdhocMetric(metric)) throw new QueryBuildError(`Invalid metric: ${JSON.stringify(metric)}`);
    const label = getMetricLabel(metric);
    if (metric.expressionType === 'SIMPLE') {
      const aggregate = AGGREGATES[String(metric.aggregate ?? '').toUpperCase()];
      if (!aggregate) throw new QueryBuildError(`Invalid aggregate: ${metric.aggregate}`);
      const name = typeof metric.column === 'string' ? metric.column : metric.column?.column_name;
      const column = name ? this.datasetColumn(name) : null;
      if (!column) throw new QueryBuildError(`Columns missing in dataset: ['${name}']`, 'COLUMN_DOES_NOT_EXIST_ERROR');
      return { sql: aggregate(this.columnSql(column)), label };
    }
    if (metric.expressionType === 'SQL') return { sql: `(${this.expression(metric.sqlExpression, 'select')}\n)`, label };
    throw new QueryBuildError(`Invalid metric: ${JSON.stringify(metric)}`);
  }

  /** One filter as SQL, or null when the column is not in the dataset (the filter is then rejected, as Superset does). */
  filterSql(filter: QueryFilter): { sql: string | null; column: string } {
    const name = typeof filter.col === 'string' ? filter.col : getColumnLabel(filter.col);
    let colSql: string;
    let column: DatasetColumnForQuery | null;
    if (typeof filter.col === 'string') {
      column = this.datasetColumn(filter.col);
      if (!column) return { sql: null, column: name };
      colSql = this.columnSql(column);
    } else if (isAdhocColumn(filter.col)) {
      const resolved = this.queryColumnSql({ ...filter.col, columnType: undefined });
      colSql = resolved.sql;
      column = resolved.dataset;
    } else {
      return { sql: null, column: String(name) };
    }
    return { sql: this.renderFilter(colSql, column, filter, name), column: name };
  }

  /** A filter's operator and value applied to an SQL expression (a column, or a metric in HAVING). */
  renderFilter(colSql: string, column: DatasetColumnForQuery | null, filter: QueryFilter, name: string): string {
    const op = filter.op;
    const val = filter.val;
    const backend = this.dialect.backend;
    const lit = (v: unknown) => valueLiteral(v, backend, column);
    const list = Array.isArray(val) ? val : val === undefined ? [] : [val];
    switch (op) {
      case '==':
      case '!=': {
        const v = Array.isArray(val) ? val[0] : val;
        if (v === null || v === undefined) return `${colSql} ${op === '==' ? 'IS NULL' : 'IS NOT NULL'}`;
        return `${colSql} ${op === '==' ? '=' : '!='} ${lit(v)}`;
      }
      case '>':
      case '<':
      case '>=':
      case '<=': {
        const v = Array.isArray(val) ? val[0] : val;
        if (v === null || v === undefined) throw new QueryBuildError(`Filter value required for ${op} on ${name}`);
        return `${colSql} ${op} ${lit(v)}`;
      }
      case 'IN':
      case 'NOT IN': {
        const values = list.filter((v) => v !== null && v !== undefined);
        const hasNull = values.length !== list.length;
        const negate = op === 'NOT IN';
        if (!values.length) {
          if (hasNull) return `${colSql} ${negate ? 'IS NOT NULL' : 'IS NULL'}`;
          return negate ? '1 = 1' : '1 = 0';
        }
        const inSql = `${colSql} ${op} (${values.map(lit).join(', ')})`;
        if (!hasNull) return inSql;
        return negate ? `(${inSql} AND ${colSql} IS NOT NULL)` : `(${inSql} OR ${colSql} IS NULL)`;
      }
      case 'LIKE':
      case 'NOT LIKE':
      case 'ILIKE':
      case 'NOT ILIKE': {
        const v = Array.isArray(val) ? val[0] : val;
        if (typeof v !== 'string' && typeof v !== 'number') throw new QueryBuildError(`Filter value required for ${op} on ${name}`);
        const pattern = quoteString(String(v), backend);
        const negate = op.startsWith('NOT ') ? 'NOT ' : '';
        if (op.endsWith('ILIKE') && (backend === 'mysql' || backend === 'sqlite')) return `LOWER(${colSql}) ${negate}LIKE LOWER(${pattern})`;
        if (!op.endsWith('ILIKE') && backend === 'mysql') return `${colSql} ${negate}LIKE BINARY ${pattern}`;
        if (!op.endsWith('ILIKE') && backend === 'sqlite') return `${colSql} ${negate}GLOB ${quoteString(likeToGlob(String(v)), backend)}`;
        return `${colSql} ${op} ${pattern}`;
      }
      case 'IS NULL':
      case 'IS NOT NULL':
        return `${colSql} ${op}`;
      case 'IS TRUE':
      case 'IS FALSE':
        return `${colSql} ${op}`;
      case 'TEMPORAL_RANGE': {
        if (typeof val !== 'string') throw new QueryBuildError(`Invalid time range for ${name}`);
        let range;
        try {
          range = getSinceUntil(val, { now: this.opts.now });
        } catch (error) {
          if (error instanceof TimeRangeError) throw new QueryBuildError(error.message);
          throw error;
        }
        return this.timeFilter(colSql, column, range.since, range.until) ?? '1 = 1';
      }
      default:
        throw new QueryBuildError(`Invalid filter operation type: ${op}`);
    }
  }

  timeFilter(colSql: string, column: DatasetColumnForQuery | null, since: Date | null, until: Date | null): string | null {
    const parts: string[] = [];
    if (since) parts.push(`${colSql} >= ${datetimeLiteral(since, this.dialect.backend, column)}`);
    if (until) parts.push(`${colSql} < ${datetimeLiteral(until, this.dialect.backend, column)}`);
    return parts.length ? parts.join(' AND ') : null;
  }

  fromClause(): string {
    const { dataset } = this;
    if (dataset.sql?.trim()) {
      const sql = dataset.sql.trim().replace(/;\s*$/, '');
      return `(${sql}\n) AS virtual_table`;
    }
    const parts = [dataset.catalog, dataset.schema, dataset.table_name].filter((p): p is string => !!p);
    return parts.map((p) => this.q(p)).join('.');
  }
}

function orderItemSql(b: Builder, item: Metric | QueryColumn, selected: { metrics: Map<string, string>; columns: Map<string, string> }): string {
  if (typeof item === 'string') {
    if (selected.metrics.has(item)) return selected.metrics.get(item)!;
    if (selected.columns.has(item)) return selected.columns.get(item)!;
    try {
      return b.metricSql(item).sql;
    } catch {
      const column = b.datasetColumn(item);
      if (!column) throw new QueryBuildError(`Invalid order by column or metric: ${item}`);
      return b.columnSql(column);
    }
  }
  if (isAdhocMetric(item)) return b.metricSql(item).sql;
  if (isAdhocColumn(item)) return b.queryColumnSql(item).sql;
  throw new QueryBuildError(`Invalid order by: ${JSON.stringify(item)}`);
}

/**
 * The SELECT of a query object on a dataset for an engine.
 *
 * @example buildQuerySql(query, dataset, dialect, { now: new Date() }).sql
 *   // SELECT "gender" AS "gender", SUM("num") AS "SUM(num)" FROM "birth_names" GROUP BY "gender" ORDER BY SUM("num") DESC LIMIT 10
 */
export function buildQuerySql(query: QueryObject & { havingFilters?: QueryFilter[] }, dataset: DatasetForQuery, dialect: QueryDialect, opts: BuildOptions): BuiltQuery {
  const b = new Builder(dataset, dialect, opts);
  const grain = query.extras.time_grain_sqla ?? null;
  const select: string[] = [];
  const groupBy: string[] = [];
  const labels: string[] = [];
  const temporalLabels: string[] = [];
  const selectedColumns = new Map<string, string>();
  const selectedMetrics = new Map<string, string>();

  // Legacy time series: the granularity column at the time grain, as __timestamp.
  const hasBaseAxis = query.columns.some((c) => typeof c === 'object' && c.columnType === 'BASE_AXIS');
  if (query.isTimeseries && query.granularity && !hasBaseAxis) {
    const column = b.datasetColumn(query.granularity);
    if (!column) throw new QueryBuildError(`Columns missing in dataset: ['${query.granularity}']`, 'COLUMN_DOES_NOT_EXIST_ERROR');
    const sql = grain ? b.grain(grain, b.timestampSql(column)) : b.timestampSql(column);
    select.push(`${sql} AS ${b.alias(DTTM_ALIAS)}`);
    groupBy.push(sql);
    labels.push(DTTM_ALIAS);
    temporalLabels.push(DTTM_ALIAS);
    selectedColumns.set(DTTM_ALIAS, sql);
  }

  for (const column of query.columns) {
    const { sql, label, temporal } = b.queryColumnSql(column, grain);
    if (selectedColumns.has(label)) continue;
    select.push(`${sql} AS ${b.alias(label)}`);
    groupBy.push(sql);
    labels.push(label);
    if (temporal) temporalLabels.push(label);
    selectedColumns.set(label, sql);
  }
  for (const metric of query.metrics) {
    const { sql, label } = b.metricSql(metric);
    if (selectedMetrics.has(label)) continue;
    if (selectedColumns.has(label)) throw new QueryBuildError(`Duplicate column/metric labels: '${label}'. Please make sure all columns and metrics have a unique label.`);
    select.push(`${sql} AS ${b.alias(label)}`);
    labels.push(label);
    selectedMetrics.set(label, sql);
  }
  if (!select.length) throw new QueryBuildError('Empty query?');

  // WHERE: the time range on the granularity column, filters, then the free-form clause.
  const where: string[] = [];
  const applied: string[] = [];
  const rejected: BuiltQuery['rejectedFilterColumns'] = [];
  // Without a granularity or a TEMPORAL_RANGE filter, a time range filters the dataset's main datetime
  // column, as Superset's granularity_sqla control defaults to it: a set time range never silently does nothing.
  const timeColumn = query.granularity ?? (query.filters.some((f) => f.op === 'TEMPORAL_RANGE') ? null : (dataset.main_dttm_col ?? null));
  if (timeColumn && (query.fromDttm || query.toDttm)) {
    const column = b.datasetColumn(timeColumn);
    if (!column) throw new QueryBuildError(`Columns missing in dataset: ['${timeColumn}']`, 'COLUMN_DOES_NOT_EXIST_ERROR');
    const clause = b.timeFilter(b.columnSql(column), column, query.fromDttm, query.toDttm);
    if (clause) where.push(clause);
  }
  for (const filter of query.filters) {
    const { sql, column } = b.filterSql(filter);
    if (sql === null) rejected.push({ column, reason: 'not_in_datasource' });
    else {
      where.push(sql);
      if (!applied.includes(column)) applied.push(column);
    }
  }
  if (query.extras.where?.trim()) where.push(`(${b.expression(query.extras.where, 'where')}\n)`);
  for (const clause of dataset.rls ?? []) where.push(clause);

  const having: string[] = [];
  for (const filter of query.havingFilters ?? []) {
    // A simple HAVING filter's subject is a metric: a selected metric's label or a saved metric.
    const label = typeof filter.col === 'string' ? filter.col : getColumnLabel(filter.col);
    const metricSql = selectedMetrics.get(label) ?? b.metricSql(label).sql;
    having.push(b.renderFilter(metricSql, null, filter, label));
  }
  if (query.extras.having?.trim()) having.push(`(${b.expression(query.extras.having, 'having')}\n)`);

  const from = b.fromClause();
  let join = '';
  const isAggregate = query.metrics.length > 0;

  // Series limit: keep the top N series by a metric, through a joined subquery.
  const seriesColumns = query.seriesColumns.length ? query.seriesColumns : [];
  if (isAggregate && query.seriesLimit > 0 && seriesColumns.length && (query.isTimeseries || hasBaseAxis)) {
    const inner = seriesColumns.map((c, i) => {
      const { sql } = b.queryColumnSql(c, null);
      return { sql, alias: `${b.q(`${getColumnLabel(c)}__`)}`, i };
    });
    const limitMetric = query.seriesLimitMetric ?? query.metrics[0];
    const metric = b.metricSql(limitMetric).sql;
    const innerWhere = where.length ? `\nWHERE ${where.join(' AND ')}` : '';
    const innerSelect = [...inner.map((c) => `${c.sql} AS ${c.alias}`), `${metric} AS ${b.q('mme_inner__')}`].join(', ');
    const innerSql = `SELECT ${innerSelect}\nFROM ${from}${innerWhere}\nGROUP BY ${inner.map((c) => c.sql).join(', ')}\nORDER BY ${b.q('mme_inner__')} ${query.orderDesc ? 'DESC' : 'ASC'}\nLIMIT ${Math.floor(query.seriesLimit)}`;
    const on = inner.map((c) => `${c.sql} = ${b.q('series_limit')}.${c.alias}`).join(' AND ');
    join = `\nJOIN (${innerSql}) AS ${b.q('series_limit')} ON ${on}`;
  }

  const order: string[] = [];
  for (const [item, ascending] of query.orderby) {
    order.push(`${orderItemSql(b, item, { metrics: selectedMetrics, columns: selectedColumns })} ${ascending ? 'ASC' : 'DESC'}`);
  }
  if (!order.length && isAggregate && query.columns.length && !query.isTimeseries && !hasBaseAxis) {
    order.push(`${[...selectedMetrics.values()][0]} ${query.orderDesc ? 'DESC' : 'ASC'}`);
  }

  let sql = `SELECT ${select.join(', ')}\nFROM ${from}${join}`;
  if (where.length) sql += `\nWHERE ${where.join(' AND ')}`;
  if (isAggregate && groupBy.length) sql += `\nGROUP BY ${groupBy.join(', ')}`;
  if (having.length) sql += `\nHAVING ${having.join(' AND ')}`;
  if (order.length) sql += `\nORDER BY ${order.join(', ')}`;
  if (query.rowLimit !== null && query.rowLimit !== undefined) sql += `\nLIMIT ${Math.floor(query.rowLimit)}`;
  if (query.rowOffset > 0) {
    if (query.rowLimit === null || query.rowLimit === undefined) sql += dialect.backend === 'mysql' ? '\nLIMIT 18446744073709551615' : dialect.backend === 'sqlite' ? '\nLIMIT -1' : '';
    sql += `\nOFFSET ${Math.floor(query.rowOffset)}`;
  }
  return { sql, labels, aliasToLabel: b.aliasToLabel, appliedFilterColumns: applied, rejectedFilterColumns: rejected, temporalLabels };
}

/** Samples and drill detail read every column of the dataset, unaggregated. */
export function allColumnsQuery(query: QueryObject, dataset: DatasetForQuery): QueryObject {
  return {
    ...query,
    columns: dataset.columns.map((c) => c.column_name),
    metrics: [],
    orderby: [],
    isTimeseries: false,
    postProcessing: [],
    seriesLimit: 0,
    timeOffsets: [],
  };
}

/** `SELECT COUNT(*) AS rowcount` over a query's SQL, as a subquery. */
export function countRowsSql(sql: string, dialect: QueryDialect): string {
  return `SELECT COUNT(*) AS ${dialect.quote('rowcount')} FROM (${sql}\n) AS ${dialect.quote('count_query')}`;
}

/** `SELECT COUNT(*)` over the same FROM and WHERE as a query (drill detail's total count). */
export function buildCountSql(query: QueryObject, dataset: DatasetForQuery, dialect: QueryDialect, opts: BuildOptions): string {
  return countRowsSql(buildQuerySql({ ...query, orderby: [], rowLimit: null, rowOffset: 0 }, dataset, dialect, opts).sql, dialect);
}
