import { ActionIcon, Alert, Badge, Button, Container, Group, Loader, Menu, Modal, Select, Stack, Textarea, TextInput, Tooltip } from '@mantine/core';
import {
  DASHBOARD_HIDDEN,
  DASHBOARD_PUBLISHED,
  DASHBOARD_SAVED,
  fmt,
  NO_CHART_DEFINITION,
  NO_PERMISSION_TO_EDIT_DASHBOARD,
  PUBLISH_FORBIDDEN,
  SORRY_AN_ERROR_OCCURRED,
} from '@meridian/contracts/messages';
import {
  chartComponentIds,
  GRID_DEFAULT_CHART_WIDTH,
  hasUnsavedChanges,
  layoutFromPosition,
  layoutReducer,
  newComponent,
  positionFromLayout,
  pushHistory,
  redo,
  startHistory,
  undo,
  type Component,
  type LayoutAction,
  type LayoutMap,
  type UndoHistory,
  visibleChartIds,
  chartAncestors,
  directPathToChild,
  withExpandedSlices,
  tabsShowingPath,
  type FilterConfigItem,
} from '@meridian/contracts';
import { dashboardUrlParamEntries } from '@meridian/contracts/rules/permalink-params';
import { canShareDashboard, hasPermission, isAdmin } from '@meridian/contracts/rules/permissions';
import { DISPLAY_OPTIONS_URL_KEY, displayOptionsFromMask, filterBarOptionsFromSearch, type DashboardDisplayOptions } from '@meridian/contracts/rules/display-options';
import { IconArrowBackUp, IconArrowForwardUp, IconDots, IconRefresh } from '@tabler/icons-react';
import { useIsFetching, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate, useParams, useRouterState } from '@tanstack/react-router';
import { LOG_ACTIONS } from '@meridian/contracts/rules/event-log';
import { useHeaderReport } from '../reports/useHeaderReport';
import { logEvent } from '../event-log/event-logger';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { api, ApiError, getCsrfToken } from '../api';
import { getErrorText } from '@meridian/contracts/rules/error-normalisation';
import { errorOf } from '../trpc';
import { useBootstrap, useSessionUser } from '../auth/session';
import { chartsDrawn, downloadAsImage, downloadAsPdf, shareByEmailHref } from '../charts/chart-export';
import { AllNearViewport } from '../components/useNearViewport';
import { addDangerToast, addSuccessToast, addWarningToast } from '../notify';
import { copyWithToast } from '../query-history/app-link';
import { copyDashboard, createDashboardPermalink, dashboardChartsKey, dashboardDatasetsKey, dashboardKey, fetchDashboard, fetchDashboardCharts, saveDashboard, type DashboardChart, type DashboardDetail } from './dashboard.api';
import { DatasourcesContext, useDashboardDatasources } from './layout/datasources';
import classes from './dashboard.module.css';
import { DashboardFavoriteStar } from './DashboardFavoriteStar';
import { AutoRefreshProvider, RefreshIntervalModal } from './auto-refresh';
import { EmbedModal } from './EmbedModal';
import { BuilderPane } from './edit/BuilderPane';
import { OverwriteConfirmModal, type OverwriteDiff } from './edit/OverwriteConfirmModal';
import { personChoice } from '../components/RelatedMultiSelect';
import { PropertiesModal, propertyErrorsOf, type DashboardProperties, type PropertyErrors } from './edit/PropertiesModal';
import { DashboardGrid, type DragPayload } from './layout/DashboardGrid';
import { FilterBar, filterBarHasContent, filterBarOrientationOf, WithFilterBar, type FilterBarOrientation } from './filters/FilterBar';
import { FiltersConfigModal } from './filters/FiltersConfigModal';
import { useUndoRedoKeys } from './edit/use-undo-redo-keys';
import { CrossFilterScopingModal, crossFilterSettingsOf } from './filters/CrossFilterScopingModal';
import { DashboardFiltersProvider, useDashboardFilters } from './filters/useDashboardFilters';
import { DashboardStateContext, type DashboardStateValue } from './dashboard-state.context';
import { useExpandedSlices } from './use-expanded-slices';
import { dashboardColors, DashboardColorSchemeContext, sharedLabelColorsToSave, useDashboardLabelColors } from './layout/dashboard-colors';
import { lastModifiedTimeOf } from '@meridian/contracts/rules/last-modified';

/** Undo slots before the warning (Superset's UNDO_LIMIT); the history keeps two more (spec 02 §9). */
const UNDO_LIMIT = 50;

const lastModifiedOf = (d: DashboardDetail) => (d.changed_on ? lastModifiedTimeOf(d.changed_on) : null);
const parsePosition = (text: string | null) => {
  try {
    return text ? (JSON.parse(text) as Record<string, unknown>) : null;
  } catch {
    return null;
  }
};

/**
 * Tabs a permalink opened the dashboard on (handed over by DashboardPermalinkScreen), as the active tab of
 * each tabs container; read once.
 */
function restoredActiveTabs(dashboardId: number, layout: LayoutMap): Record<string, string> {
  const key = `dashboard-active-tabs-${dashboardId}`;
  const stored = sessionStorage.getItem(key);
  if (!stored) return {};
  sessionStorage.removeItem(key);
  const out: Record<string, string> = {};
  try {
    for (const tabId of JSON.parse(stored) as string[]) {
      const tabsId = Object.values(layout).find((c) => c.type === 'TABS' && c.children.includes(tabId))?.id;
      if (tabsId) out[tabsId] = tabId;
    }
  } catch {
    return {};
  }
  return out;
}

