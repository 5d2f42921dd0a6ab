import { GenericDataType } from '@meridian/contracts/rules/constants';
import { isLosslessNumber } from 'lossless-json';
import { getTimeFormatter } from '../viz/shared/format';

/** Superset's TimeFormats.DATABASE_DATETIME, the format of temporal cells in Explore's data panes and drill to detail. */
const databaseDatetime = getTimeFormatter('%Y-%m-%d %H:%M:%S');

/**
 * Text of a cell: all digits of big integers, NULL for nulls, JSON for nested values (results grids, drill to detail,
 * copy as TSV). Given the column's generic type (the answer's `coltypes`), a temporal epoch number reads as a UTC
 * date-time, as Superset shows it; other values of a temporal column (text dates) are left as they came.
 *
 * @example cellText(1099267200000, GenericDataType.TEMPORAL) // '2004-11-01 00:00:00'
 */
export function cellText(value: unknown, coltype?: number | null): string {
  if (value === null || value === undefined) return 'NULL';
  if (coltype === GenericDataType.TEMPORAL && (typeof value === 'number' || isLosslessNumber(value))) return databaseDatetime(Number(String(value)));
  if (isLosslessNumber(value)) return value.toString();
  if (typeof value === 'object') return JSON.stringify(value, (_k, v) => (isLosslessNumber(v) ? v.toString() : v));
  return String(value);
}
