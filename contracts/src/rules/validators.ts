import { INVALID_FILTER_KEY, fmt } from '../messages';
import { SQL_MAX_ROW_FALLBACK } from './constants';

export const IS_EXPECTED_TO_BE_AN_INTEGER = 'is expected to be an integer';
export const VALUE_CANNOT_EXCEED = 'Value cannot exceed %s';
export const CANNOT_BE_EMPTY = 'cannot be empty';
export const INVALID_ORDERBY_OPTIONS = 'Found invalid orderby options';
export const AGG_CONTROLS_EMPTY = 'Group By, Metrics or Percentage Metrics must have a value';

/** A validator returns the error text or false. */
export type Validator = (value: unknown) => string | false;

/** Integer check: empty passes; non-numeric or non-whole fails with 'is expected to be an integer'. */
export function validateInteger(value: unknown): string | false {
  if (value === null || value === undefined || value === '') return false;
  const asNumber = Number(value);
  if (Number.isNaN(asNumber) || parseInt(String(value), 10) !== asNumber) return IS_EXPECTED_TO_BE_AN_INTEGER;
  return false;
}

/** Maximum check: fails with 'Value cannot exceed %s' when the number is greater than the bound. */
export function validateMaxValue(value: unknown, max: number): string | false {
  return Number(value) > max ? fmt(VALUE_CANNOT_EXCEED, max) : false;
}

/** Required check: fails with 'cannot be empty' for null, undefined, empty string or empty array. */
export function validateNonEmpty(value: unknown): string | false {
  if (value === null || value === undefined || value === '' || (Array.isArray(value) && value.length === 0)) {
    return CANNOT_BE_EMPTY;
  }
  return false;
}

/** Valid-number check for row limit and series limit. */
export function validateNumber(value: unknown): string | false {
  if (value === null || value === undefined || value === '') return false;
  return Number.isNaN(Number(value)) ? 'is expected to be a number' : false;
}

/** Row limit: a whole number not above the configured SQL_MAX_ROW (fallback 100000). */
export function validateRowLimit(value: unknown, sqlMaxRow?: number | null): string[] {
  const max = sqlMaxRow && sqlMaxRow > 0 ? sqlMaxRow : SQL_MAX_ROW_FALLBACK;
  return [validateInteger(value), validateMaxValue(value, max)].filter((e): e is string => e !== false);
}

/** Runs validators in order and returns all error texts. */
export function runValidators(value: unknown, validators: readonly Validator[]): string[] {
  return validators.map((validate) => validate(value)).filter((e): e is string => e !== false);
}

/** Order-by entries that are strings must be JSON, else 'Found invalid orderby options' is thrown. */
export function parseOrderby(orderby: unknown): unknown[] | undefined {
  const items = orderby === null || orderby === undefined ? [] : Array.isArray(orderby) ? orderby : [orderby];
  if (items.length === 0) return undefined;
  return items.map((item) => {
    if (typeof item !== 'string') return item;
    try {
      return JSON.parse(item);
    } catch {
      throw new Error(INVALID_ORDERBY_OPTIONS);
    }
  });
}

