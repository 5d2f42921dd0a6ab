import { useQuery } from '@tanstack/react-query';
import { createContext, useContext, useMemo } from 'react';
import type { DatasourceMeta } from '../../viz/types';
import { api } from '../../api';
import { fetchDashboardDatasets } from '../dashboard.api';

/** The dashboard's datasets by id (GET /{id}/datasets): a chart cell hands its own to the chart, for its verbose names. */
export const DatasourcesContext = createContext<ReadonlyMap<number, DatasourceMeta>>(new Map());

/**
 * The dataset of a chart of this dashboard, or null while it is not known (the chart then shows the labels as they
 * are). A chart added in edit mode may use a dataset the dashboard's saved charts do not: that one is asked for alone
 * (a new table showed its metrics' raw names until a reload).
 */
export function useDatasource(id: number | null | undefined): DatasourceMeta | null {
  const known = useContext(DatasourcesContext);
  const found = known.get(id ?? -1) ?? null;
  const asked = useQuery({
    queryKey: ['datasource-meta', id],
    enabled: !found && !!id,
    retry: false,
    staleTime: Infinity,
    queryFn: async () => (await api<{ result: { dataset: DatasourceMeta | null } }>('/api/v1/explore/', { query: { datasource_id: id!, datasource_type: 'table' } })).result.dataset,
  });
  return found ?? asked.data ?? null;
}

/**
 * The datasets of a dashboard's charts, by id, for DatasourcesContext; `pending` until they answer (the page waits
 * for them as for the charts, so a chart is drawn once, with its names). A failed answer leaves the map empty.
 */
export function useDashboardDatasources(queryKey: readonly unknown[], idOrSlug: string | number | undefined): { datasources: ReadonlyMap<number, DatasourceMeta>; pending: boolean } {
  const datasets = useQuery({ queryKey, enabled: idOrSlug !== undefined, retry: false, queryFn: () => fetchDashboardDatasets(idOrSlug!) });
  const datasources = useMemo(() => new Map((datasets.data ?? []).map((d) => [d.id, d])), [datasets.data]);
  return { datasources, pending: datasets.isPending };
}
