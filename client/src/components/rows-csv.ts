import { cellText } from './cell-text';

/**
 * The records of a CSV of rows under their column names: cells read as the data panes show them (a temporal column's
 * epoch numbers as date-times, big integers with all their digits), except that a null is an empty cell, as in
 * Superset's CSV export.
 *
 * @example rowsCsvRecords(['ds', 'n'], [2, 0], [{ ds: 0, n: null }]) // [['ds', 'n'], ['1970-01-01 00:00:00', '']]
 */
export function rowsCsvRecords(colnames: readonly string[], coltypes: readonly (number | null | undefined)[] | undefined, rows: readonly Record<string, unknown>[]): string[][] {
  return [[...colnames], ...rows.map((row) => colnames.map((name, i) => (row[name] === null || row[name] === undefined ? '' : cellText(row[name], coltypes?.[i]))))];
}
