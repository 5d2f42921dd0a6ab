/**
 * The row count over a result, as Superset's RowCountLabel words it ('%s row' / '%s rows'), with thousands separated.
 *
 * @example rowCountText(1) // '1 row'
 * @example rowCountText(1000000) // '1,000,000 rows'
 */
export function rowCountText(count: number): string {
  return `${count.toLocaleString('en-US')} ${count === 1 ? 'row' : 'rows'}`;
}

/**
 * The rows a chart's answer counts, as Superset's chart pills read it: a server-paginated table's total from its
 * second (is_rowcount) query, not the page it drew; another chart's first query's rows.
 *
 * @example chartRowCount({ viz_type: 'table', server_pagination: true }, [{ rowcount: 10 }, { data: [{ rowcount: 95 }] }]) // 95
 */
export function chartRowCount(formData: { viz_type?: string; server_pagination?: unknown }, queriesResponse: ReadonlyArray<{ rowcount?: number; data?: unknown }>): number {
  const total = formData.viz_type === 'table' && formData.server_pagination ? (queriesResponse[1]?.data as Array<{ rowcount?: unknown }> | undefined)?.[0]?.rowcount : undefined;
  return Number(total ?? queriesResponse[0]?.rowcount ?? 0);
}
