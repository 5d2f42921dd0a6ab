import { Alert, Loader, Stack, Text, useComputedColorScheme } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { api, ApiError } from '../../api';
import { getChartPlugin } from '../../viz/registry';
import { SuperChart } from '../../viz/shared/SuperChart';
import type { DashboardChart } from '../dashboard.api';
import { useAutoRefreshToken } from '../auto-refresh';
import classes from '../dashboard.module.css';

/** How far below the viewport a chart starts loading (spec 02: charts below the fold wait until they scroll near). */
const NEAR_VIEWPORT = '300px';

/** True once the element has come within NEAR_VIEWPORT of the viewport (and stays true). */
function useNearViewport<T extends Element>(): [React.RefObject<T | null>, boolean] {
  const ref = useRef<T | null>(null);
  const [near, setNear] = useState(false);
  useEffect(() => {
    const el = ref.current;
    if (!el || near) return;
    const observer = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && setNear(true), { rootMargin: NEAR_VIEWPORT });
    observer.observe(el);
    return () => observer.disconnect();
  }, [near]);
  return [ref, near];
}

/**
 * One chart of a dashboard: fetches its data once it is near the viewport and draws it with its chart
 * type. A failure shows in this cell only; the other charts keep working.
 */
export function ChartCell({ chart, width, height, refreshToken, force }: { chart: DashboardChart | undefined; width: number; height: number; refreshToken: number; force: boolean }) {
  const theme = useComputedColorScheme('light');
  const [ref, near] = useNearViewport<HTMLDivElement>();
  const plugin = getChartPlugin(chart?.viz_type ?? chart?.form_data?.viz_type);
  const formData = chart ? { ...chart.form_data, viz_type: chart.viz_type ?? chart.form_data.viz_type, slice_id: chart.id } : null;
  const needsQuery = plugin?.needsQuery !== false;
  // A periodic refresh re-runs the query bypassing the cache, as Superset's auto-refresh forces.
  const autoRefresh = useAutoRefreshToken(chart?.id);
  const data = useQuery({
    queryKey: ['dashboard-chart-data', chart?.id, refreshToken, autoRefresh],
    enabled: near && !!plugin && !!formData && needsQuery,
    queryFn: async ({ signal }) => {
      const context = plugin!.buildQuery(formData!);
      const answer = await api<{ result: any[] }>('/api/v1/chart/data', { method: 'POST', body: { ...context, force: force || autoRefresh > 0, result_format: 'json', result_type: 'full' }, query: { form_data: JSON.stringify({ slice_id: chart!.id }) }, signal, lossless: true });
      return answer.result;
    },
    staleTime: Infinity,
    retry: false,
  });
  const [renderError, setRenderError] = useState<string | null>(null);
  const [rendered, setRendered] = useState(false);
  const bodyHeight = Math.max(height - 36, 40);

  let body: React.ReactNode;
  if (!chart) body = <Text c="dimmed" size="sm">There is no chart definition associated with this component, could it have been deleted?</Text>;
  else if (!plugin) body = <Alert color="yellow" variant="light">{`Unknown chart type: ${chart.viz_type}`}</Alert>;
  else if (data.isError) body = <Alert color="red" variant="light" title="This chart could not load">{data.error instanceof ApiError ? data.error.clientError.error : (data.error as Error).message}</Alert>;
  else if (renderError) body = <Alert color="red" variant="light">{`An error occurred while rendering the visualization: ${renderError}`}</Alert>;
  else if (needsQuery && !data.data)
    body = (
      <Stack align="center" justify="center" h={bodyHeight}>
        <Loader size="sm" />
      </Stack>
    );
  else
    body = (
      <SuperChart
        formData={formData!}
        queriesData={data.data ?? []}
        datasource={null}
        width={Math.max(width - 16, 40)}
        height={bodyHeight}
        theme={theme}
        onRenderError={(e: Error) => setRenderError(e.message)}
        onRendered={() => setRendered(true)}
      />
    );

  return (
    <div ref={ref} className={classes.chartCell} data-testid="dashboard-chart" data-chart-id={chart?.id} data-chart-state={data.isError || renderError || !plugin ? 'failed' : rendered ? 'rendered' : data.data ? 'success' : 'loading'} style={{ height }}>
      <div className={classes.chartHeader}>
        <Text fw={600} size="sm" truncate title={chart?.slice_name}>
          {chart?.slice_name ?? 'Missing chart'}
        </Text>
      </div>
      <div className={classes.chartBody}>{near ? body : null}</div>
    </div>
  );
}
