import { createContext, useContext } from 'react';

/**
 * The dashboard's state its chart cells read (spec 02 §3 dashboard state): the charts whose description is open
 * (expandedSlices, saved as json_metadata.expanded_slices) and, on a dashboard page, a permalink of the dashboard as
 * it is shown (its filters' data mask and active tabs) anchored on one of its components.
 */
export interface DashboardStateValue {
  dashboardId: number;
  expandedSlices: Record<string, true>;
  toggleExpandSlice: (chartId: number) => void;
  /** The permalink's url; `anchor` is a layout component id (CHART-…), scrolled to when the link opens. */
  permalink?: (anchor?: string) => Promise<string>;
}

export const DashboardStateContext = createContext<DashboardStateValue | null>(null);

/** The dashboard state around a chart cell; null outside a dashboard. */
export const useDashboardState = () => useContext(DashboardStateContext);