/** Metric-expression pattern: optional LONG/DOUBLE/FLOAT, then SUM/AVG/MAX/MIN/COUNT with a parenthesised name. */
export const METRIC_EXPRESSION_PATTERN = /^(LONG|DOUBLE|FLOAT)?(SUM|AVG|MAX|MIN|COUNT)\([A-Z0-9_."]*\)$/i;

/** True for auto-generated metric expressions such as `SUM(num)` or `LONGSUM(x)`. */
export function isMetricExpression(text: string): boolean {
  return METRIC_EXPRESSION_PATTERN.test(text);
}

/** A simple adhoc metric's SQL, as Superset's translateToSql writes it when the editor moves to Custom SQL: SUM(num), COUNT(DISTINCT name). */
export function simpleMetricSql(aggregate: string, column: string): string {
  return aggregate === 'COUNT_DISTINCT' ? `COUNT(DISTINCT ${column})` : `${aggregate}(${column})`;
}

/**
 * A custom SQL metric read back as column and aggregate when the editor moves to Simple: only a plain metric
 * expression (the pattern above; a LONG, DOUBLE or FLOAT prefix dropped, quotes taken off the name), as Superset
 * infers them; anything else is null.
 */
export function simpleMetricOfSql(sql: string): { aggregate: string; column: string } | null {
  const text = sql.trim();
  if (!isMetricExpression(text)) return null;
  const [, , aggregate, column] = /^(LONG|DOUBLE|FLOAT)?(SUM|AVG|MAX|MIN|COUNT)\((.*)\)$/i.exec(text)!;
  const name = column!.replace(/"/g, '');
  return name ? { aggregate: aggregate!.toUpperCase(), column: name } : null;
}

/** Datasource types of spec 01 §3. */
export const DATASOURCE_TYPES = ['table', 'query', 'dataset', 'sl_table', 'saved_query'] as const;
export type DatasourceType = (typeof DATASOURCE_TYPES)[number];

export interface DatasourceKey {
  id: number;
  type: DatasourceType;
}

/** Joins id and type with a double underscore. Example: `{ id: 3, type: 'table' }` → '3__table'. */
export function buildDatasourceKey({ id, type }: DatasourceKey): string {
  return `${id}__${type}`;
}

/** Parses 'id__type'; an invalid key throws 'Cannot parse invalid filter key'. */
export function parseDatasourceKey(key: string): DatasourceKey {
  const match = /^(\d+)__([a-z_]+)$/.exec(String(key));
  if (!match || !(DATASOURCE_TYPES as readonly string[]).includes(match[2])) throw new Error(INVALID_FILTER_KEY);
  return { id: Number(match[1]), type: match[2] as DatasourceType };
}

/** Dashboard filter key 'chartId_column' (Superset's other use of the same message). */
export function parseFilterKey(key: string): { chartId: number; column: string } {
  const match = /^([0-9]+)_(.*)$/.exec(key);
  if (!match) throw new Error(INVALID_FILTER_KEY);
  return { chartId: parseInt(match[1], 10), column: match[2] };
}

/** Choices as `[value, label]` pairs or bare values. */
export type ControlChoices = ReadonlyArray<readonly [unknown, string] | unknown>;

function choiceValues(choices: ControlChoices): unknown[] {
  return choices.map((choice) => (Array.isArray(choice) ? choice[0] : choice));
}

export interface SelectControlSpec {
  multi?: boolean;
  freeForm?: boolean;
  choices?: ControlChoices;
}

/**
 * Select-type controls that are not free form drop values not among the choices (multi keeps only allowed
 * values; single resets to null). Multi controls wrap a single value in a list.
 */
export function cleanSelectControlValue(control: SelectControlSpec, value: unknown): unknown {
  const wrapped = control.multi && value !== null && value !== undefined && !Array.isArray(value) ? [value] : value;
  if (control.freeForm || !control.choices) return wrapped;
  const allowed = choiceValues(control.choices);
  if (control.multi) {
    return Array.isArray(wrapped) ? wrapped.filter((item) => allowed.includes(item)) : wrapped;
  }
  if (wrapped === null || wrapped === undefined) return wrapped;
  return allowed.includes(wrapped) ? wrapped : null;
}

/** An unknown colour scheme is reset to the default scheme. */
export function resolveColorScheme(scheme: string | null | undefined, known: readonly string[], defaultScheme: string): string {
  return scheme && known.includes(scheme) ? scheme : defaultScheme;
}

/** Form-data fields touched by the include_time rule. */
export interface IncludeTimeFormData {
  include_time?: boolean;
  granularity_sqla?: string | null;
  groupby?: unknown[] | null;
  [key: string]: unknown;
}

/** When include_time is set with a time column not already in groupby, the column moves into groupby. */
export function applyIncludeTime<F extends IncludeTimeFormData>(formData: F): F {
  const column = formData.granularity_sqla;
  if (!formData.include_time || !column) return formData;
  const groupby = formData.groupby ?? [];
  if (groupby.includes(column)) return formData;
  return { ...formData, groupby: [column, ...groupby] };
}

/** Rolling types (spec 01 §5); periods and min periods are integers. */
export const ROLLING_TYPES = ['mean', 'sum', 'std', 'cumsum'] as const;
export type RollingType = (typeof ROLLING_TYPES)[number];

/** Comparison types (spec 01 §5). */
export const COMPARISON_TYPES = ['values', 'difference', 'percentage', 'ratio'] as const;
export type ComparisonType = (typeof COMPARISON_TYPES)[number];

/** Format used when a percentage comparison meets a non-percent format. */
export const PERCENT_FORMAT = ',.1%';

export function isPercentFormat(format: string | null | undefined): boolean {
  return typeof format === 'string' && format.includes('%');
}

/** A percentage comparison forces a percent format: keeps a percent format, else returns ',.1%'. */
export function formatForComparison(comparisonType: string | null | undefined, format: string | null | undefined): string | null | undefined {
  if (comparisonType !== 'percentage') return format;
  return isPercentFormat(format) ? format : PERCENT_FORMAT;
}

/** Under a percentage comparison only percent formats are offered. */
export function formatChoicesForComparison<C extends readonly [string, ...unknown[]]>(
  comparisonType: string | null | undefined,
  choices: readonly C[],
): C[] {
  return comparisonType === 'percentage' ? choices.filter((choice) => isPercentFormat(choice[0])) : [...choices];
}

/** Rolling periods and min periods must be integers. */
export function validateRollingOptions(options: { rolling_periods?: unknown; min_periods?: unknown }): string[] {
  return [validateInteger(options.rolling_periods), validateInteger(options.min_periods)].filter((e): e is string => e !== false);
}

/**
 * A table in aggregate mode needs something to group by or aggregate (Superset's validateAggControlValues): with
 * group-bys, metrics and percentage metrics all empty, 'Group By, Metrics or Percentage Metrics must have a value'.
 */
export function validateAggControlValues(values: readonly unknown[]): string | false {
  return values.every((value) => value === null || value === undefined || value === '' || (Array.isArray(value) && value.length === 0)) ? AGG_CONTROLS_EMPTY : false;
}