/** The stored fields a save sends, for the overwrite diff. */
interface Draft {
  dashboard_title: string;
  slug: string | null;
  css: string;
  json_metadata: string;
  certified_by: string | null;
  certification_details: string | null;
  owners: number[];
  roles: number[];
}

const draftOf = (d: DashboardDetail): Draft => ({
  dashboard_title: d.dashboard_title,
  slug: d.slug,
  css: d.css ?? '',
  json_metadata: JSON.stringify(JSON.parse(d.json_metadata || '{}'), null, 2),
  certified_by: d.certified_by,
  certification_details: d.certification_details,
  owners: d.owners.map((o) => o.id),
  roles: d.roles.map((r) => r.id),
});

/**
 * Ends a dashboard refresh once no chart data call is under way. Drawn only while refreshing, after the grid (whose
 * charts start their new calls in their own effects, which run before this one's): counting the calls in the screen
 * itself drew the whole dashboard again at every chart's start and answer, on every visit.
 */
function RefreshWatcher({ refreshToken, onDone }: { refreshToken: number; onDone: () => void }) {
  const queryClient = useQueryClient();
  const fetching = useIsFetching({ queryKey: ['dashboard-chart-data'] });
  useEffect(() => {
    if (queryClient.isFetching({ queryKey: ['dashboard-chart-data'] }) === 0) onDone();
  }, [fetching, refreshToken, queryClient, onDone]);
  return null;
}

function chartFromRecord(record: any): DashboardChart {
  let formData: Record<string, any> = {};
  try {
    formData = record.params ? JSON.parse(record.params) : {};
  } catch {
    formData = {};
  }
  return { id: record.id, uuid: record.uuid, slice_name: record.slice_name, viz_type: record.viz_type, description: record.description, datasource_id: record.datasource_id, slice_url: record.url, form_data: { ...formData, datasource: `${record.datasource_id}__table` } };
}

/**
 * A dashboard at `/superset/dashboard/{slug or id}/` (spec 02 §2): its layout drawn, and for editors the
 * edit mode with the builder pane, undo/redo, properties, CSS, and a save that never overwrites a newer
 * server copy without asking.
 */
export function DashboardScreen() {
  const { idOrSlug } = useParams({ strict: false }) as { idOrSlug: string };
  const search = useRouterState({ select: (s) => s.location.search as Record<string, unknown> });
  const dashboard = useQuery({ queryKey: dashboardKey(idOrSlug), queryFn: () => fetchDashboard(idOrSlug), retry: false });
  // The charts' data calls are POSTs that carry the CSRF token: fetched now, beside the dashboard.
  useEffect(() => void getCsrfToken(), []);
  // Asked for together: the charts need not wait for the dashboard.
  const charts = useQuery({ queryKey: dashboardChartsKey(idOrSlug), queryFn: () => fetchDashboardCharts(idOrSlug), retry: false });
  // Their datasets, for the names the charts show (a dataset's verbose names); without them the charts show the labels.
  const datasets = useDashboardDatasources(dashboardDatasetsKey(idOrSlug), idOrSlug);
  // The dashboard opened: logged once per dashboard, with the time its definition took (Superset's mount_dashboard).
  const dashboardId = dashboard.data?.id;
  useEffect(() => {
    // A permalink's anchor is the event's target_id, as Superset logs it.
    const anchor = permalinkAnchor();
    if (dashboardId !== undefined) logEvent(LOG_ACTIONS.MOUNT_DASHBOARD, { source: 'dashboard', source_id: dashboardId, event_type: 'timing', duration: Math.round(performance.now()), ...(anchor ? { target_id: anchor } : {}) });
  }, [dashboardId]);

  if (dashboard.isError || charts.isError) {
    const error = dashboard.error ?? charts.error;
    const status = error instanceof ApiError ? error.status : 0;
    return (
      <Container size="sm" py="xl">
        <Alert color="red" title={status === 404 ? 'Dashboard not found' : 'This dashboard could not load'}>
          {status === 404 ? 'There is no dashboard at this address, or you may not see it.' : (error as Error).message}
        </Alert>
      </Container>
    );
  }
  if (!dashboard.data || !charts.data || datasets.pending) {
    return (
      <Stack align="center" py="xl">
        <Loader />
      </Stack>
    );
  }
  return (
    <DatasourcesContext.Provider value={datasets.datasources}>
      <DashboardPage key={dashboard.data.id} dashboard={dashboard.data} savedCharts={charts.data} startInEdit={String(search.edit ?? '') === 'true'} nativeFiltersKey={typeof search.native_filters_key === 'string' ? search.native_filters_key : null} standaloneMode={standaloneModeOf(search.standalone)} display={displayOptionsFromMask(Number(search[DISPLAY_OPTIONS_URL_KEY]))} focusedChart={search['dashboard-focused-chart'] ? Number(search['dashboard-focused-chart']) : null} />
    </DatasourcesContext.Provider>
  );
}

/**
 * Superset's DashboardStandaloneMode from the address: 1 (fullscreen) hides the app's bar only, 2 also the
 * dashboard's title bar, 3 (reports, screenshots) as 2; 0 is the normal page.
 */
function standaloneModeOf(value: unknown): number {
  const text = String(value ?? '');
  if (text === 'true') return 1;
  const mode = Number(text);
  return [1, 2, 3].includes(mode) ? mode : 0;
}

/**
 * `display` is the `uiConfig` bitmask of spec 02 §2 (1 title, 2 tab, 4 navigation, 8 chart controls), as Superset's
 * embedded SDK sends it: the title bar, the top-level tabs' bar and each chart's filter indicator and menu are left
 * out (the app bar is AppLayout's).
 */
