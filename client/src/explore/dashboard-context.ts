import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { fetchDashboard } from '../dashboard/dashboard.api';
import { dashboardColors } from '../dashboard/layout/dashboard-colors';
import { setForcedLabelColors } from '../viz/shared/colors';
import type { FormData } from '../viz/types';

type DashboardColors = ReturnType<typeof dashboardColors>;

const metadataOf = (text: unknown): Record<string, unknown> => {
  try {
    const parsed = typeof text === 'string' ? JSON.parse(text) : text;
    return parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
};

/**
 * Explore opened from a dashboard (`dashboard_id` in its address): the dashboard's colours, so the chart looks as it
 * does there (Superset's dashboard context): its colour scheme, and its label colours forced while Explore is open.
 * Null without a dashboard, and until the dashboard has answered and its label colours are in force (a dashboard that
 * cannot be read leaves the chart its own colours).
 */
export function useDashboardContextColors(dashboardId: number | null): DashboardColors | null {
  const dashboard = useQuery({ queryKey: ['explore-dashboard-context', dashboardId], queryFn: () => fetchDashboard(dashboardId!), enabled: !!dashboardId, staleTime: 60_000, retry: false });
  const [applied, setApplied] = useState<DashboardColors | null>(null);
  const metadata = dashboard.data?.json_metadata;
  useEffect(() => {
    if (!dashboardId || metadata === undefined) return;
    const colors = dashboardColors(metadataOf(metadata));
    setForcedLabelColors(colors.labelColors);
    setApplied(colors);
    return () => setForcedLabelColors({});
  }, [dashboardId, metadata]);
  return dashboardId ? applied : null;
}

/**
 * The form data the chart is drawn with in the dashboard's context: the dashboard's colour scheme over the chart's
 * (as the dashboard draws it), and its label colours (Superset's form data carries them as label_colors). The chart's
 * own form data, which a save writes, keeps its own scheme.
 */
export function withDashboardColors(formData: FormData, colors: DashboardColors | null, dashboardId: number | null): FormData {
  if (!colors) return formData;
  return { ...formData, ...(colors.colorScheme ? { color_scheme: colors.colorScheme } : {}), label_colors: colors.labelColors, dashboardId };
}

/** withDashboardColors, memoised, and the dashboard's own colour scheme (null without one). */
export function useFormDataInDashboardContext(formData: FormData, dashboardId: number | null): { formData: FormData; dashboardColorScheme: string | null } {
  const colors = useDashboardContextColors(dashboardId);
  const drawn = useMemo(() => withDashboardColors(formData, colors, dashboardId), [formData, colors, dashboardId]);
  return { formData: drawn, dashboardColorScheme: colors?.colorScheme || null };
}
