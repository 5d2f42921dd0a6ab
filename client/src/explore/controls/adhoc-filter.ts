/**
 * Superset's adhoc filters (spec 01 §3) as the filter editor builds them: the operators it offers for a column,
 * how a filter reads on its chip, and the filter a Simple tab saves.
 */
import { TIME_RANGE_NO_FILTER } from '@meridian/contracts/messages';

export interface AdhocFilter {
  expressionType: 'SIMPLE' | 'SQL';
  clause: 'WHERE' | 'HAVING';
  subject?: string;
  operator?: string;
  comparator?: unknown;
  sqlExpression?: string;
  isExtra?: boolean;
}

export interface FilterOperator {
  value: string;
  label: string;
  multi?: boolean;
  unary?: boolean;
  /** A pattern typed as text (LIKE and its kin), never picked among the column's values. */
  pattern?: boolean;
  /** Offered for temporal columns only; its value is a time range ('Last week', '2024-01-01 : 2024-02-01'). */
  temporal?: boolean;
}

/** Every operator of the chart data API, with Superset's labels. */
export const FILTER_OPERATORS: readonly FilterOperator[] = [
  { value: '==', label: 'Equal to (=)' },
  { value: '!=', label: 'Not equal to (≠)' },
  { value: '<', label: 'Less than (<)' },
  { value: '<=', label: 'Less or equal (<=)' },
  { value: '>', label: 'Greater than (>)' },
  { value: '>=', label: 'Greater or equal (>=)' },
  { value: 'IN', label: 'In', multi: true },
  { value: 'NOT IN', label: 'Not in', multi: true },
  { value: 'LIKE', label: 'Like', pattern: true },
  { value: 'NOT LIKE', label: 'Not like', pattern: true },
  { value: 'ILIKE', label: 'Like (case insensitive)', pattern: true },
  { value: 'NOT ILIKE', label: 'Not like (case insensitive)', pattern: true },
  { value: 'IS NULL', label: 'Is null', unary: true },
  { value: 'IS NOT NULL', label: 'Is not null', unary: true },
  { value: 'IS TRUE', label: 'Is true', unary: true },
  { value: 'IS FALSE', label: 'Is false', unary: true },
  { value: 'TEMPORAL_RANGE', label: 'TEMPORAL_RANGE', temporal: true },
];

/** The operators offered for a column: TEMPORAL_RANGE only on a temporal one (no column chosen yet: all but it). */
export function operatorsFor(column: { is_dttm?: boolean } | null | undefined): FilterOperator[] {
  return FILTER_OPERATORS.filter((o) => !o.temporal || !!column?.is_dttm);
}

export function operatorOf(value: string | undefined): FilterOperator {
  return FILTER_OPERATORS.find((o) => o.value === value) ?? FILTER_OPERATORS[0]!;
}

/** How a filter reads on its chip: `gender = boy`, `state IN (CA, NY)`, `ds TEMPORAL_RANGE (Last week)`, or its SQL. */
export function filterLabel(f: AdhocFilter): string {
  if (f.expressionType === 'SQL') return f.sqlExpression ?? '';
  const op = FILTER_OPERATORS.find((o) => o.value === f.operator);
  if (op?.unary) return `${f.subject} ${f.operator}`;
  const value = Array.isArray(f.comparator) || op?.temporal ? `(${[f.comparator].flat().join(', ')})` : String(f.comparator ?? '');
  return `${f.subject} ${f.operator === '==' ? '=' : f.operator} ${value}`;
}

/**
 * The filter the Simple tab saves. Its subject is a column, so its clause is WHERE, as Superset's simple tab infers it
 * from a column subject (a filter on a metric is written in the Custom SQL tab, under HAVING). The comparator takes
 * the operator's shape: none for IS NULL and the like, a list for IN, one value otherwise, a time range for TEMPORAL_RANGE.
 *
 * @example simpleFilter('name', 'NOT LIKE', ['A%']) // { expressionType: 'SIMPLE', clause: 'WHERE', subject: 'name', operator: 'NOT LIKE', comparator: 'A%' }
 */
export function simpleFilter(subject: string, operator: string, values: readonly string[]): AdhocFilter {
  const op = operatorOf(operator);
  const comparator = op.unary ? null : op.multi ? [...values] : op.temporal ? (values[0] ?? TIME_RANGE_NO_FILTER) : values[0];
  return { expressionType: 'SIMPLE', clause: 'WHERE', subject, operator: op.value, comparator };
}
