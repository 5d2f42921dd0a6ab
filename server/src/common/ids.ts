/** The largest id the metadata store's integer columns hold (PostgreSQL `integer`). */
export const MAX_ID = 2_147_483_647;

/**
 * A metadata id from a number or its decimal text, or null: anything not a whole number from 0 to MAX_ID (a
 * slug, a fraction, a number past the column's range) is no id, so it is never sent to the store to fail there.
 */
export function metadataId(value: unknown): number | null {
  const n = typeof value === 'number' ? value : typeof value === 'string' && /^\d{1,10}$/.test(value) ? Number(value) : NaN;
  return Number.isInteger(n) && n >= 0 && n <= MAX_ID ? n : null;
}
