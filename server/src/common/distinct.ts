import { sql, type SelectQueryBuilder } from 'kysely';
import { likePattern } from './list-query';

/**
 * `GET /api/v1/<resource>/distinct/{column}`: the distinct non-null values of one column among the rows
 * `base` lets the caller see, filtered by `filter` (contains), a page of them with how many there are.
 */
export async function distinctValues<DB, TB extends keyof DB>(
  base: SelectQueryBuilder<DB, TB, object>,
  column: string,
  page: { filter: string; page: number; pageSize: number },
): Promise<{ count: number; result: Array<{ text: string; value: unknown }> }> {
  const ref = sql.ref(column);
  let q = base.where(sql<boolean>`${ref} is not null`);
  if (page.filter) q = q.where(sql<boolean>`cast(${ref} as text) ilike ${likePattern(page.filter)}`);
  const counted = (await q.select(sql<number>`count(distinct ${ref})`.as('n')).executeTakeFirstOrThrow()) as { n: number };
  const rows = (await q.select(sql<unknown>`${ref}`.as('value')).distinct().orderBy(sql`1`).limit(page.pageSize).offset(page.page * page.pageSize).execute()) as Array<{ value: unknown }>;
  return { count: Number(counted.n), result: rows.map((r) => ({ text: String(r.value), value: r.value })) };
}
