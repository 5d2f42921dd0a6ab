import { GenericDataType } from '@meridian/contracts/rules/constants';

/** Reading Superset's metric and column entries of form data (saved names or adhoc objects). */

export type MetricEntry = string | { expressionType?: 'SIMPLE' | 'SQL'; label?: string; column?: { column_name: string } | null; aggregate?: string | null; sqlExpression?: string | null; hasCustomLabel?: boolean };
export type ColumnEntry = string | { label?: string; sqlExpression?: string; expressionType?: string };

/** The label a metric's values come back under in the chart data answer. */
export function metricLabel(metric: MetricEntry): string {
  if (typeof metric === 'string') return metric;
  if (metric.label) return metric.label;
  if (metric.expressionType === 'SQL') return String(metric.sqlExpression ?? '');
  return `${metric.aggregate ?? ''}(${metric.column?.column_name ?? ''})`;
}

export function columnLabel(column: ColumnEntry): string {
  return typeof column === 'string' ? column : (column.label ?? column.sqlExpression ?? '');
}

export function asList<T>(value: T | T[] | null | undefined): T[] {
  if (value === null || value === undefined || (value as unknown) === '') return [];
  return Array.isArray(value) ? value : [value];
}

/** A value of a chart data row as a number (big numbers arrive as LosslessNumber-like objects). */
export function toNumber(value: unknown): number | null {
  if (value === null || value === undefined || value === '') return null;
  const n = typeof value === 'number' ? value : Number(String(value));
  return Number.isFinite(n) ? n : null;
}

/** The answer's time columns (coltypes TEMPORAL): read once for a chart, not per row or value. */
export function temporalColumns(answer: { colnames?: readonly string[]; coltypes?: readonly number[] } | null | undefined): Set<string> {
  return new Set((answer?.colnames ?? []).filter((_, i) => answer?.coltypes?.[i] === GenericDataType.TEMPORAL));
}

/** A temporal value (epoch ms or ISO text) as epoch ms, or null. */
export function toTime(value: unknown): number | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number') return value;
  const t = new Date(String(value)).getTime();
  return Number.isNaN(t) ? null : t;
}

/**
 * The name a chart shows for a metric or column: its verbose name from the dataset (Superset's verbose_map), else
 * the label itself. The answer's keys stay the labels; only what is written on the chart changes.
 */
export function displayNames(datasource: { verbose_map?: Record<string, string> } | null | undefined): (label: string) => string {
  const names = datasource?.verbose_map ?? {};
  return (label) => (Object.hasOwn(names, label) && names[label] ? names[label]! : label);
}
