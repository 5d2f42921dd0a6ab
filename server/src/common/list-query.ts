import { sql, type Expression, type ExpressionBuilder, type SelectQueryBuilder, type SqlBool } from 'kysely';
import type { ListFilter, ListQuery } from '@meridian/contracts';
import { Invalid } from '../errors/domain-errors';

/** How a list's public column names map onto SQL; a filter on any other column is refused with 400, in Flask-AppBuilder's words. */
export type ColumnMap = Record<string, string>;

export type CustomFilter<DB, TB extends keyof DB> = (
  eb: ExpressionBuilder<DB, TB>,
  value: unknown,
) => Expression<SqlBool>;

const likeEscape = (v: unknown) => String(v).replace(/[\\%_]/g, (c) => `\\${c}`);

/** An ILIKE pattern matching text that contains `v` literally (its % and _ escaped). */
export const likePattern = (v: unknown) => `%${likeEscape(v)}%`;

/** One Superset filter as a kysely where expression; user values are always bound parameters. */
export function filterExpression<DB, TB extends keyof DB>(
  eb: ExpressionBuilder<DB, TB>,
  filter: ListFilter,
  columns: ColumnMap,
  custom: Record<string, CustomFilter<DB, TB>> = {},
): Expression<SqlBool> {
  // Every operator but in/nin compares one value: a list or an object is not one.
  if (filter.opr !== 'in' && filter.opr !== 'nin' && filter.value !== null && typeof filter.value === 'object') {
    throw new Invalid(`Not a valid value for filter ${filter.col} ${filter.opr}: a single value is expected.`);
  }
  const customFilter = custom[`${filter.col}:${filter.opr}`] ?? custom[filter.opr];
  if (customFilter) return customFilter(eb, filter.value);
  const column = columns[filter.col];
  if (!column) throw new Invalid(`Filter column: ${filter.col} not allowed to filter`);
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
      throw new Invalid(`Filter operation: ${filter.opr} not allowed on column: ${filter.col}`);
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
  const countRow = await refusingBadValues<{ count?: unknown } | undefined>(query, () =>
    (q as any)
      .clearSelect()
      .select(sql<number>`count(distinct ${sql.ref(opts.idColumn)})`.as('count'))
      .executeTakeFirst(),
  );
  const orderable = opts.orderable ?? opts.columns;
  let orderBy = opts.defaultOrder;
  if (query.order_column) {
    if (!orderable[query.order_column]) throw new Invalid(`Invalid order by column: ${query.order_column}`);
    orderBy = [query.order_column, query.order_direction];
  }
  if (orderBy) q = q.orderBy(sql.ref(orderable[orderBy[0]] ?? orderBy[0]), orderBy[1]) as typeof q;
  q = q.orderBy(sql.ref(opts.idColumn), 'asc') as typeof q;
  if (query.page_size >= 0) q = q.limit(query.page_size).offset(query.page * query.page_size) as typeof q;
  return { count: Number(countRow?.count ?? 0), rows: await q.execute() };
}

/**
 * A filter value the column's type cannot take ('notadate' for changed_on, 'x' for an owner's id) is refused by
 * the database as a data exception (SQLSTATE class 22): said as the 400 it is, with the filters given.
 */
async function refusingBadValues<T>(query: ListQuery, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (typeof code === 'string' && code.startsWith('22') && query.filters.length) {
      throw new Invalid({ filters: [`Not a valid filter value: ${query.filters.map((f) => `${f.col} ${f.opr} ${JSON.stringify(f.value)}`).join(', ')} (${(error as Error).message})`] });
    }
    throw error;
  }
}

/** What a list route says of itself, as Flask-AppBuilder's list metadata (`list_columns`, `order_columns`, `list_title`). */
export interface ListMeta {
  title: string;
  /** The keys of each result row, in order; when absent, the keys of the rows answered. */
  columns?: readonly string[];
  /** The columns `order_column` accepts. */
  orderColumns: readonly string[];
}

interface ListAnswer {
  count: number;
  ids: unknown[];
  result: Record<string, unknown>[];
}

/** True for Superset's list answer shape `{count, ids, result: [...]}`. */
export function isListAnswer(value: unknown): value is ListAnswer {
  const v = value as Partial<ListAnswer> | null;
  return !!v && typeof v === 'object' && typeof v.count === 'number' && Array.isArray(v.ids) && Array.isArray(v.result);
}

// Flask-AppBuilder's default label: `changed_on` -> `Changed On`.
const labelOf = (column: string) => column.replace(/[._]/g, ' ').replace(/\w\S*/g, (w) => w[0].toUpperCase() + w.slice(1).toLowerCase());

