import { createContext, useContext } from 'react';
import type { DatasourceMeta } from '../../viz/types';

/** The dashboard's datasets by id (GET /{id}/datasets): a chart cell hands its own to the chart, for its verbose names. */
export const DatasourcesContext = createContext<ReadonlyMap<number, DatasourceMeta>>(new Map());

/** The dataset of a chart of this dashboard, or null when it is not known (the chart then shows the labels as they are). */
export function useDatasource(id: number | null | undefined): DatasourceMeta | null {
  return useContext(DatasourcesContext).get(id ?? -1) ?? null;
}