function DashboardPage({ dashboard, savedCharts, startInEdit, standaloneMode, display, focusedChart, nativeFiltersKey }: { dashboard: DashboardDetail; savedCharts: DashboardChart[]; startInEdit: boolean; standaloneMode: number; display: DashboardDisplayOptions; focusedChart: number | null; nativeFiltersKey: string | null }) {
  // Fullscreen (1) keeps the title bar, whose menu leaves it; 2 and 3 show the dashboard alone.
  const standalone = standaloneMode >= 2;
  const user = useSessionUser();
  const { featureFlags } = useBootstrap();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const canEdit = hasPermission(user, 'can_write', 'Dashboard') && (isAdmin(user) || dashboard.owners.some((o) => o.id === user.userId));
  const [saved, setSaved] = useState(() => ({ layout: layoutFromPosition(parsePosition(dashboard.position_json), dashboard.dashboard_title), draft: draftOf(dashboard), lastModified: lastModifiedOf(dashboard), published: dashboard.published }));
  const [history, setHistory] = useState<UndoHistory<LayoutMap>>(() => startHistory(saved.layout));
  const [draft, setDraft] = useState<Draft>(saved.draft);
  const [editMode, setEditMode] = useState(startInEdit && canEdit);
  const [published, setPublished] = useState(dashboard.published);
  const emailReport = useHeaderReport(standalone ? null : { dashboardId: dashboard.id, title: dashboard.dashboard_title }, { icons: false });
  const [charts, setCharts] = useState(() => new Map(savedCharts.map((c) => [c.id, c])));
  const [activeTabs, setActiveTabs] = useState<Record<string, string>>(() => restoredActiveTabs(dashboard.id, saved.layout));
  const [refreshToken, setRefreshToken] = useState(0);
  const [force, setForce] = useState(false);
  // spec 02 §4 'refreshing': from a refresh of the dashboard until every chart in view has answered; the refresh
  // actions are disabled meanwhile (RefreshWatcher, drawn only then).
  const [refreshing, setRefreshing] = useState(false);
  const refreshDashboard = (forced: boolean) => {
    setForce(forced);
    setRefreshToken((t) => t + 1);
    setRefreshing(true);
  };
  const [saving, setSaving] = useState(false);
  const [diffs, setDiffs] = useState<OverwriteDiff[] | null>(null);
  const [propertiesOpen, setPropertiesOpen] = useState(false);
  // A save refused for a field of the properties (a slug another dashboard has): shown on that field.
  const [propertyErrors, setPropertyErrors] = useState<PropertyErrors | null>(null);
  const [cssOpen, setCssOpen] = useState(false);
  const [saveAsOpen, setSaveAsOpen] = useState(false);
  const [refreshOpen, setRefreshOpen] = useState(false);
  const [embedOpen, setEmbedOpen] = useState(false);
  // The auto-refresh period: the saved refresh_frequency, or one set for this session in view mode.
  const [sessionPeriod, setSessionPeriod] = useState<number | null>(null);
  const metadata = useMemo(() => parseMetadata(draft.json_metadata), [draft.json_metadata]);
  const refreshPeriod = sessionPeriod ?? (Number(metadata.refresh_frequency) || 0);
  const { expandedSlices, toggleExpandSlice, reset: resetExpandedSlices } = useExpandedSlices(metadata);
  useDashboardLabelColors(metadata);
  const layout = history.present;
  const draftChanged = JSON.stringify(draft) !== JSON.stringify(saved.draft);
  // One object while the draft is the same: the open properties modal takes a new value as a reset of its fields.
  const knownPeople = useMemo(() => ({ owners: dashboard.owners.map(personChoice), roles: dashboard.roles.map((r) => ({ value: String(r.id), label: r.name })) }), [dashboard]);
  const properties = useMemo(
    () => ({ dashboard_title: draft.dashboard_title, slug: draft.slug, certified_by: draft.certified_by, certification_details: draft.certification_details, json_metadata: draft.json_metadata, owners: draft.owners, roles: draft.roles }),
    [draft.dashboard_title, draft.slug, draft.certified_by, draft.certification_details, draft.json_metadata, draft.owners, draft.roles],
  );
  const unsaved = editMode && hasUnsavedChanges(history, false, draftChanged);

  // spec 02 §2: `dashboard-focused-chart` is read, then removed from the address (the chart is shown below).
  useEffect(() => {
    if (focusedChart === null) return;
    const url = new URL(window.location.href);
    url.searchParams.delete('dashboard-focused-chart');
    window.history.replaceState(window.history.state, '', url.toString());
  }, [focusedChart]);

  // Leaving with unsaved edits asks first.
  useEffect(() => {
    if (!unsaved) return;
    const warn = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [unsaved]);

  useUndoRedoKeys(editMode, () => setHistory(undo), () => setHistory(redo));

  // Edits of one gesture (a resize drag, typing into one text) are one undo step: the history's present
  // is replaced while the same gesture key repeats.
  const gesture = useRef<string | null>(null);
  const dispatch = useCallback((action: LayoutAction, gestureKey?: string) => {
    const coalesce = gestureKey !== undefined && gestureKey === gesture.current;
    gesture.current = gestureKey ?? null;
    setHistory((h) => {
      const result = layoutReducer(h.present, action);
      if (!result.ok) {
        addDangerToast(result.error);
        return h;
      }
      if (result.warning) addWarningToast(result.warning);
      if (coalesce && h.past.length) return { ...h, present: result.layout, future: [] };
      const next = pushHistory(h, result.layout, UNDO_LIMIT);
      if (next.warning) addWarningToast(next.warning);
      return next.history;
    });
  }, []);

  /** A dropped chart's definition, read before it joins the layout: a chart gone meanwhile is not added (spec 02 §8). */
  const addChart = useCallback(
    async (chartId: number): Promise<DashboardChart | null> => {
      const known = charts.get(chartId);
      if (known) return known;
      try {
        const chart = chartFromRecord((await api<{ result: any }>(`/api/v1/chart/${chartId}`)).result);
        setCharts((m) => new Map(m).set(chartId, chart));
        return chart;
      } catch (error) {
        if (error instanceof ApiError && error.status === 404) addWarningToast(NO_CHART_DEFINITION);
        else addDangerToast(errorOf(error).error);
        return null;
      }
    },
    [charts],
  );

  const drop = useCallback(
    (payload: DragPayload, parentId: string, index: number) => {
      const destination = { parentId, index };
      if (payload.kind === 'move') return dispatch({ type: 'MOVE_COMPONENT', id: payload.id, destination });
      if (payload.type === 'CHART' && payload.chartId) {
        const chartId = payload.chartId;
        // The chart's meta as Superset's: {chartId, width, height, sliceName, uuid} (the server fills a missing uuid on save).
        void addChart(chartId).then((chart) => chart && dispatch({ type: 'CREATE_COMPONENT', component: newComponent('CHART', { chartId, sliceName: payload.sliceName, width: GRID_DEFAULT_CHART_WIDTH, height: 50, ...(chart.uuid ? { uuid: chart.uuid } : {}) }), destination }));
        return;
      }
      if (payload.type === 'TABS') {
        const tabs = newComponent('TABS');
        const tab = newComponent('TAB', { text: 'New tab' });
        tabs.children = [tab.id];
        return dispatch({ type: 'CREATE_COMPONENT', component: tabs, extra: [tab], destination });
      }
      dispatch({ type: 'CREATE_COMPONENT', component: newComponent(payload.type as Component['type']), destination });
    },
    [dispatch, addChart],
  );

  const withSharedLabelColors = (meta: Record<string, unknown>) => ({ ...meta, positions: undefined, shared_label_colors: sharedLabelColorsToSave(meta, savedMetadata) });
  const bodyOf = (overwrite: boolean, d = draft) => ({
    dashboard_title: d.dashboard_title,
    slug: d.slug ?? '',
    css: d.css,
    json_metadata: JSON.stringify(withSharedLabelColors(JSON.parse(d.json_metadata || '{}'))),
    certified_by: d.certified_by ?? '',
    certification_details: d.certification_details ?? '',
    position_json: JSON.stringify(positionFromLayout(layout)),
    owners: d.owners,
    // spec 02 §5: 'Roles are sent on save only when the dashboard role-based access feature is enabled.'
    ...(featureFlags.DASHBOARD_RBAC ? { roles: d.roles } : {}),
    ...(overwrite ? {} : { last_modified_time: saved.lastModified }),
  });

  const afterSave = (answer: { last_modified_time: number; result: Record<string, unknown> }, d = draft) => {
    const slug = (answer.result.slug as string | null | undefined) ?? null;
    const nextDraft = { ...d, slug };
    setSaved({ layout, draft: nextDraft, lastModified: answer.last_modified_time, published });
    setDraft(nextDraft);
    setHistory(startHistory(layout));
    setEditMode(false);
    setDiffs(null);
    addSuccessToast(DASHBOARD_SAVED);
    void queryClient.invalidateQueries({ queryKey: ['dashboard'] });
    // spec 02 §2: after a save the address follows the slug (and no longer asks for edit mode).
    const path = `/superset/dashboard/${slug ?? dashboard.id}/`;
    const url = new URL(window.location.href);
    url.searchParams.delete('edit');
    if (url.pathname !== path) void navigate({ href: path, replace: true });
    else window.history.replaceState(window.history.state, '', url.pathname + url.search);
  };

  const save = async (overwrite = false, edited = draft) => {
    // The open descriptions are saved as expanded_slices, as Superset's save sends them.
    const json_metadata = withExpandedSlices(edited.json_metadata, expandedSlices);
    const d = json_metadata === edited.json_metadata ? edited : { ...edited, json_metadata };
    setSaving(true);
    try {
      afterSave(await saveDashboard(dashboard.id, bodyOf(overwrite, d)), d);
    } catch (error) {
      if (error instanceof ApiError && error.status === 409) {
        const server = await fetchDashboard(dashboard.id);
        const personName = new Map([...dashboard.owners, ...server.owners].map((p) => [p.id, personChoice(p).label]));
        const names = (ids: number[]) => [...ids].sort((a, b) => a - b).map((id) => personName.get(id) ?? `User ${id}`).join(', ');
        const mine: Record<string, unknown> = { ...bodyOf(true, d), owners: names(d.owners) };
        const theirs: Record<string, unknown> = { dashboard_title: server.dashboard_title, slug: server.slug ?? '', css: server.css ?? '', json_metadata: server.json_metadata ?? '{}', certified_by: server.certified_by ?? '', certification_details: server.certification_details ?? '', position_json: server.position_json ?? '', owners: names(server.owners.map((o) => o.id)) };
        const list = Object.keys(theirs)
          .filter((k) => (k === 'json_metadata' || k === 'position_json' ? JSON.stringify(JSON.parse(String(theirs[k] || '{}'))) !== JSON.stringify(JSON.parse(String(mine[k] || '{}'))) : String(theirs[k] ?? '') !== String(mine[k] ?? '')))
          .map((k) => ({ field: k, server: String(theirs[k] ?? ''), mine: String(mine[k] ?? '') }));
        setDiffs(list.length ? list : [{ field: 'changed_on', server: server.changed_on ?? '', mine: String(saved.lastModified) }]);
      } else if (error instanceof ApiError && error.status === 403) addDangerToast(NO_PERMISSION_TO_EDIT_DASHBOARD);
      else {
        addDangerToast(getErrorText(errorOf(error), 'dashboard'));
        // Superset's 422 names the field ({"slug": ["Must be unique"]}): the properties open on it, so the toast's
        // 'Must be unique' is not left without its field.
        const fields = error instanceof ApiError ? propertyErrorsOf(error.clientError.message) : null;
        if (fields) {
          setPropertyErrors(fields);
          setPropertiesOpen(true);
        }
      }
    } finally {
      setSaving(false);
    }
  };

  // Edit mode entered or left (Superset's toggle_edit_dashboard, with the mode entered).
  const toggleEditMode = (next: boolean) => {
    logEvent(LOG_ACTIONS.TOGGLE_EDIT_DASHBOARD, { source: 'dashboard', source_id: dashboard.id, edit_mode: next });
    setEditMode(next);
  };
  const discard = () => {
    setHistory(startHistory(saved.layout));
    setDraft(saved.draft);
    // As Superset's discard (a reload), the descriptions open as saved.
    resetExpandedSlices(parseMetadata(saved.draft.json_metadata));
    toggleEditMode(false);
  };

  const togglePublished = async () => {
    const next = !published;
    try {
      const answer = await saveDashboard(dashboard.id, { published: next });
      setPublished(next);
      setSaved((s) => ({ ...s, lastModified: answer.last_modified_time, published: next }));
      addSuccessToast(next ? DASHBOARD_PUBLISHED : DASHBOARD_HIDDEN);
    } catch {
      addDangerToast(PUBLISH_FORBIDDEN);
    }
  };

  const copyPermalink = async () => {
    try {
      await copyWithToast(await permalinkUrl());
    } catch (error) {
      addDangerToast((error as Error).message);
    }
  };
  const shareByEmail = async () => {
    try {
      window.location.href = shareByEmailHref(`Meridian dashboard: ${draft.dashboard_title}`, 'Check out this dashboard: ', await permalinkUrl());
    } catch (error) {
      addDangerToast((error as Error).message);
    }
  };
  // Download as image or PDF: the dashboard's grid (its shown tabs) once every chart in it is drawn, those not yet
  // scrolled to included (they are drawn from then on as if in view).
  const gridRef = useRef<HTMLDivElement>(null);
  const [drawAll, setDrawAll] = useState(false);
  const downloadDashboard = (as: 'image' | 'pdf') => {
    const element = gridRef.current;
    if (!element) return;
    setDrawAll(true);
    void chartsDrawn(element)
      .then(() => (as === 'image' ? downloadAsImage(element, draft.dashboard_title) : downloadAsPdf(element, draft.dashboard_title)))
      .catch(() => addDangerToast(SORRY_AN_ERROR_OCCURRED));
  };

  const usedChartIds = useMemo(() => new Set(chartComponentIds(layout).keys()), [layout]);

  // Native filters and cross-filters (spec 02 §3, §4), over the saved metadata.
  const savedMetadata = useMemo(() => parseMetadata(saved.draft.json_metadata), [saved.draft.json_metadata]);
  const filters = useDashboardFilters({ dashboardId: dashboard.id, metadata: savedMetadata, layout, charts, crossFiltersFlag: !!featureFlags.DASHBOARD_CROSS_FILTERS, initialKey: nativeFiltersKey });
  const [filtersOpen, setFiltersOpen] = useState(false);
  const [scopingOpen, setScopingOpen] = useState(false);
  const crossFilterSettings = useMemo(() => crossFilterSettingsOf(savedMetadata), [savedMetadata]);
  const orientation = filterBarOrientationOf(savedMetadata);
  // The embedded SDK's filters config, honoured here as on the embedded page (Superset reads it on both).
  const [barOptions] = useState(() => filterBarOptionsFromSearch(window.location.search));
  const visibleCharts = useMemo(() => visibleChartIds(layout, activeTabs), [layout, activeTabs]);
  const chartNames = useMemo(() => {
    // Each chart with the (innermost) tab it sits on, so scopes can take or leave a whole tab.
    const ancestors = chartAncestors(layout);
    const tabOf = (id: number) => [...(ancestors.get(id) ?? [])].reverse().map((c) => layout[c]).find((c) => c?.type === 'TAB');
    return [...usedChartIds].map((id) => ({ id, name: charts.get(id)?.slice_name ?? `Chart ${id}`, tab: (tabOf(id)?.meta?.text as string | undefined) ?? null }));
  }, [usedChartIds, charts, layout]);
  const showFilterBar = !editMode && barOptions.visible && filterBarHasContent(filters, canEdit);
  const gridShown = filters.ready || editMode;

  // spec 02 §2 permalinks carry 'URL params, data mask, active tabs and an anchor': the address's own parameters, the
  // filters' data mask and the tabs shown, read when the link is made; the anchor is a component's id (a chart's menu
  // gives its CHART-…), which the link opens scrolled to.
  const shown = useRef({ activeTabs, dataMask: filters.dataMask });
  shown.current = { activeTabs, dataMask: filters.dataMask };
  const permalinkUrl = useCallback(
    async (anchor?: string) => (await createDashboardPermalink(dashboard.id, { urlParams: dashboardUrlParamEntries(window.location.search), dataMask: shown.current.dataMask, activeTabs: Object.values(shown.current.activeTabs), ...(anchor ? { anchor } : {}) })).url,
    [dashboard.id],
  );
  const mayShare = canShareDashboard(user);
  const dashboardState = useMemo<DashboardStateValue>(
    () => ({ dashboardId: dashboard.id, expandedSlices, toggleExpandSlice, ...(mayShare ? { permalink: permalinkUrl } : {}) }),
    [dashboard.id, expandedSlices, toggleExpandSlice, mayShare, permalinkUrl],
  );

  // The component to show at once: the focused chart of the address, or a permalink's anchor (the address's
  // #CHART-…, as Superset's directPathToChild): its tabs opened, then, once the grid is drawn (after a kept filter
  // state is read), scrolled to the middle of the view and outlined for a moment.
  const [focusPending, setFocusPending] = useState<string | null>(() => {
    if (focusedChart !== null) return chartComponentIds(saved.layout).get(focusedChart) ?? null;
    const anchor = permalinkAnchor();
    return anchor && saved.layout[anchor] ? anchor : null;
  });
  useEffect(() => {
    if (focusPending === null) return;
    const opened = tabsShowingPath(layout, directPathToChild(layout, focusPending));
    if (Object.keys(opened).length) setActiveTabs((t) => ({ ...t, ...opened }));
    // The focus is asked for once.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  useEffect(() => {
    if (focusPending === null || !gridShown) return;
    // The grid draws its cells once it knows its width (a frame or two after it mounts): looked for each frame, a while.
    const deadline = performance.now() + 5_000;
    let frame = 0;
    const look = () => {
      const component = gridRef.current?.querySelector<HTMLElement>(`[data-component-id="${CSS.escape(focusPending)}"]`);
      // A chart's cell is outlined (drawn once the grid knows its width); any other component itself.
      const cell = component?.querySelector<HTMLElement>('[data-testid="dashboard-chart"]') ?? (layout[focusPending]?.type === 'CHART' ? null : component);
      if (!cell) {
        if (performance.now() < deadline) frame = requestAnimationFrame(look);
        else setFocusPending(null);
        return;
      }
      setFocusPending(null);
      cell.scrollIntoView({ block: 'center' });
      cell.setAttribute('data-focused', 'true');
      setTimeout(() => cell.removeAttribute('data-focused'), 2_000);
    };
    frame = requestAnimationFrame(look);
    return () => cancelAnimationFrame(frame);
  }, [focusPending, gridShown]);

  /** The json_metadata-only PUT (spec 02 §7) for native filters and the bar's orientation; a newer server copy refuses it. */
  const saveMetadata = async (patch: Record<string, unknown>) => {
    const json_metadata = JSON.stringify({ ...parseMetadata(saved.draft.json_metadata), ...patch });
    const answer = await saveDashboard(dashboard.id, { json_metadata, last_modified_time: saved.lastModified });
    const stored = typeof answer.result.json_metadata === 'string' ? JSON.stringify(JSON.parse(answer.result.json_metadata), null, 2) : JSON.stringify(JSON.parse(json_metadata), null, 2);
    setSaved((s) => ({ ...s, lastModified: answer.last_modified_time, draft: { ...s.draft, json_metadata: stored } }));
    setDraft((d) => ({ ...d, json_metadata: JSON.stringify({ ...parseMetadata(d.json_metadata), ...patch }, null, 2) }));
  };
  const saveFilters = async (items: FilterConfigItem[]) => {
    try {
      await saveMetadata({ native_filter_configuration: items });
    } catch (error) {
      throw new Error(error instanceof ApiError && error.status === 409 ? 'this dashboard was changed by someone else; reload it first.' : (error as Error).message);
    }
  };
  const changeOrientation = async (next: FilterBarOrientation) => {
    try {
      await saveMetadata({ filter_bar_orientation: next });
    } catch (error) {
      addDangerToast((error as Error).message);
    }
  };
  const filterBar = showFilterBar && (
    <FilterBar f={filters} orientation={orientation} canEdit={canEdit} visibleCharts={visibleCharts} chartName={(id) => charts.get(id)?.slice_name ?? `Chart ${id}`} onOrientation={(o) => void changeOrientation(o)} onEdit={() => setFiltersOpen(true)} startCollapsed={barOptions.expanded === false} />
  );

  return (
    <div className={classes.page} data-testid="dashboard-page" data-standalone={standalone || display.hideTitle || undefined}>
      {draft.css && <style data-testid="dashboard-css">{draft.css}</style>}
      {!standalone && !display.hideTitle && (
        <div className={classes.header}>
          {editMode ? (
            <TextInput aria-label="Dashboard title" value={draft.dashboard_title} onChange={(e) => setDraft({ ...draft, dashboard_title: e.currentTarget.value })} size="md" fw={700} w={360} />
          ) : (
            <h1 className={classes.title}>{draft.dashboard_title}</h1>
          )}
          <DashboardFavoriteStar id={dashboard.id} name={draft.dashboard_title} size={19} />
          {canEdit ? (
            <Tooltip label={published ? 'This dashboard is published. Click to make it a draft.' : 'This dashboard is not published, it will not show up in the list of dashboards. Click here to publish this dashboard.'}>
              <Badge component="button" variant="light" color={published ? 'teal' : 'gray'} style={{ cursor: 'pointer' }} onClick={() => void togglePublished()} tt="none">
                {published ? 'Published' : 'Draft'}
              </Badge>
            </Tooltip>
          ) : (
            <Badge variant="light" color={published ? 'teal' : 'gray'} tt="none">
              {published ? 'Published' : 'Draft'}
            </Badge>
          )}
          <div style={{ flex: 1 }} />
          {editMode ? (
            <Group gap="xs">
              <Tooltip label="Undo">
                <ActionIcon variant="subtle" aria-label="Undo" disabled={!history.past.length} onClick={() => setHistory(undo)}>
                  <IconArrowBackUp size={18} />
                </ActionIcon>
              </Tooltip>
              <Tooltip label="Redo">
                <ActionIcon variant="subtle" aria-label="Redo" disabled={!history.future.length} onClick={() => setHistory(redo)}>
                  <IconArrowForwardUp size={18} />
                </ActionIcon>
              </Tooltip>
              <Button variant="default" onClick={discard}>
                Discard
              </Button>
              <Button onClick={() => void save()} loading={saving} disabled={!unsaved}>
                Save
              </Button>
            </Group>
          ) : (
            <Group gap="xs">
              {canEdit && (
                <Button variant="default" onClick={() => toggleEditMode(true)}>
                  Edit dashboard
                </Button>
              )}
              <Tooltip label="Refresh dashboard">
                <ActionIcon variant="subtle" aria-label="Refresh dashboard" disabled={refreshing} onClick={() => refreshDashboard(false)}>
                  <IconRefresh size={18} />
                </ActionIcon>
              </Tooltip>
            </Group>
          )}
          <Menu position="bottom-end" withinPortal>
            <Menu.Target>
              <ActionIcon variant="subtle" aria-label="More dashboard actions">
                <IconDots size={18} />
              </ActionIcon>
            </Menu.Target>
            <Menu.Dropdown>
              <Menu.Item disabled={refreshing} onClick={() => refreshDashboard(true)}>
                Force refresh
              </Menu.Item>
              <Menu.Item onClick={() => setRefreshOpen(true)}>Set auto-refresh interval</Menu.Item>
              {standaloneMode === 1 ? (
                <Menu.Item onClick={() => window.open(window.location.pathname, '_self')}>Exit fullscreen</Menu.Item>
              ) : (
                <Menu.Item onClick={() => window.open(`${window.location.pathname}?standalone=1`, '_self')}>Enter fullscreen</Menu.Item>
              )}
              {canShareDashboard(user) && (
                <>
                  <Menu.Divider />
                  <Menu.Label>Share</Menu.Label>
                  <Menu.Item onClick={() => void copyPermalink()}>Copy permalink to clipboard</Menu.Item>
                  <Menu.Item onClick={() => void shareByEmail()}>Share dashboard by email</Menu.Item>
                </>
              )}
              <Menu.Divider />
              <Menu.Label>Download</Menu.Label>
              <Menu.Item onClick={() => downloadDashboard('pdf')}>Export to PDF</Menu.Item>
              <Menu.Item onClick={() => downloadDashboard('image')}>Download as image</Menu.Item>
              {emailReport.items && (
                <>
                  <Menu.Divider />
                  {emailReport.items}
                </>
              )}
              {(canEdit || hasPermission(user, 'can_write', 'Dashboard')) && <Menu.Divider />}
              {canEdit && <Menu.Item onClick={() => setPropertiesOpen(true)}>Edit properties</Menu.Item>}
              {canEdit && <Menu.Item onClick={() => setCssOpen(true)}>Edit CSS</Menu.Item>}
              {canEdit && <Menu.Item onClick={() => setEmbedOpen(true)}>Embed dashboard</Menu.Item>}
              {canEdit && featureFlags.DASHBOARD_CROSS_FILTERS && <Menu.Item onClick={() => setScopingOpen(true)}>Cross-filter scoping</Menu.Item>}
              {hasPermission(user, 'can_write', 'Dashboard') && <Menu.Item onClick={() => setSaveAsOpen(true)}>Save as</Menu.Item>}
            </Menu.Dropdown>
          </Menu>
        </div>
      )}
      <WithFilterBar orientation={orientation} bar={filterBar}>
        <main className={classes.main}>
          <DashboardColorSchemeContext.Provider value={dashboardColors(metadata).colorScheme}>
          <DashboardFiltersProvider value={editMode || !filters.ready ? null : filters}>
            <AutoRefreshProvider periodSeconds={editMode ? 0 : refreshPeriod} chartIds={[...usedChartIds]} metadata={metadata}>
              {gridShown ? (
                <div ref={gridRef}>
                  <AllNearViewport value={drawAll}>
                    <DashboardStateContext.Provider value={dashboardState}>
                    <DashboardGrid layout={layout} charts={charts} editMode={editMode} refreshToken={refreshToken} force={force} hideTopLevelTabs={display.hideTab && !editMode} chartControls={!display.hideChartControls} dispatch={dispatch} drop={drop} activeTabs={activeTabs} setActiveTab={(tabsId, tabId) => setActiveTabs((t) => ({ ...t, [tabsId]: tabId }))} />
                    </DashboardStateContext.Provider>
                  </AllNearViewport>
                </div>
              ) : (
                <Stack align="center" py="xl">
                  <Loader />
                </Stack>
              )}
            </AutoRefreshProvider>
          </DashboardFiltersProvider>
          </DashboardColorSchemeContext.Provider>
        </main>
        {editMode && <BuilderPane usedChartIds={usedChartIds} />}
      </WithFilterBar>
      {canEdit && <CrossFilterScopingModal opened={scopingOpen} onClose={() => setScopingOpen(false)} layout={layout} chartNames={chartNames} value={crossFilterSettings} onSave={(v) => saveMetadata({ ...v })} />}
      {canEdit && <FiltersConfigModal opened={filtersOpen} onClose={() => setFiltersOpen(false)} filters={filters.filters} layout={layout} chartNames={chartNames} onSave={saveFilters} />}
      {refreshing && <RefreshWatcher refreshToken={refreshToken} onDone={() => setRefreshing(false)} />}
      <OverwriteConfirmModal diffs={diffs} saving={saving} onCancel={() => setDiffs(null)} onConfirm={() => void save(true)} />
      {emailReport.modals}
      <PropertiesModal
        opened={propertiesOpen}
        value={properties}
        known={knownPeople}
        rolesEnabled={!!featureFlags.DASHBOARD_RBAC}
        errors={propertyErrors}
        onClose={() => {
          setPropertiesOpen(false);
          setPropertyErrors(null);
          // Out of edit mode a refused save's values are not kept.
          if (!editMode) setDraft(saved.draft);
        }}
        onApply={(p: DashboardProperties) => {
          const next = { ...draft, ...p };
          setDraft(next);
          setPropertiesOpen(false);
          setPropertyErrors(null);
          // Out of edit mode the properties are saved at once, as Superset's (they went into an unsaved edit, lost on a reload).
          if (!editMode) void save(false, next);
        }}
      />
      <CssModal opened={cssOpen} css={draft.css} onClose={() => setCssOpen(false)} onChange={(css) => { setDraft((d) => ({ ...d, css })); if (!editMode) setEditMode(true); }} />
      {canEdit && <EmbedModal dashboardId={dashboard.id} opened={embedOpen} onClose={() => setEmbedOpen(false)} />}
      <RefreshIntervalModal
        opened={refreshOpen}
        value={refreshPeriod}
        editMode={editMode}
        onClose={() => setRefreshOpen(false)}
        onChange={(seconds) => {
          if (editMode) {
            setDraft((d) => ({ ...d, json_metadata: JSON.stringify({ ...parseMetadata(d.json_metadata), refresh_frequency: seconds }, null, 2) }));
            setSessionPeriod(null);
          } else setSessionPeriod(seconds);
        }}
      />
      <SaveAsModal opened={saveAsOpen} onClose={() => setSaveAsOpen(false)} dashboard={dashboard} draft={draft} onCopied={(id) => void navigate({ href: `/superset/dashboard/${id}/` })} />
    </div>
  );
}

/** Edit CSS: changes preview live (the page's style follows the text) and are saved with the dashboard. */
function CssModal({ opened, css, onClose, onChange }: { opened: boolean; css: string; onClose: () => void; onChange: (css: string) => void }) {
  // The saved CSS templates (none offered to a user who may not read them).
  const templates = useQuery({
    queryKey: ['css-templates'],
    enabled: opened,
    queryFn: () => api<{ result: Array<{ id: number; template_name: string; css: string }> }>('/api/v1/css_template/', { query: { q: { order_column: 'template_name', order_direction: 'asc', page_size: 100 } } }),
    retry: false,
  });
  const choices = templates.data?.result ?? [];
  return (
    <Modal opened={opened} onClose={onClose} title="Edit CSS" size="lg">
      {choices.length > 0 && (
        <Select
          mb="sm"
          label="Load a CSS template"
          placeholder="Choose a template"
          data={choices.map((t) => ({ value: String(t.id), label: t.template_name }))}
          value={null}
          onChange={(id) => {
            const template = choices.find((t) => String(t.id) === id);
            if (template) onChange(template.css);
          }}
          comboboxProps={{ withinPortal: true }}
        />
      )}
      <Textarea aria-label="CSS" autosize minRows={10} maxRows={24} value={css} onChange={(e) => onChange(e.currentTarget.value)} styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }} placeholder=".dashboard-header { color: teal; }" />
      <Group justify="flex-end" mt="md">
        <Button onClick={onClose}>Done</Button>
      </Group>
    </Modal>
  );
}

