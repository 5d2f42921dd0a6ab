/**
 * The row count over a result, as Superset's RowCountLabel words it ('%s row' / '%s rows'), with thousands separated.
 *
 * @example rowCountText(1) // '1 row'
 * @example rowCountText(1000000) // '1,000,000 rows'
 */
export function rowCountText(count: number): string {
  return `${count.toLocaleString('en-US')} ${count === 1 ? 'row' : 'rows'}`;
}
