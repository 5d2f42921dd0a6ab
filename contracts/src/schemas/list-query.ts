import { z } from 'zod';

/** Superset's filter operators for rison list queries (`q=(filters:!((col:name,opr:ct,value:x)))`). */
export const FilterOperatorSchema = z.enum([
  'eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'ct', 'nct', 'sw', 'ew', 'in', 'nin',
  'rel_o_m', 'nrel_o_m', 'rel_m_m', 'nrel_m_m', 'empty', 'not_empty',
  'all_text', 'chart_all_text', 'dashboard_title_or_slug', 'dataset_is_null_or_empty', 'user_text',
  'chart_is_favorite', 'dashboard_is_favorite', 'saved_query_is_favorite', 'saved_query_is_fav', 'chart_owned_created_favored_by_me',
  'dashboard_owned_created_favored_by_me', 'database_user_text', 'query_all_text',
  // Superset's DashboardTitleOrSlugFilter, DashboardCertifiedFilter and ChartCertifiedFilter.
  'title_or_slug', 'dashboard_is_certified', 'chart_is_certified',
  // Superset's tag filters (TAGGING_SYSTEM): by tag name (contains) or tag id.
  'chart_tags', 'chart_tag_id', 'dashboard_tags', 'dashboard_tag_id', 'saved_query_tags', 'saved_query_tag_id',
]);
export type FilterOperator = z.infer<typeof FilterOperatorSchema>;

export const ListFilterSchema = z.object({
  col: z.string(),
  opr: FilterOperatorSchema,
  value: z.unknown(),
});
export type ListFilter = z.infer<typeof ListFilterSchema>;

/** The decoded rison `q` of a Superset list call; page is 0-based, page_size capped at 1000 like Superset's max. */
export const ListQuerySchema = z.object({
  filters: z.array(ListFilterSchema).default([]),
  order_column: z.string().optional(),
  order_direction: z.enum(['asc', 'desc']).default('asc'),
  page: z.coerce.number().int().min(0).default(0),
  page_size: z.coerce.number().int().min(-1).max(1000).default(25),
  columns: z.array(z.string()).optional(),
  keys: z.array(z.string()).optional(),
  select_columns: z.array(z.string()).optional(),
});
export type ListQuery = z.infer<typeof ListQuerySchema>;

/** Superset's list answer. */
export interface ListResult<T> {
  count: number;
  ids: number[];
  result: T[];
}
