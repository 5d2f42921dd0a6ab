import { Alert, Badge, Loader, Popover, Stack, Text } from '@mantine/core';
import { crossFilterMask } from '@meridian/contracts';
import { IconFilter } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { memo, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { LOG_ACTIONS } from '@meridian/contracts/rules/event-log';
import { dashboardUrlParamEntries } from '@meridian/contracts/rules/permalink-params';
import { chartFailureAlert, chartRenderAlert } from '@meridian/contracts/explore/chart-state';
import { useBootstrap } from '../../auth/session';
import { ErrorMessage, linkOf } from '../../components/ErrorMessage';
import { loggedChartLoad, useRenderChartLog } from '../../event-log/chart-events';
import { logEvent } from '../../event-log/event-logger';
import { chartErrorsOf, chartRequestTimeoutMs, fetchChartData } from '../../explore/explore.api';
import { useNearViewport } from '../../components/useNearViewport';
import { getChartMeta, useChartPlugin } from '../../viz/registry';
import { preloadChart, SuperChart } from '../../viz/shared/SuperChart';
import type { DashboardChart } from '../dashboard.api';
import type { ChartPlugin, DataPointClick, FormData, OwnState } from '../../viz/types';
import { useAutoRefreshToken } from '../auto-refresh';
import { useDashboardState } from '../dashboard-state.context';
import { useFiltersContext } from '../filters/useDashboardFilters';
import { ChartHeaderMenu } from './ChartHeaderMenu';
import { useDashboardColorScheme } from './dashboard-colors';
import { useDatasource } from './datasources';
import classes from '../dashboard.module.css';

const NOT_DRAWN = Symbol('not drawn');
const NO_FILTERS: AppliedFilter[] = [];
const NO_ANSWER: any[] = [];

/** The dashboard address's own parameters (not Meridian's keys), as the charts' url_params. */
const dashboardUrlParams = (): Record<string, string> => Object.fromEntries(dashboardUrlParamEntries(window.location.search));

/** How far below the viewport a chart starts loading (spec 02: charts below the fold wait until they scroll near). */
const NEAR_VIEWPORT = '300px';

/**
 * One chart of a dashboard: fetches its data once it is near the viewport and draws it with its chart
 * type. A failure shows in this cell only; the other charts keep working. Memoised: the dashboard around it
 * re-renders as it loads (favourite status, reports, filter state), which must not re-render 50 cells.
 */
export const ChartCell = memo(function ChartCell({ chart, componentId, width: cellWidth, height: cellHeight, theme, refreshToken, force, menu = false, controls = true }: { chart: DashboardChart | undefined; componentId?: string; width: number; height: number; theme: 'light' | 'dark'; refreshToken: number; force: boolean; menu?: boolean; controls?: boolean }) {
  // "Enter fullscreen" of the chart menu: the chart drawn over the whole window until it is left.
  const [fullSize, setFullSize] = useState(false);
  // The description is open when the dashboard's expandedSlices lists the chart (json_metadata.expanded_slices).
  const dashboardState = useDashboardState();
  const [ownDescriptionShown, setOwnDescriptionShown] = useState(false);
  const descriptionShown = dashboardState && chart ? !!dashboardState.expandedSlices[chart.id] : ownDescriptionShown;
  // "Force refresh" of this chart alone: a new query that bypasses the cache.
  const [ownRefresh, setOwnRefresh] = useState(0);
  const viewport = useWindowSizeWhile(fullSize);
  const width = fullSize ? viewport.width : cellWidth;
  const height = fullSize ? viewport.height : cellHeight;
  const bodyRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!fullSize) return;
    const leave = (e: KeyboardEvent) => e.key === 'Escape' && setFullSize(false);
    window.addEventListener('keydown', leave);
    return () => window.removeEventListener('keydown', leave);
  }, [fullSize]);
  const [ref, near] = useNearViewport<HTMLDivElement>(NEAR_VIEWPORT);
  const vizType = chart?.viz_type ?? chart?.form_data?.viz_type;
  const datasource = useDatasource(chart?.datasource_id);
  const meta = getChartMeta(vizType);
  // The type's code (its buildQuery) loads once the cell is near, then its data is asked for.
  const { plugin, failed: pluginFailed } = useChartPlugin(near ? vizType : null);
  const filters = useFiltersContext();
  const dashboardId = dashboardState?.dashboardId ?? filters?.dashboardId;
  // Native filters and cross-filters in scope reach the query as extra_form_data (applied by the server).
  const extraFormData = filters && chart ? filters.extraFormDataFor(chart.id) : null;
  const extraKey = JSON.stringify(extraFormData ?? {});
  // In scope of a filter whose first value ('Select first filter value by default') is not known yet: it waits.
  const waiting = !!(filters && chart && filters.waitingCharts.has(chart.id));
  // The dashboard address's own parameters reach every chart query as url_params (Jinja's url_param).
  const urlParams = useMemo(dashboardUrlParams, []);
  // The dashboard's colour scheme, when it has one, is every chart's (Superset's applyColors).
  const colorScheme = useDashboardColorScheme();
  const formData = useMemo(
    () => (chart ? { ...chart.form_data, viz_type: chart.viz_type ?? chart.form_data.viz_type, slice_id: chart.id, ...(dashboardId ? { dashboardId } : {}), ...(colorScheme ? { color_scheme: colorScheme } : {}), ...(Object.keys(urlParams).length ? { url_params: urlParams } : {}), ...(extraKey !== '{}' ? { extra_form_data: JSON.parse(extraKey) } : {}) } : null),
    [chart, extraKey, urlParams, colorScheme, dashboardId],
  );
  // The chart's own state (a server-paginated table's page, page size and order), set by the chart; a change of the
  // filters applied to it starts again from the first page (Superset resets the page when the filters change).
  const [own, setOwn] = useState<{ extraKey: string; state: OwnState }>({ extraKey, state: {} });
  const ownState = useMemo(() => (own.extraKey === extraKey ? own.state : { ...own.state, currentPage: 0 }), [own, extraKey]);
  const ownKey = JSON.stringify(ownState);
  const changeOwnState = useCallback((state: OwnState) => setOwn({ extraKey, state }), [extraKey]);
  const needsQuery = meta?.needsQuery !== false;
  const timeoutMs = chartRequestTimeoutMs(useBootstrap().conf);
  // A periodic refresh re-runs the query bypassing the cache, as Superset's auto-refresh forces.
  const autoRefresh = useAutoRefreshToken(chart?.id);
  const data = useQuery({
    queryKey: ['dashboard-chart-data', chart?.id, refreshToken, autoRefresh, ownRefresh, extraKey, ownKey],
    enabled: near && !!plugin && !!formData && needsQuery && !waiting,
    queryFn: async ({ signal }) => {
      // The type's component loads while its data is queried, and the answer waits for it: drawn at once, not
      // through Suspense.
      const component = preloadChart(formData!.viz_type);
      const forced = force || autoRefresh > 0 || ownRefresh > 0;
      // load_chart, a failure with has_err and its error type (spec 01 §4), as Superset's chart actions log it.
      const answer = await loggedChartLoad({ source: 'dashboard', source_id: dashboardId, target_id: chart!.id }, { sliceId: chart!.id, formData: formData!, force: forced }, () => fetchChartData(plugin!.buildQuery(formData!, { ownState }), { sliceId: chart!.id, signal, force: forced, timeoutMs }));
      await component;
      return answer;
    },
    staleTime: Infinity,
    retry: false,
    // A new query of the same chart (a filter applied, a refresh) keeps the last drawing under a spinner, as
    // Superset does: the chart is updated in place instead of torn down and drawn anew.
    placeholderData: (previous, previousQuery) => (previousQuery?.queryKey[1] === chart?.id ? previous : undefined),
  });
  const refreshing = data.isPlaceholderData;
  // The drawing shown goes with the form data it was asked for until the new answer comes.
  const shownFormData = useRef(formData);
  const shownOwnState = useRef(ownState);
  if (!refreshing) {
    shownFormData.current = formData;
    shownOwnState.current = ownState;
  }
  const [renderError, setRenderError] = useState<string | null>(null);
  // Drawn for this answer: a new query (a filter applied) reads as loading until its answer is drawn.
  const [renderedFor, setRenderedFor] = useState<unknown>(NOT_DRAWN);
  const rendered = !refreshing && renderedFor === (data.data ?? null);
  const description = descriptionShown && chart?.description ? chart.description : null;
  const bodyHeight = Math.max(height - 36 - (description ? 40 : 0), 40);

  // The header is drawn again only when what it shows changes, not at each step of the chart's query and drawing
  // (with 50 cells, its menu and filter popover were a fifth of the page's work on an Apply).
  const answer = useRef(data.data);
  answer.current = data.data;
  const queriesData = useCallback(() => answer.current, []);
  const chartElement = useCallback(() => bodyRef.current, []);
  const chartId = chart?.id;
  const forceRefresh = useCallback(() => {
    if (chartId !== undefined) logEvent(LOG_ACTIONS.FORCE_REFRESH_CHART, { source: 'dashboard', source_id: dashboardId, slice_id: chartId, is_cached: !!answer.current?.[0]?.is_cached });
    setOwnRefresh((n) => n + 1);
  }, [chartId, dashboardId]);
  const toggleFullSize = useCallback(() => setFullSize((f) => !f), []);
  const toggleExpandSlice = dashboardState?.toggleExpandSlice;
  const toggleDescription = useCallback(() => (toggleExpandSlice && chartId !== undefined ? toggleExpandSlice(chartId) : setOwnDescriptionShown((d) => !d)), [toggleExpandSlice, chartId]);
  // A cell without its chart draws nothing to log.
  const logRender = useRenderChartLog({ source: 'dashboard', source_id: dashboardId }, chartId === undefined ? null : data.data, { sliceId: chartId, vizType: formData?.viz_type, answeredAt: data.dataUpdatedAt });
  // The chart is handed the same callbacks until its answer changes, so that the cell's other steps (a filter applied,
  // the query under way, the drawing reported) do not draw it again: SuperChart is memoised, and the table, pivot and
  // big number report 'rendered' from an effect on onRendered, which ran again at each of them.
  const drawnAnswer = data.data;
  const onRendered = useCallback(() => {
    setRenderedFor(drawnAnswer ?? null);
    logRender();
  }, [drawnAnswer, logRender]);
  const onRenderError = useCallback(
    (e: Error) => {
      setRenderError(e.message);
      logRender(String(e));
    },
    [logRender],
  );
  const latestFilters = useRef(filters);
  latestFilters.current = filters;
  const crossFiltering = !!(filters?.crossFiltersEnabled && chartId !== undefined);
  const onDataPointClick = useCallback((click: DataPointClick) => {
    const current = latestFilters.current;
    if (click.isContextMenu || !current || chartId === undefined) return;
    // A click emits a cross-filter on the chart's group-by value; clicking the same value again clears it.
    const picked = click.filters.filter((f) => f.op !== 'TEMPORAL_RANGE').map((f) => ({ col: f.col, val: f.val }));
    const selected = current.crossFilters[chartId]?.filterState?.selectedValues;
    const same = JSON.stringify(selected) === JSON.stringify(picked.map((p) => p.val));
    current.crossFilter(chartId, crossFilterMask(chartId, same ? [] : picked));
  }, [chartId]);
  const appliedTo = filters?.appliedTo;
  const applied = useMemo(() => (appliedTo && chart ? appliedTo(chart.id) : NO_FILTERS), [appliedTo, chart]);

  let body: React.ReactNode;
  if (!chart) body = <Text c="dimmed" size="sm">There is no chart definition associated with this component, could it have been deleted?</Text>;
  else if (!meta) body = <Alert color="yellow" variant="light">{`Unknown chart type: ${chart.viz_type}`}</Alert>;
  else if (pluginFailed) body = <Alert color="red" variant="light" title="This chart could not load">{`The code of chart type ${meta.name} could not load.`}</Alert>;
  else if (data.isError) {
    // The chart states' words (spec 01 §4): the first error of the answer, or 'Network error.' when none came.
    const errors = chartErrorsOf(data.error);
    body = <ErrorMessage compact error={errors?.[0] ?? null} message={chartFailureAlert(errors)} stackTrace={errors?.[0]?.stacktrace} link={linkOf(errors?.[0] ?? null)} />;
  } else if (renderError) body = <ErrorMessage compact error={null} message={chartRenderAlert(renderError)} />;
  else if (!plugin || (needsQuery && !data.data))
    body = (
      <Stack align="center" justify="center" h={bodyHeight}>
        <Loader size="sm" />
      </Stack>
    );
  else
    body = (
      <SuperChart
        formData={shownFormData.current!}
        queriesData={data.data ?? NO_ANSWER}
        datasource={datasource}
        width={Math.max(width - 16, 40)}
        height={bodyHeight}
        theme={theme}
        // The chart's own cross-filter: it keeps its selected item drawn and fades the others.
        filterState={chart ? filters?.crossFilters[chart.id]?.filterState : undefined}
        ownState={shownOwnState.current}
        onOwnStateChange={changeOwnState}
        onRenderError={onRenderError}
        onRendered={onRendered}
        onDataPointClick={crossFiltering ? onDataPointClick : undefined}
      />
    );

  return (
    <div ref={ref} className={fullSize ? `${classes.chartCell} ${classes.fullSizeChart}` : classes.chartCell} data-full-size={fullSize || undefined} data-testid="dashboard-chart" data-chart-id={chart?.id} data-filter-focus={filters?.highlighted && chart ? (filters.highlighted.has(chart.id) ? 'in' : 'out') : undefined} data-chart-state={data.isError || renderError || !meta || pluginFailed ? 'failed' : rendered ? 'rendered' : data.data && !refreshing ? 'success' : 'loading'} data-updated={data.dataUpdatedAt || undefined} style={{ height }}>
      <ChartHeader
        chart={chart}
        componentId={componentId}
        dashboardId={filters?.dashboardId}
        filtered={!!filters}
        indicator={controls}
        applied={applied}
        extraKey={extraKey}
        menu={menu}
        plugin={plugin}
        formData={formData}
        queriesData={queriesData}
        hasData={!!data.data}
        fullSize={fullSize}
        descriptionShown={descriptionShown}
        chartElement={chartElement}
        onForceRefresh={forceRefresh}
        onToggleFullSize={toggleFullSize}
        onToggleDescription={toggleDescription}
      />
      {description && (
        <Text size="xs" c="dimmed" px="xs" lineClamp={2} className={classes.chartDescription} data-testid="chart-description">
          {description}
        </Text>
      )}
      <div ref={bodyRef} className={classes.chartBody}>
        {near ? body : null}
        {near && refreshing && (
          <div className={classes.chartRefreshing} data-testid="chart-refreshing">
            <Loader size="sm" />
          </div>
        )}
      </div>
    </div>
  );
});

