import { useQuery } from '@tanstack/react-query';
import { createContext, useContext, useMemo } from 'react';
import type { DatasourceMeta } from '../../viz/types';
import { fetchDashboardDatasets } from '../dashboard.api';

/** The dashboard's datasets by id (GET /{id}/datasets): a chart cell hands its own to the chart, for its verbose names. */
export const DatasourcesContext = createContext<ReadonlyMap<number, DatasourceMeta>>(new Map());

/** The dataset of a chart of this dashboard, or null when it is not known (the chart then shows the labels as they are). */
export function useDatasource(id: number | null | undefined): DatasourceMeta | null {
  return useContext(DatasourcesContext).get(id ?? -1) ?? null;
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
