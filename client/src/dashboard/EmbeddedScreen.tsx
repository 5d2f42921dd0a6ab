import { Alert, Center, Loader, Title } from '@mantine/core';
import { layoutFromPosition } from '@meridian/contracts';
import { DISPLAY_OPTIONS_URL_KEY, displayOptionsFromMask } from '@meridian/contracts/rules/display-options';
import { useQuery } from '@tanstack/react-query';
import { useParams } from '@tanstack/react-router';
import { useEffect, useMemo, useState } from 'react';
import { api, ApiError, setGuestToken } from '../api';
import { AutoRefreshProvider } from './auto-refresh';
import { DashboardStateContext, type DashboardStateValue } from './dashboard-state.context';
import { fetchDashboard, fetchDashboardCharts } from './dashboard.api';
import { DatasourcesContext, useDashboardDatasources } from './layout/datasources';
import classes from './dashboard.module.css';
import { DashboardGrid } from './layout/DashboardGrid';
import { useExpandedSlices } from './use-expanded-slices';

/**
 * `/embedded/{uuid}`: an embedded dashboard alone, for a page that frames it. The framing page hands
 * over a guest token with `postMessage({ guestToken })` (or the address's `#guest_token=`, never sent
 * to a server); every call then carries it, and the server lets the guest read only this dashboard. The SDK's
 * `uiConfig` bitmask (spec 02 §2) hides the title, the top-level tabs' bar or the charts' controls.
 */
export function EmbeddedScreen() {
  const { uuid } = useParams({ strict: false }) as { uuid: string };
  const [token, setToken] = useState<string | null>(() => new URLSearchParams(window.location.hash.slice(1)).get('guest_token'));
  useEffect(() => {
    const onMessage = (event: MessageEvent) => {
      const sent = (event.data as { guestToken?: unknown } | null)?.guestToken;
      if (typeof sent === 'string' && sent) setToken(sent);
    };
    window.addEventListener('message', onMessage);
    return () => window.removeEventListener('message', onMessage);
  }, []);
  useEffect(() => setGuestToken(token), [token]);

  const embedded = useQuery({
    queryKey: ['embedded', uuid, token],
    enabled: !!token,
    retry: false,
    queryFn: () => api<{ result: { dashboard_id: string } }>(`/api/v1/embedded_dashboard/${uuid}`),
  });
  const id = embedded.data?.result.dashboard_id;
  const dashboard = useQuery({ queryKey: ['embedded-dashboard', id, token], enabled: !!id, retry: false, queryFn: () => fetchDashboard(id!) });
  const charts = useQuery({ queryKey: ['embedded-charts', id, token], enabled: !!id, retry: false, queryFn: () => fetchDashboardCharts(id!) });
  const datasets = useDashboardDatasources(['embedded-datasets', id, token], id);
  const layout = useMemo(() => (dashboard.data ? layoutFromPosition(JSON.parse(dashboard.data.position_json || '{}'), dashboard.data.dashboard_title) : null), [dashboard.data]);
  const chartMap = useMemo(() => new Map((charts.data ?? []).map((c) => [c.id, c])), [charts.data]);
  const [activeTabs, setActiveTabs] = useState<Record<string, string>>({});
  const metadata = useMemo(() => JSON.parse(dashboard.data?.json_metadata || '{}') as Record<string, unknown>, [dashboard.data]);
  // The descriptions of json_metadata.expanded_slices open, as on the dashboard's own page.
  const { expandedSlices, toggleExpandSlice } = useExpandedSlices(dashboard.data ? metadata : null);
  const dashboardState = useMemo<DashboardStateValue | null>(
    () => (dashboard.data ? { dashboardId: dashboard.data.id, expandedSlices, toggleExpandSlice } : null),
    [dashboard.data, expandedSlices, toggleExpandSlice],
  );
  const [display] = useState(() => displayOptionsFromMask(Number(new URLSearchParams(window.location.search).get(DISPLAY_OPTIONS_URL_KEY))));

  const failure = [embedded, dashboard, charts].find((q) => q.isError)?.error;
  let body: React.ReactNode;
  if (!token) body = <Center h="60vh"><Loader /></Center>;
  else if (failure) body = <Alert color="red" variant="light" m="md" title="This dashboard could not load">{failure instanceof ApiError ? failure.message : String(failure)}</Alert>;
  else if (!layout || !charts.data || datasets.pending) body = <Center h="60vh"><Loader /></Center>;
  else
    body = (
      <>
        {!display.hideTitle && (
          <Title order={3} px="md" pt="md">
            {dashboard.data!.dashboard_title}
          </Title>
        )}
        <main className={classes.main}>
          <DatasourcesContext.Provider value={datasets.datasources}>
            <AutoRefreshProvider periodSeconds={Number(metadata.refresh_frequency) || 0} chartIds={[...chartMap.keys()]} metadata={metadata}>
              <DashboardStateContext.Provider value={dashboardState}>
              <DashboardGrid chartMenu={false} chartControls={!display.hideChartControls} hideTopLevelTabs={display.hideTab} layout={layout} charts={chartMap} editMode={false} refreshToken={0} force={false} dispatch={() => undefined} drop={() => undefined} activeTabs={activeTabs} setActiveTab={(tabsId, tabId) => setActiveTabs((t) => ({ ...t, [tabsId]: tabId }))} />
              </DashboardStateContext.Provider>
            </AutoRefreshProvider>
          </DatasourcesContext.Provider>
        </main>
      </>
    );
  return (
    <div data-testid="embedded-dashboard" style={{ minHeight: '100vh' }}>
      {body}
    </div>
  );
}