/**
 * A row's requested columns, as Flask-AppBuilder selects them: a dotted column ('database.id', 'owners.first_name')
 * picks inside a related object, or inside each of a list of them. Example: `pickColumns(row, ['name', 'database.id'])`.
 */
function pickColumns(row: Record<string, unknown>, columns: string[]): Record<string, unknown> {
  const byHead = new Map<string, string[]>();
  for (const c of columns) {
    const [head, ...rest] = c.split('.');
    byHead.set(head!, [...(byHead.get(head!) ?? []), ...(rest.length ? [rest.join('.')] : [])]);
  }
  const out: Record<string, unknown> = {};
  for (const [head, inner] of byHead) {
    const value = row[head];
    const nested = (v: unknown) => (v && typeof v === 'object' && !Array.isArray(v) ? pickColumns(v as Record<string, unknown>, inner) : v);
    out[head] = !inner.length ? value : Array.isArray(value) ? value.map(nested) : nested(value);
  }
  return out;
}

/** The columns of a query a row has (a dotted one by its first part). */
const knownColumns = (columns: string[] | undefined, known: ReadonlySet<string>) => (columns ?? []).filter((c) => known.has(c.split('.')[0]!));

/**
 * Applies a list query's `columns` and `keys` to a list answer, as Flask-AppBuilder does: each row
 * keeps only the requested columns (names the list does not have are ignored, and when none remain
 * the rows stay whole), and with `meta` the answer gains `list_columns`, `order_columns`,
 * `label_columns`, `description_columns` and `list_title`, or only those named in `keys`
 * (`keys:!(none)` for none). Example: `q=(columns:!(id,username),keys:!(list_columns))`.
 */
export function projectList<T extends ListAnswer>(answer: T, query: Pick<ListQuery, 'columns' | 'keys'>, meta?: ListMeta): T & Record<string, unknown> {
  const known = new Set(meta?.columns ?? answer.result.flatMap((row) => Object.keys(row)));
  const columns = knownColumns(query.columns, known);
  const out: Record<string, unknown> = { ...(answer as ListAnswer) };
  if (columns.length) out.result = answer.result.map((row) => pickColumns(row, columns));
  if (meta) {
    const listColumns = columns.length ? columns : [...known];
    const metadata: Record<string, unknown> = {
      list_columns: listColumns,
      order_columns: columns.length ? meta.orderColumns.filter((c) => columns.includes(c)) : [...meta.orderColumns],
      label_columns: Object.fromEntries(listColumns.map((c) => [c, labelOf(c)])),
      description_columns: {},
      list_title: meta.title,
    };
    for (const [key, value] of Object.entries(metadata)) if (!query.keys || query.keys.includes(key)) out[key] = value;
  }
  return out as T & Record<string, unknown>;
}

/** What an item route says of itself, as Flask-AppBuilder's show metadata (`show_title`: 'Show Slice'). */
export interface ItemMeta {
  title: string;
}

interface ItemAnswer {
  id: unknown;
  result: Record<string, unknown>;
}

/** True for Superset's item answer shape `{id, result: {...}}`. */
export function isItemAnswer(value: unknown): value is ItemAnswer {
  const v = value as Partial<ItemAnswer> | null;
  return !!v && typeof v === 'object' && 'id' in v && !!v.result && typeof v.result === 'object' && !Array.isArray(v.result);
}

/**
 * Applies a GET item call's `columns` and `keys` as Flask-AppBuilder's `get_headless` does: the result keeps only
 * the requested columns it has (all when none remain), and the answer gains `show_columns`, `show_title`,
 * `label_columns` and `description_columns`, or only those named in `keys`. Example: `q=(columns:!(id,slice_name))`.
 */
export function projectItem<T extends ItemAnswer>(answer: T, query: Pick<ListQuery, 'columns' | 'keys'>, meta: ItemMeta): T & Record<string, unknown> {
  const known = new Set(Object.keys(answer.result));
  const columns = knownColumns(query.columns, known);
  const out: Record<string, unknown> = { ...(answer as ItemAnswer) };
  if (columns.length) out.result = pickColumns(answer.result, columns);
  const showColumns = columns.length ? columns : [...known];
  const metadata: Record<string, unknown> = {
    show_columns: showColumns,
    show_title: meta.title,
    label_columns: Object.fromEntries(showColumns.map((c) => [c, labelOf(c)])),
    description_columns: {},
  };
  for (const [key, value] of Object.entries(metadata)) if (!query.keys || query.keys.includes(key)) out[key] = value;
  return out as T & Record<string, unknown>;
}
