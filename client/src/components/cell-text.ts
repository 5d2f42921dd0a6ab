import { isLosslessNumber } from 'lossless-json';

/** Text of a cell: all digits of big integers, NULL for nulls, JSON for nested values (results grids, drill to detail, copy as TSV). */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  if (isLosslessNumber(value)) return value.toString();
  if (typeof value === 'object') return JSON.stringify(value, (_k, v) => (isLosslessNumber(v) ? v.toString() : v));
  return String(value);
}
