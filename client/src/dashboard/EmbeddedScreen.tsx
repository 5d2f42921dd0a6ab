import { Alert, Center, Loader, Title } from '@mantine/core';
import { layoutFromPosition, visibleChartIds, type LayoutMap } from '@meridian/contracts';
import { DISPLAY_OPTIONS_URL_KEY, displayOptionsFromMask, filterBarOptionsFromSearch } from '@meridian/contracts/rules/display-options';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useParams } from '@tanstack/react-router';
import { useEffect, useMemo, useState } from 'react';
import { api, ApiError, setGuestToken } from '../api';
import { useBootstrap } from '../auth/session';
import { AutoRefreshProvider } from './auto-refresh';
import { DashboardStateContext, type DashboardStateValue } from './dashboard-state.context';
import { fetchDashboard, fetchDashboardCharts, type DashboardChart, type DashboardDetail } from './dashboard.api';
import { FilterBar, filterBarHasContent, filterBarOrientationOf, WithFilterBar } from './filters/FilterBar';
import { DashboardFiltersProvider, useDashboardFilters } from './filters/useDashboardFilters';
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

  // Asked again with each new token (one refused with an expired token succeeds with the next); the answers in hand
  // stay meanwhile, so the SDK's periodic token refresh neither redraws the dashboard nor drops the filters' values.
  const embedded = useQuery({
    queryKey: ['embedded', uuid, token],
    enabled: !!token,
    retry: false,
    placeholderData: keepPreviousData,
    queryFn: () => api<{ result: { dashboard_id: string } }>(`/api/v1/embedded_dashboard/${uuid}`),
  });
  const id = embedded.data?.result.dashboard_id;
  const dashboard = useQuery({ queryKey: ['embedded-dashboard', id, token], enabled: !!id, retry: false, placeholderData: keepPreviousData, queryFn: () => fetchDashboard(id!) });
  const charts = useQuery({ queryKey: ['embedded-charts', id, token], enabled: !!id, retry: false, placeholderData: keepPreviousData, queryFn: () => fetchDashboardCharts(id!) });
  const datasets = useDashboardDatasources(['embedded-datasets', id], id);
  const layout = useMemo(() => (dashboard.data ? layoutFromPosition(JSON.parse(dashboard.data.position_json || '{}'), dashboard.data.dashboard_title) : null), [dashboard.data]);
  const chartMap = useMemo(() => new Map((charts.data ?? []).map((c) => [c.id, c])), [charts.data]);
  const metadata = useMemo(() => JSON.parse(dashboard.data?.json_metadata || '{}') as Record<string, unknown>, [dashboard.data]);

  const failure = [embedded, dashboard, charts].find((q) => q.isError)?.error;
  let body: React.ReactNode;
  if (!token) body = <Center h="60vh"><Loader /></Center>;
  else if (failure) body = <Alert color="red" variant="light" m="md" title="This dashboard could not load">{failure instanceof ApiError ? failure.message : String(failure)}</Alert>;
  else if (!layout || !charts.data || datasets.pending) body = <Center h="60vh"><Loader /></Center>;
  else
    body = (
      <DatasourcesContext.Provider value={datasets.datasources}>
        <EmbeddedDashboard key={dashboard.data!.id} dashboard={dashboard.data!} layout={layout} charts={chartMap} metadata={metadata} />
      </DatasourcesContext.Provider>
    );
  return (
    <div data-testid="embedded-dashboard" style={{ minHeight: '100vh' }}>
      {body}
    </div>
  );
}

/**
 * The dashboard once loaded: its native filters and cross-filters work as on the dashboard's own page (defaults
 * applied, the bar to change them, its option lists asked for in the dashboard's name, which the guest may ask), but
 * read-only: no filter editing nor orientation change. The SDK's `show_filters=false` hides the bar (the values still
 * apply) and `expand_filters=false` starts it collapsed.
 */
function EmbeddedDashboard({ dashboard, layout, charts, metadata }: { dashboard: DashboardDetail; layout: LayoutMap; charts: Map<number, DashboardChart>; metadata: Record<string, unknown> }) {
  const { featureFlags } = useBootstrap();
  const [activeTabs, setActiveTabs] = useState<Record<string, string>>({});
  // The descriptions of json_metadata.expanded_slices open, as on the dashboard's own page.
  const { expandedSlices, toggleExpandSlice } = useExpandedSlices(metadata);
  const dashboardState = useMemo<DashboardStateValue>(() => ({ dashboardId: dashboard.id, expandedSlices, toggleExpandSlice }), [dashboard.id, expandedSlices, toggleExpandSlice]);
  const [{ display, bar }] = useState(() => {
    const search = new URLSearchParams(window.location.search);
    return { display: displayOptionsFromMask(Number(search.get(DISPLAY_OPTIONS_URL_KEY))), bar: filterBarOptionsFromSearch(search) };
  });
  // The guest may not keep a filter state (nor read one): the values live in the frame only.
  const filters = useDashboardFilters({ dashboardId: dashboard.id, metadata, layout, charts, crossFiltersFlag: !!featureFlags.DASHBOARD_CROSS_FILTERS, initialKey: null, keepState: false });
  const orientation = filterBarOrientationOf(metadata);
  const visibleCharts = useMemo(() => visibleChartIds(layout, activeTabs), [layout, activeTabs]);
  const filterBar = bar.visible && filterBarHasContent(filters, false) && (
    <FilterBar f={filters} orientation={orientation} canEdit={false} visibleCharts={visibleCharts} chartName={(id) => charts.get(id)?.slice_name ?? `Chart ${id}`} startCollapsed={bar.expanded === false} />
  );
  return (
    <div className={classes.page} data-standalone>
      {!display.hideTitle && (
        <Title order={3} px="md" pt="md">
          {dashboard.dashboard_title}
        </Title>
      )}
      <WithFilterBar orientation={orientation} bar={filterBar}>
        <main className={classes.main}>
          <DashboardFiltersProvider value={filters.ready ? filters : null}>
            <AutoRefreshProvider periodSeconds={Number(metadata.refresh_frequency) || 0} chartIds={[...charts.keys()]} metadata={metadata}>
              <DashboardStateContext.Provider value={dashboardState}>
                {filters.ready ? (
                  <DashboardGrid chartMenu={false} chartControls={!display.hideChartControls} hideTopLevelTabs={display.hideTab} layout={layout} charts={charts} editMode={false} refreshToken={0} force={false} dispatch={() => undefined} drop={() => undefined} activeTabs={activeTabs} setActiveTab={(tabsId, tabId) => setActiveTabs((t) => ({ ...t, [tabsId]: tabId }))} />
                ) : (
                  <Center h="40vh">
                    <Loader />
                  </Center>
                )}
              </DashboardStateContext.Provider>
            </AutoRefreshProvider>
          </DashboardFiltersProvider>
        </main>
      </WithFilterBar>
    </div>
  );
}