/** 'Save as': a copy owned by the user, optionally with copies of the charts. */
function SaveAsModal({ opened, onClose, dashboard, draft, onCopied }: { opened: boolean; onClose: () => void; dashboard: DashboardDetail; draft: Draft; onCopied: (id: number) => void }) {
  const [title, setTitle] = useState(`${draft.dashboard_title} [copy]`);
  const [duplicate, setDuplicate] = useState(false);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (opened) setTitle(`${draft.dashboard_title} [copy]`);
  }, [opened, draft.dashboard_title]);
  const run = async () => {
    setBusy(true);
    try {
      const copy = await copyDashboard(dashboard.id, { dashboard_title: title, css: draft.css, json_metadata: draft.json_metadata || '{}', duplicate_slices: duplicate });
      addSuccessToast(DASHBOARD_SAVED);
      onClose();
      onCopied(copy.id);
    } catch (error) {
      addDangerToast(getErrorText(errorOf(error), 'dashboard'));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal opened={opened} onClose={onClose} title="Save as" size="md">
      <Stack>
        <TextInput label="New dashboard name" value={title} onChange={(e) => setTitle(e.currentTarget.value)} data-autofocus />
        <label style={{ display: 'flex', gap: 8, alignItems: 'center', fontSize: 14 }}>
          <input type="checkbox" checked={duplicate} onChange={(e) => setDuplicate(e.currentTarget.checked)} /> Also copy the charts
        </label>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={() => void run()} loading={busy}>
            Save
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** A dashboard permalink's anchor: the address's #CHART-… (the component to show), or ''. */
const permalinkAnchor = () => decodeURIComponent(window.location.hash.slice(1));

/** A draft's json_metadata as an object (an unparsable draft reads as empty). */
function parseMetadata(text: string): Record<string, unknown> {
  try {
    const value = JSON.parse(text || '{}');
    return value && typeof value === 'object' ? value : {};
  } catch {
    return {};
  }
}