type AppliedFilter = { id: string; name: string; label: string };

/** A chart cell's header: its title (a link to Explore with the filters applied), filter indicator and menu. */
const ChartHeader = memo(function ChartHeader({ chart, componentId, dashboardId, filtered, indicator, applied, extraKey, menu, plugin, formData, queriesData, hasData, fullSize, descriptionShown, chartElement, onForceRefresh, onToggleFullSize, onToggleDescription }: { chart: DashboardChart | undefined; componentId: string | undefined; dashboardId: number | undefined; filtered: boolean; indicator: boolean; applied: AppliedFilter[]; extraKey: string; menu: boolean; plugin: ChartPlugin | null | undefined; formData: FormData | null; queriesData: () => any[] | undefined; hasData: boolean; fullSize: boolean; descriptionShown: boolean; chartElement: () => HTMLElement | null; onForceRefresh: () => void; onToggleFullSize: () => void; onToggleDescription: () => void }) {
  return (
    <div className={classes.chartHeader}>
      {chart && filtered ? (
        // In view mode the title opens the chart in Explore, carrying the filters applied to it.
        <Text component="a" href={exploreHref(chart.id, extraKey, dashboardId)} fw={600} size="sm" truncate title={`${chart.slice_name}: open in Explore`} c="inherit" td="none" className={classes.chartTitleLink}>
          {chart.slice_name}
        </Text>
      ) : (
        <Text fw={600} size="sm" truncate title={chart?.slice_name}>
          {chart?.slice_name ?? 'Missing chart'}
        </Text>
      )}
      <div className={classes.chartHeaderControls}>
        {chart && filtered && indicator && <FilterIndicator applied={applied} />}
        {menu && chart && plugin && formData && (
          <ChartHeaderMenu
            chart={chart}
            componentId={componentId}
            exploreUrl={exploreHref(chart.id, extraKey, dashboardId)}
            plugin={plugin}
            formData={formData}
            queriesData={queriesData}
            hasData={hasData}
            fullSize={fullSize}
            descriptionShown={descriptionShown}
            chartElement={chartElement}
            onForceRefresh={onForceRefresh}
            onToggleFullSize={onToggleFullSize}
            onToggleDescription={onToggleDescription}
          />
        )}
      </div>
    </div>
  );
});

