import { sql, type Expression, type ExpressionBuilder, type SelectQueryBuilder, type SqlBool } from 'kysely';
import type { ListFilter, ListQuery } from '@meridian/contracts';
import { Invalid } from '../errors/domain-errors';

/** How a list's public column names map onto SQL; a filter on any other column is refused with 400. */
export type ColumnMap = Record<string, string>;

export type CustomFilter<DB, TB extends keyof DB> = (
  eb: ExpressionBuilder<DB, TB>,
  value: unknown,
) => Expression<SqlBool>;

const likeEscape = (v: unknown) => String(v).replace(/[\\%_]/g, (c) => `\\${c}`);

/** One Superset filter as a kysely where expression; user values are always bound parameters. */
export function filterExpression<DB, TB extends keyof DB>(
  eb: ExpressionBuilder<DB, TB>,
  filter: ListFilter,
  columns: ColumnMap,
  custom: Record<string, CustomFilter<DB, TB>> = {},
): Expression<SqlBool> {
  const customFilter = custom[`${filter.col}:${filter.opr}`] ?? custom[filter.opr];
  if (customFilter) return customFilter(eb, filter.value);
  const column = columns[filter.col];
  if (!column) throw new Invalid({ filters: [`Filter column: ${filter.col} not allowed to filter`] });
  const ref = sql.ref(column);
  const v = filter.value;
  switch (filter.opr) {
    case 'eq': return v === null ? sql<SqlBool>`${ref} is null` : sql<SqlBool>`${ref} = ${v}`;
    case 'neq': return v === null ? sql<SqlBool>`${ref} is not null` : sql<SqlBool>`${ref} <> ${v}`;
    case 'gt': return sql<SqlBool>`${ref} > ${v}`;
    case 'gte': return sql<SqlBool>`${ref} >= ${v}`;
    case 'lt': return sql<SqlBool>`${ref} < ${v}`;
    case 'lte': return sql<SqlBool>`${ref} <= ${v}`;
    case 'ct': return sql<SqlBool>`${ref}::text ilike ${`%${likeEscape(v)}%`}`;
    case 'nct': return sql<SqlBool>`${ref}::text not ilike ${`%${likeEscape(v)}%`}`;
    case 'sw': return sql<SqlBool>`${ref}::text ilike ${`${likeEscape(v)}%`}`;
    case 'ew': return sql<SqlBool>`${ref}::text ilike ${`%${likeEscape(v)}`}`;
    case 'empty': return sql<SqlBool>`(${ref} is null or ${ref}::text = '')`;
    case 'not_empty': return sql<SqlBool>`(${ref} is not null and ${ref}::text <> '')`;
    case 'in':
    case 'nin': {
      const list = Array.isArray(v) ? v : [v];
      if (list.length === 0) return sql<SqlBool>`${sql.lit(filter.opr === 'nin')}`;
      const values = sql.join(list.map((x) => sql`${x}`));
      return filter.opr === 'in' ? sql<SqlBool>`${ref} in (${values})` : sql<SqlBool>`${ref} not in (${values})`;
    }
    case 'rel_o_m':
      return sql<SqlBool>`${ref} = ${v}`;
    case 'nrel_o_m':
      return sql<SqlBool>`${ref} <> ${v}`;
    default:
      throw new Invalid({ filters: [`Filter operator ${filter.opr} not allowed on ${filter.col}`] });
  }
}

/**
 * Applies a decoded list query (filters, order, paging) to a select and returns `{count, rows}`.
 * The count is taken before paging, as Superset's `count` is the total.
 */
export async function runListQuery<DB, TB extends keyof DB, O>(
  base: SelectQueryBuilder<DB, TB, O>,
  query: ListQuery,
  opts: { columns: ColumnMap; orderable?: ColumnMap; custom?: Record<string, CustomFilter<DB, TB>>; defaultOrder?: [string, 'asc' | 'desc']; idColumn: string },
): Promise<{ count: number; rows: O[] }> {
  let q = base;
  for (const filter of query.filters) {
    q = q.where((eb) => filterExpression(eb as ExpressionBuilder<DB, TB>, filter, opts.columns, opts.custom)) as typeof q;
  }
  const countRow = await (q as any)
    .clearSelect()
    .select(sql<number>`count(distinct ${sql.ref(opts.idColumn)})`.as('count'))
    .executeTakeFirst();
  const orderable = opts.orderable ?? opts.columns;
  let orderBy = opts.defaultOrder;
  if (query.order_column) {
    if (!orderable[query.order_column]) throw new Invalid({ order_column: [`Not a valid choice.`] });
    orderBy = [query.order_column, query.order_direction];
  }
  if (orderBy) q = q.orderBy(sql.ref(orderable[orderBy[0]] ?? orderBy[0]), orderBy[1]) as typeof q;
  q = q.orderBy(sql.ref(opts.idColumn), 'asc') as typeof q;
  if (query.page_size >= 0) q = q.limit(query.page_size).offset(query.page * query.page_size) as typeof q;
  return { count: Number(countRow?.count ?? 0), rows: await q.execute() };
}
