import type { ListFilter, ListQuery, ListResult } from '@meridian/contracts/schemas/list-query';
import { api } from '../../api';

/** The cache key prefix of one REST list; invalidate it after a mutation: `queryClient.invalidateQueries({ queryKey: listKey(url) })`. */
export const listKey = (endpoint: string) => ['rest-list', endpoint] as const;

/** Superset's rison `q` for a page of a list: 0-based page, page size, order and filters. */
export function buildListQuery(opts: { page: number; pageSize: number; sort?: { id: string; desc: boolean } | null; filters: ListFilter[] }): Partial<ListQuery> {
  return {
    page: opts.page,
    page_size: opts.pageSize,
    ...(opts.sort ? { order_column: opts.sort.id, order_direction: opts.sort.desc ? 'desc' : 'asc' } : {}),
    ...(opts.filters.length ? { filters: opts.filters } : {}),
  };
}

/** `GET <endpoint>?q=<rison>` → `{count, ids, result}`. */
export function fetchList<T>(endpoint: string, q: Partial<ListQuery>, signal?: AbortSignal): Promise<ListResult<T>> {
  return api<ListResult<T>>(endpoint, { query: { q }, signal });
}