/** The window's size, followed only while `active` (one listener for a full-size chart, not one per cell). */
function useWindowSizeWhile(active: boolean): { width: number; height: number } {
  const [size, setSize] = useState(() => ({ width: window.innerWidth, height: window.innerHeight }));
  useEffect(() => {
    if (!active) return;
    const update = () => setSize({ width: window.innerWidth, height: window.innerHeight });
    update();
    window.addEventListener('resize', update);
    return () => window.removeEventListener('resize', update);
  }, [active]);
  return size;
}

/**
 * Explore for a dashboard's chart, with the dashboard's filters as the form data's extra_form_data and the dashboard's
 * id (dashboard_id), so Explore draws the chart in the dashboard's colours. The chart menu's "Edit chart" goes there too.
 */
function exploreHref(chartId: number, extraKey: string, dashboardId: number | null | undefined): string {
  const params = new URLSearchParams({ slice_id: String(chartId) });
  if (dashboardId) params.set('dashboard_id', String(dashboardId));
  if (extraKey !== '{}') params.set('form_data', JSON.stringify({ slice_id: chartId, extra_form_data: JSON.parse(extraKey) }));
  return `/explore/?${params.toString()}`;
}

/** The chart header's filter indicator: how many filters are applied to the chart, listed on click. */
function FilterIndicator({ applied }: { applied: AppliedFilter[] }) {
  if (!applied.length) return null;
  return (
    <Popover position="bottom-end" withinPortal shadow="md">
      <Popover.Target>
        <Badge className={classes.filterIndicator} variant="light" size="sm" leftSection={<IconFilter size={11} />} data-testid="filter-indicator" aria-label={`${applied.length} applied filters`}>
          {applied.length}
        </Badge>
      </Popover.Target>
      <Popover.Dropdown>
        <Text size="xs" fw={700} mb={4}>
          Applied filters ({applied.length})
        </Text>
        {applied.map((a) => (
          <Text key={a.id} size="xs">
            <b>{a.name}</b>: {a.label}
          </Text>
        ))}
      </Popover.Dropdown>
    </Popover>
  );
}
