import { useQuery } from '@tanstack/react-query';
import type { ListViewFilter } from '../components/ListView';
import { trpc } from '../trpc';

/** The databases the user can see, as options of a list filter (value = database id). */
export function useDatabaseOptions(): { value: string; label: string }[] {
  const databases = useQuery(trpc.database.list.queryOptions({ page_size: 1000, order_column: 'database_name', order_direction: 'asc' }));
  return (databases.data?.result ?? []).map((d) => ({ value: String(d.id), label: d.database_name }));
}

/** The "Database" select filter of a list whose rows belong to a database (`rel_o_m` on the database id). */
export const databaseFilter = (options: { value: string; label: string }[]): ListViewFilter => ({ col: 'database', label: 'Database', input: 'select', operator: 'rel_o_m', options, parse: Number });
