import type { Query, QueryResults } from './types';

/**
 * Superset's notice of what limited the rows shown, by the query's limiting factor: the query's own LIMIT, the limit
 * dropdown (with the configured maximum when the dropdown still holds the default limit), or both; null when nothing
 * cut the rows.
 *
 * @example limitNotice({ limitingFactor: 'QUERY', ... }, 5, 1000, 100000) // 'The number of rows displayed is limited to 5 by the query'
 */
export function limitNotice(query: Pick<Query, 'limitingFactor' | 'queryLimit' | 'results'>, rows: number, defaultLimit: number, sqlMaxRow: number): string | null {
  const results = query.results as QueryResults | undefined;
  const factor = query.limitingFactor ?? (results?.query?.limitingFactor as string | undefined);
  if (factor === 'QUERY') return `The number of rows displayed is limited to ${rows} by the query`;
  if (factor === 'DROPDOWN') {
    if (query.queryLimit === defaultLimit)
      return `The number of results displayed is limited to ${rows}. Please add additional limits/filters or download to csv to see more rows up to the ${sqlMaxRow} limit.`;
    return `The number of rows displayed is limited to ${rows} by the limit dropdown.`;
  }
  if (factor === 'QUERY_AND_DROPDOWN') return `The number of rows displayed is limited to ${rows} by the query and limit dropdown.`;
  return null;
}
