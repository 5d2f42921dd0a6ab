/**
 * A small column-labelled table for post-processing: the shape pandas gives Superset's
 * pandas_postprocessing, without pandas. Columns may have several levels after a pivot
 * (`['SUM(num)', 'boy']`); the first `indexSize` columns are the index (e.g. the x-axis after a pivot).
 */
export type ColumnKey = ReadonlyArray<string | null>;

export interface Frame {
  columns: ColumnKey[];
  data: unknown[][];
  /** Leading columns that form the index (pandas' index after `pivot`); 0 for a plain table. */
  indexSize: number;
}

/** Superset's FLAT_COLUMN_SEPARATOR. */
export const FLAT_COLUMN_SEPARATOR = ', ';
/** Superset's TIME_COMPARISON separator (`metric__1 year ago`). */
export const TIME_COMPARISON = '__';
/** Superset's NULL_STRING (pivot's column_fill_value). */
export const NULL_STRING = '<NULL>';

/** Builds a frame from row objects in the order of `colnames`. */
export function frameFromRows(colnames: readonly string[], rows: ReadonlyArray<Record<string, unknown>>): Frame {
  return { columns: colnames.map((c) => [c]), data: rows.map((row) => colnames.map((c) => row[c])), indexSize: 0 };
}

/** Superset's escape_separator: a ', ' inside a label becomes '\, ' so flattening stays reversible. */
export function escapeSeparator(value: string): string {
  return value.replaceAll(FLAT_COLUMN_SEPARATOR, `\\${FLAT_COLUMN_SEPARATOR}`);
}

/** One column key as a flat name: levels joined by ', ', null levels skipped (Superset's flatten). */
export function flatName(key: ColumnKey): string {
  if (key.length === 1) return key[0] ?? '';
  return key
    .filter((cell): cell is string => cell !== null && cell !== undefined)
    .map((cell) => escapeSeparator(String(cell)))
    .join(FLAT_COLUMN_SEPARATOR);
}

/** Rows as objects keyed by flat column names (the index reset into ordinary columns). */
export function frameToRows(frame: Frame): { colnames: string[]; rows: Record<string, unknown>[] } {
  const colnames = frame.columns.map(flatName);
  return {
    colnames,
    rows: frame.data.map((row) => {
      const out: Record<string, unknown> = {};
      colnames.forEach((name, i) => {
        out[name] = row[i];
      });
      return out;
    }),
  };
}

/** Position of a column by flat name or single-level name; -1 when absent. */
export function columnIndex(frame: Frame, name: string): number {
  const direct = frame.columns.findIndex((key) => key.length === 1 && key[0] === name);
  return direct >= 0 ? direct : frame.columns.findIndex((key) => flatName(key) === name);
}

/** Numbers out of driver values: numeric strings (NUMERIC from Postgres) and bigints become numbers, null stays null. */
export function toNumber(value: unknown): number | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number') return Number.isNaN(value) ? null : value;
  if (typeof value === 'bigint') return Number(value);
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'string' && value.trim() !== '' && !Number.isNaN(Number(value))) return Number(value);
  return null;
}

/** True when every non-null value of the column is numeric (pandas' numeric dtype). */
export function isNumericColumn(frame: Frame, col: number): boolean {
  // An all-null column counts as numeric, like pandas' float column of NaN.
  return frame.data.every((row) => {
    const v = row[col];
    return v === null || v === undefined || (typeof v !== 'boolean' && toNumber(v) !== null);
  });
}

/** Sort order pandas uses for group keys: nulls last, numbers numerically, everything else as text. */
export function compareKeys(a: unknown, b: unknown): number {
  if (a === b) return 0;
  if (a === null || a === undefined) return 1;
  if (b === null || b === undefined) return -1;
  const na = typeof a === 'number' || typeof a === 'bigint' ? Number(a) : null;
  const nb = typeof b === 'number' || typeof b === 'bigint' ? Number(b) : null;
  if (na !== null && nb !== null) return na - nb;
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  const sa = String(a);
  const sb = String(b);
  return sa < sb ? -1 : sa > sb ? 1 : 0;
}

/** Stable key for grouping rows by several values. */
export function groupKey(values: readonly unknown[]): string {
  return JSON.stringify(values.map((v) => (typeof v === 'bigint' ? `${v}n` : v === undefined ? null : v)));
}
