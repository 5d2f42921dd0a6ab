import { useQueries, useQuery } from '@tanstack/react-query';
import { sqllabApi } from './sqllab.api';

/** Query options of the schema and table browsing calls (spec 01 §7), cached per database / catalog / schema. */
export const metadataQueries = {
  catalogs: (dbId: number | null | undefined) => ({
    queryKey: ['sqllab', 'catalogs', dbId],
    queryFn: async () => (await sqllabApi.catalogs(dbId!)).result,
    enabled: Boolean(dbId),
    staleTime: 5 * 60_000,
    retry: false,
  }),
  schemas: (dbId: number | null | undefined, catalog: string | null | undefined) => ({
    queryKey: ['sqllab', 'schemas', dbId, catalog ?? null],
    queryFn: async () => (await sqllabApi.schemas(dbId!, catalog)).result,
    enabled: Boolean(dbId),
    staleTime: 5 * 60_000,
  }),
  tables: (dbId: number | null | undefined, schema: string | null | undefined, catalog: string | null | undefined) => ({
    queryKey: ['sqllab', 'tables', dbId, catalog ?? null, schema],
    queryFn: async () => sqllabApi.tables(dbId!, schema!, catalog),
    enabled: Boolean(dbId && schema),
    staleTime: 5 * 60_000,
    // No placeholder from the previous key: another database's or schema's tables, picked while the new list loads,
    // would be asked for in this one (a 404).
  }),
  tableMetadata: (dbId: number | null | undefined, name: string, schema: string | null | undefined, catalog: string | null | undefined) => ({
    queryKey: ['sqllab', 'table_metadata', dbId, catalog ?? null, schema, name],
    queryFn: async () => sqllabApi.tableMetadata(dbId!, name, schema!, catalog),
    enabled: Boolean(dbId && schema && name),
    staleTime: 5 * 60_000,
    retry: false,
  }),
};

export function useSchemas(dbId: number | null | undefined, catalog: string | null | undefined) {
  return useQuery(metadataQueries.schemas(dbId, catalog));
}

export function useTables(dbId: number | null | undefined, schema: string | null | undefined, catalog: string | null | undefined) {
  return useQuery(metadataQueries.tables(dbId, schema, catalog));
}

/** Metadata of the tables named in the SQL (for column autocomplete). */
export function useTablesMetadata(dbId: number | null | undefined, schema: string | null | undefined, catalog: string | null | undefined, names: string[]) {
  return useQueries({ queries: names.map((name) => metadataQueries.tableMetadata(dbId, name, schema, catalog)) });
}
