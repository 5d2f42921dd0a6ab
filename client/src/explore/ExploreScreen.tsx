import { ActionIcon, Alert, Badge, Button, Center, Code, CopyButton, Group, Loader, Menu, Modal, Stack, Text, TextInput, Tooltip } from '@mantine/core';
import { LOAD_SQL_FAILED, SORRY_AN_ERROR_OCCURRED, UNTITLED_DASHBOARD } from '@meridian/contracts/messages';
import { isNewChart } from '@meridian/contracts/explore/chart-state';
import { IconDots, IconDownload, IconShare, IconCode, IconMail, IconPencil } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate, useRouter, useRouterState } from '@tanstack/react-router';
import { lazy, memo, startTransition, Suspense, useCallback, useEffect, useMemo, useState } from 'react';
import { LOG_ACTIONS } from '@meridian/contracts/rules/event-log';
import { useRenderChartLog } from '../event-log/chart-events';
import { logEvent } from '../event-log/event-logger';
import { api, ApiError } from '../api';
import { downloadAsImage, downloadChartData, exportQuery } from '../charts/chart-export';
import { useHeaderReport } from '../reports/useHeaderReport';
import { FavoriteStar } from '../charts/FavoriteStar';
import { addDangerToast } from '../notify';
import { copyWithToast } from '../query-history/app-link';
import { useBootstrap } from '../auth/session';
import { chartRowCount, rowCountText } from '../components/row-count';
import { ChartArea } from './ChartArea';
import { AnnotationStatusContext } from './controls/annotation-status';
import { controlsOf } from './controls/panel';
import { ControlPanel } from './ControlPanel';
import { useFormDataInDashboardContext } from './dashboard-context';
import { DataPanes } from './DataPanes';
import { DatasourcePanel } from './DatasourcePanel';
import type { drillBySteps } from './DrillModals';
import { chartRequestTimeoutMs, createPermalink, fetchBootstrap, fetchChartData, pageBootstrap, type ExploreBootstrap, type ExploreParams } from './explore.api';
import type { DataPointClick, FormData } from '../viz/types';
import { prefetchOpeningChart, storeMissingQueryContext, useExplore, type ChartRequestLimits } from './useExplore';
import { getChartMeta, useChartPlugin } from '../viz/registry';
import { VizThumbnail } from './VizThumbnail';
import classes from './explore.module.css';
import { parseBooleanParam } from '@meridian/contracts/rules/permalink-params';
import { hasPermission } from '@meridian/contracts/rules/permissions';

// Modals open on a click: their code loads then, not with the screen.
const SaveModal = lazy(() => import('./SaveModal').then((m) => ({ default: m.SaveModal })));
const PropertiesModal = lazy(() => import('./PropertiesModal').then((m) => ({ default: m.PropertiesModal })));
const SwapDatasetModal = lazy(() => import('./SwapDatasetModal').then((m) => ({ default: m.SwapDatasetModal })));
// What opens on demand loads on demand: the drill menus, the type gallery, the query view.
const DrillMenu = lazy(() => import('./DrillModals').then((m) => ({ default: m.DrillMenu })));
const DrillDetailModal = lazy(() => import('./DrillModals').then((m) => ({ default: m.DrillDetailModal })));
const DrillByModal = lazy(() => import('./DrillModals').then((m) => ({ default: m.DrillByModal })));
const VizTypeGallery = lazy(() => import('./VizTypeGallery').then((m) => ({ default: m.VizTypeGallery })));
const ViewQueryModal = lazy(() => import('../charts/ViewQueryModal').then((m) => ({ default: m.ViewQueryModal })));
const DatasetEditorModal = lazy(() => import('../datasets/DatasetEditorModal').then((m) => ({ default: m.DatasetEditorModal })));

const num = (v: unknown) => (v === undefined || v === null || v === '' || Number.isNaN(Number(v)) ? undefined : Number(v));
/** A flag of the address (spec 01 §2's permalink params): any value but 'false' or '0' is true ('True', 'yes'), absent is false. */
const bool = (v: unknown) => (v === false || v === 0 || v === undefined || v === null ? false : (parseBooleanParam(String(v)) ?? false));

/** The URL's form_data (JSON text, or already parsed by the router). */
function urlFormData(v: unknown): Record<string, any> | null {
  if (!v) return null;
  if (typeof v === 'object') return v as Record<string, any>;
  try {
    return JSON.parse(String(v));
  } catch {
    return null;
  }
}

/**
 * `/explore/`: reads slice_id, datasource_id/datasource_type, viz_type, form_data, form_data_key,
 * permalink_key, standalone and force (spec 01 §2), and dashboard_id (opened from a dashboard: the chart is drawn in
 * the dashboard's colours), loads the bootstrap and opens the editor.
 */
export function ExploreScreen() {
  const search = useRouterState({ select: (s) => s.location.search as Record<string, unknown> });
  const pathname = useRouterState({ select: (s) => s.location.pathname });
  const permalinkFromPath = /\/explore\/p\/([^/]+)/.exec(pathname)?.[1];
  const fromUrl = urlFormData(search.form_data);
  const params: ExploreParams = {
    slice_id: num(search.slice_id) ?? num(fromUrl?.slice_id),
    datasource_id: num(search.datasource_id),
    datasource_type: typeof search.datasource_type === 'string' ? search.datasource_type : undefined,
    form_data_key: typeof search.form_data_key === 'string' ? search.form_data_key : undefined,
    permalink_key: typeof search.permalink_key === 'string' ? search.permalink_key : permalinkFromPath,
    dashboard_id: num(search.dashboard_id) ?? num(fromUrl?.dashboardId),
  };
  // Explore opened (Superset's mount_explorer), once per chart or dataset opened.
  const openedTarget = params.slice_id ?? params.datasource_id;
  useEffect(() => logEvent(LOG_ACTIONS.MOUNT_EXPLORER, { source: 'explore', ...(params.slice_id ? { source_id: params.slice_id, slice_id: params.slice_id } : {}) }), [openedTarget]);
  if (!params.datasource_id && typeof fromUrl?.datasource === 'string') {
    const [id, type] = fromUrl.datasource.split('__');
    params.datasource_id = num(id);
    params.datasource_type = type;
  }
  // The editor is opened once per chart or dataset: our own address updates (form_data_key) do not reopen it.
  const entry = `${params.slice_id ?? ''}|${params.datasource_id ?? ''}|${params.permalink_key ?? ''}|${search.viz_type ?? ''}`;
  const [opened] = useState(() => ({ entry, params }));
  const bootParams = opened.entry === entry ? opened.params : params;
  const boot = useQuery({ queryKey: ['explore-bootstrap', entry], queryFn: () => fetchBootstrap(bootParams), initialData: () => pageBootstrap(bootParams), staleTime: Infinity, gcTime: 0, retry: false });
  // What the editor opens with, fixed per opening: our own address updates (form_data_key) must not hand the
  // editor a new object, which would re-render every control.
  const data = useMemo(() => {
    if (!boot.data) return null;
    const opening: ExploreBootstrap = { ...boot.data, form_data: { ...boot.data.form_data } };
    if (fromUrl && !params.form_data_key) Object.assign(opening.form_data, fromUrl);
    if (typeof search.viz_type === 'string' && !opening.slice && !params.form_data_key) opening.form_data.viz_type = search.viz_type;
    return { boot: opening, formDataKey: params.form_data_key ?? null };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [boot.data, entry]);
  if (boot.isPending)
    return (
      <Center h="60vh">
        <Loader />
      </Center>
    );
  if (boot.isError)
    return (
      <Center h="60vh">
        <Alert color="red" variant="light" title="This chart could not be opened">
          {boot.error instanceof ApiError ? boot.error.message : String(boot.error)}
        </Alert>
      </Center>
    );
  return <ExploreView key={entry} boot={data!.boot} formDataKey={data!.formDataKey} force={bool(search.force)} standalone={bool(search.standalone)} dashboardId={params.dashboard_id ?? null} />;
}

/**
 * The chart request's timeout (spec 01 §9: the web server timeout, seconds × 1000; annotation queries share it)
 * and the row limit's bound (SQL_MAX_ROW, spec 01 §5), from the server's configuration.
 */
function useChartRequestLimits(): ChartRequestLimits {
  const { conf } = useBootstrap();
  return useMemo(() => ({ timeoutMs: chartRequestTimeoutMs(conf), sqlMaxRow: Number(conf.SQL_MAX_ROW) || null }), [conf.SUPERSET_WEBSERVER_TIMEOUT, conf.SQL_MAX_ROW]);
}

/** Explore edits one chart type at a time: its code (control panel, buildQuery) is loaded before the editor opens. */
function ExploreView(props: { boot: ExploreBootstrap; formDataKey: string | null; force: boolean; standalone: boolean; dashboardId: number | null }) {
  const vizType = props.boot.form_data.viz_type;
  const { plugin, failed } = useChartPlugin(getChartMeta(vizType) ? vizType : 'table');
  // The editor's first render is heavy: its chart data call starts first, from the code just loaded.
  const [started, setStarted] = useState(false);
  const limits = useChartRequestLimits();
  const canWriteCharts = hasPermission(useBootstrap().user, 'can_write', 'Chart');
  useEffect(() => {
    if (!plugin || started) return;
    prefetchOpeningChart(props.boot, props.force, limits);
    // Not from the chart drawn alone (a screenshot, an embed): as Superset's, only the editor writes it, and a
    // picture must not change the chart it pictures (its digest includes the query context).
    storeMissingQueryContext(props.boot, canWriteCharts && !props.standalone);
    setStarted(true);
  }, [plugin, started, props.boot, props.force, limits, canWriteCharts, props.standalone]);
  if (failed)
    return (
      <Center h="60vh">
        <Alert color="red" variant="light" title="This chart could not be opened">
          {`The code of chart type ${vizType} could not load.`}
        </Alert>
      </Center>
    );
  if (!plugin || !started)
    return (
      <Center h="60vh">
        <Loader />
      </Center>
    );
  return <ExploreEditor {...props} />;
}

const ExploreEditor = memo(function ExploreEditor({ boot, formDataKey, force, standalone, dashboardId }: { boot: ExploreBootstrap; formDataKey: string | null; force: boolean; standalone: boolean; dashboardId: number | null }) {
  const navigate = useNavigate();
  const router = useRouter();
  const queryClient = useQueryClient();
  const [slice, setSlice] = useState(boot.slice);
  const [sliceName, setSliceName] = useState(boot.slice?.slice_name ?? `${boot.dataset?.table_name ?? 'Untitled'} - ${new Date().toLocaleDateString()}`);
  const emailReport = useHeaderReport(slice ? { chartId: slice.slice_id, title: slice.slice_name } : null);
  const [modal, setModal] = useState<null | 'viz' | 'save' | 'query' | 'edit-dataset' | 'swap' | 'embed' | 'properties'>(null);
  const [queryText, setQueryText] = useState<string | null>(null);
  const [dataPane, setDataPane] = useState<'results' | 'samples' | null>(null);
  const [drill, setDrill] = useState<null | { kind: 'menu'; click: DataPointClick } | { kind: 'detail'; filters: Array<{ col: string; op: string; val: unknown }> } | { kind: 'by'; steps: ReturnType<typeof drillBySteps> }>(null);
  const x = useExplore(boot, {
    formDataKey,
    force,
    ...useChartRequestLimits(),
    // The address is read when the key arrives, not subscribed to: the editor does not re-render for its own update.
    onFormDataKey: (key) => void navigate({ to: '/explore/', search: { ...(router.state.location.search as Record<string, unknown>), form_data_key: key } as never, replace: true }),
  });
  // Opened from a dashboard: drawn in its colours, as there.
  const { formData: drawnFormData, dashboardColorScheme } = useFormDataInDashboardContext(x.chartFormData, dashboardId);
  // The controls know the dashboard's scheme: the chart's own is then locked to it, as in Superset.
  const panelCtx = useMemo(() => (dashboardColorScheme ? { ...x.ctx, dashboardColorScheme } : x.ctx), [x.ctx, dashboardColorScheme]);
  const annotationStatus = useMemo(() => ({ loading: x.chart.annotationQuery, errors: x.chart.annotationError }), [x.chart.annotationQuery, x.chart.annotationError]);
  const datasourceKey = String(x.formData.datasource ?? `${boot.dataset?.id ?? 0}__table`);
  // The dataset and control panels are drawn in a second, interruptible render: the chart's answer, asked for
  // before this editor's first render, is drawn as soon as it comes instead of after every control is laid out.
  const [panelsShown, setPanelsShown] = useState(false);
  useEffect(() => startTransition(() => setPanelsShown(true)), []);
  // Stable, so that the panels (memoised) are not drawn again at each step of the chart's query and drawing.
  const openEditDataset = useCallback(() => setModal('edit-dataset'), []);
  const openSwap = useCallback(() => setModal('swap'), []);
  const openSamples = useCallback(() => setDataPane('samples'), []);
  const datasetId = boot.dataset?.id;
  const openInSqlLab = useCallback(() => datasetId !== undefined && void window.open(`/sqllab/?datasourceKey=${datasetId}__table`, '_blank', 'noopener'), [datasetId]);
  const plugin = x.plugin;
  const { warnings, dismissWarnings } = x;
  const panelHeader = useMemo(
    () => (
      <Stack gap={4} p="sm" pb={0}>
        <Text size="xs" fw={600}>
          Chart type
        </Text>
        <Button variant="default" justify="flex-start" h="auto" py={6} onClick={() => setModal('viz')} aria-label={`Chart type: ${plugin.name}. Change`}>
          <Group gap="sm" wrap="nowrap">
            <VizThumbnail plugin={plugin} size={40} />
            <Text size="sm">{plugin.name}</Text>
          </Group>
        </Button>
        {/* The datasource warnings of a swapped dataset (spec 01 §5), as Superset's alert above the controls. */}
        {warnings.map((warning) => (
          <Alert key={warning} color="yellow" variant="light" p="xs" mt={4} withCloseButton closeButtonLabel="Dismiss warning" onClose={dismissWarnings} data-testid="datasource-warning">
            <Text size="xs">{warning}</Text>
          </Alert>
        ))}
      </Stack>
    ),
    [plugin, warnings, dismissWarnings],
  );
  const queryContext = () => x.plugin.buildQuery(x.formData, { ownState: x.ownState });
  const logRender = useRenderChartLog({ source: 'explore', source_id: slice?.slice_id }, x.chart.queriesResponse, { sliceId: slice?.slice_id, vizType: drawnFormData.viz_type, answeredAt: x.chart.chartUpdateEndTime });

  const chart = (
    <ChartArea
      state={x.chart}
      formData={drawnFormData}
      datasource={boot.dataset}
      ownState={x.ownState}
      onOwnStateChange={x.changeOwnState}
      needsQuery={x.plugin.needsQuery !== false}
      controlsMissing={x.hasErrors}
      onStop={x.stop}
      onRendered={() => {
        x.dispatch({ type: 'CHART_RENDERING_SUCCEEDED', now: Date.now() });
        logRender();
      }}
      onRenderError={(e) => {
        x.dispatch({ type: 'CHART_RENDERING_FAILED', error: e.message, now: Date.now() });
        logRender(String(e));
      }}
      onDataPointClick={x.plugin.behaviors.includes('DRILL_TO_DETAIL') && !standalone ? (click) => setDrill({ kind: 'menu', click }) : undefined}
    />
  );
  if (standalone) return <div className={classes.standalone}>{chart}</div>;

  const viewQuery = async (thenSqlLab: boolean) => {
    try {
      const [result] = await fetchChartData(queryContext(), { resultType: 'query' });
      const sql = String(result?.query ?? '');
      if (!thenSqlLab) {
        setQueryText(sql);
        setModal('query');
        return;
      }
      const db = boot.dataset!.database.id;
      const qs = new URLSearchParams({ dbid: String(db), sql, title: sliceName, ...(boot.dataset?.schema ? { schema: boot.dataset.schema } : {}) });
      window.open(`/sqllab/?${qs}`, '_blank', 'noopener');
    } catch {
      addDangerToast(LOAD_SQL_FAILED);
    }
  };
  const copy = copyWithToast;
  const png = () => {
    const chartElement = document.querySelector<HTMLElement>('[data-testid="explore-chart"]');
    if (chartElement) void downloadAsImage(chartElement, sliceName, { title: sliceName }).catch(() => addDangerToast(SORRY_AN_ERROR_OCCURRED));
  };
  // Each control with errors by its label, as Superset lists them: Control labeled "X-axis" cannot be empty.
  const labels = useMemo(() => new Map(controlsOf(x.plugin).map((c) => [c.name, c.label || c.name])), [x.plugin]);
  const errorList = Object.entries(x.errors).map(([name, errs]) => ({ label: labels.get(name) ?? name, text: errs.join('. ') }));
  const rowCount = x.chart.chartStatus === 'rendered' && x.chart.queriesResponse ? chartRowCount(x.chartFormData, x.chart.queriesResponse as any[]) : null;
  const elapsed = x.chart.chartUpdateEndTime && x.chart.chartUpdateStartTime ? `${((x.chart.chartUpdateEndTime - x.chart.chartUpdateStartTime) / 1000).toFixed(2)} s` : null;

  return (
    <div className={classes.explore}>
      <header className={classes.header} data-testid="explore-header">
        <Group gap="xs" wrap="nowrap" style={{ minWidth: 0, flex: 1 }}>
          <TextInput
            variant="unstyled"
            aria-label="Chart name"
            value={sliceName}
            onChange={(e) => setSliceName(e.currentTarget.value)}
            classNames={{ input: classes.titleInput }}
            rightSection={<IconPencil size={14} color="var(--mantine-color-dimmed)" />}
            style={{ flex: 1, maxWidth: 520 }}
          />
          {slice && <FavoriteStar id={slice.slice_id} name={sliceName} />}
          {slice && <OnDashboards sliceId={slice.slice_id} />}
          {slice?.certified_by && (
            <Badge color="teal" variant="light">
              Certified
            </Badge>
          )}
          {!slice && (
            <Badge variant="light" color="gray">
              Unsaved
            </Badge>
          )}
        </Group>
        <Group gap="xs" wrap="nowrap">
          <Button size="xs" onClick={() => setModal('save')} disabled={!boot.dataset || !(boot.can_add || boot.can_overwrite)}>
            Save
          </Button>
          <Menu position="bottom-end" withinPortal>
            <Menu.Target>
              <ActionIcon variant="default" size="lg" aria-label="More chart actions">
                <IconDots size={16} />
              </ActionIcon>
            </Menu.Target>
            <Menu.Dropdown>
              {slice && boot.can_overwrite && (
                <>
                  <Menu.Item leftSection={<IconPencil size={14} />} onClick={() => setModal('properties')}>
                    Edit chart properties
                  </Menu.Item>
                  <Menu.Divider />
                </>
              )}
              <Menu.Label>Share</Menu.Label>
              <Menu.Item leftSection={<IconShare size={14} />} onClick={async () => copy(await createPermalink(x.formData))}>
                Copy permalink to clipboard
              </Menu.Item>
              <Menu.Item leftSection={<IconCode size={14} />} onClick={() => setModal('embed')}>
                Embed code
              </Menu.Item>
              <Menu.Item
                leftSection={<IconMail size={14} />}
                onClick={async () => {
                  // The user's own mail program, with the chart's permalink (as Superset's 'Share chart by email').
                  const url = await createPermalink(x.formData);
                  window.location.href = `mailto:?subject=${encodeURIComponent(`Chart: ${sliceName}`)}&body=${encodeURIComponent(`Check out this chart: ${url}`)}`;
                }}
              >
                Share chart by email
              </Menu.Item>
              <Menu.Label>Download</Menu.Label>
              <Menu.Item leftSection={<IconDownload size={14} />} disabled={!boot.can_download} onClick={() => void downloadChartData(exportQuery(x.plugin, x.formData, 'csv'), 'csv', sliceName).catch(() => addDangerToast(SORRY_AN_ERROR_OCCURRED))}>
                Export to .CSV
              </Menu.Item>
              <Menu.Item leftSection={<IconDownload size={14} />} disabled={!boot.can_download} onClick={() => void downloadChartData(exportQuery(x.plugin, x.formData, 'json'), 'json', sliceName).catch(() => addDangerToast(SORRY_AN_ERROR_OCCURRED))}>
                Export to .JSON
              </Menu.Item>
              <Menu.Item leftSection={<IconDownload size={14} />} disabled={!boot.can_download} onClick={() => void downloadChartData(exportQuery(x.plugin, x.formData, 'xlsx'), 'xlsx', sliceName).catch(() => addDangerToast(SORRY_AN_ERROR_OCCURRED))}>
                Export to Excel
              </Menu.Item>
              <Menu.Item leftSection={<IconDownload size={14} />} onClick={png}>
                Download as image
              </Menu.Item>
              {emailReport.items && (
                <>
                  <Menu.Divider />
                  {emailReport.items}
                </>
              )}
              <Menu.Divider />
              <Menu.Item onClick={() => void viewQuery(false)}>View query</Menu.Item>
              <Menu.Item onClick={() => void viewQuery(true)} disabled={!boot.dataset}>
                Run in SQL Lab
              </Menu.Item>
            </Menu.Dropdown>
          </Menu>
        </Group>
      </header>
      {boot.message && (
        <Alert color="yellow" variant="light" m="xs" py={6}>
          {boot.message}
        </Alert>
      )}
      <div className={classes.body}>
        {panelsShown ? (
          <>
            <DatasourcePanel dataset={boot.dataset} onEdit={openEditDataset} onSwap={openSwap} onSamples={openSamples} onOpenInSqlLab={openInSqlLab} />
            <AnnotationStatusContext.Provider value={annotationStatus}>
              <ControlPanel plugin={x.plugin} ctx={panelCtx} errors={x.errors} onChange={x.setControl} datasourceKey={datasourceKey} header={panelHeader} />
            </AnnotationStatusContext.Provider>
          </>
        ) : (
          <>
            <div className={classes.datasourcePanel} />
            <div className={classes.controlPanel} />
          </>
        )}
        <div className={classes.chartColumn}>
          <Group justify="space-between" className={classes.chartToolbar} wrap="nowrap">
            <Text size="xs" c="dimmed" data-testid="chart-status">
              {/* No figures of an earlier answer over a chart that asks for its controls. */}
              {!x.hasErrors && [rowCount === null ? null : rowCountText(rowCount), elapsed].filter(Boolean).join(' · ')}
            </Text>
            <Tooltip label={errorList.map((e) => `${e.label}: ${e.text}`).join('\n')} disabled={!x.hasErrors} multiline maw={360} withinPortal>
              <Button size="xs" onClick={() => void x.run()} disabled={x.hasErrors || x.chart.chartStatus === 'loading'} variant={x.stale ? 'filled' : 'default'} data-stale={x.stale || undefined}>
                {isNewChart(x.chart, !!slice) ? 'Create chart' : 'Update chart'}
              </Button>
            </Tooltip>
          </Group>
          {x.hasErrors && (
            <Alert color="red" variant="light" mx="sm" py={6} role="alert" data-testid="control-errors">
              {errorList.map((e) => (
                <Text key={e.label} size="xs">
                  Control labeled <strong>"{e.label}"</strong> {e.text}
                </Text>
              ))}
            </Alert>
          )}
          {chart}
          <DataPanes pane={dataPane} onPane={setDataPane} formData={x.formData} queryContext={queryContext} datasourceKey={datasourceKey} />
        </div>
      </div>
      <Suspense fallback={null}>
        {drill?.kind === 'menu' && (
          <DrillMenu
            click={drill.click}
            formData={x.chartFormData}
            datasource={boot.dataset}
            onClose={() => setDrill((d) => (d?.kind === 'menu' ? null : d))}
            onDetail={(filters) => setDrill({ kind: 'detail', filters })}
            // The menu's module is loaded (it is showing), so this import answers at once.
            onDrillBy={(filters, column) => void import('./DrillModals').then((m) => setDrill({ kind: 'by', steps: m.drillBySteps(x.chartFormData, filters, column, sliceName) }))}
          />
        )}
        {drill?.kind === 'detail' && <DrillDetailModal formData={x.chartFormData} filters={drill.filters} onClose={() => setDrill(null)} />}
        {drill?.kind === 'by' && <DrillByModal start={drill.steps} datasource={boot.dataset} onClose={() => setDrill(null)} />}
        {modal === 'viz' && <VizTypeGallery opened current={x.formData.viz_type} onClose={() => setModal(null)} onSelect={(key) => { setModal(null); void x.changeVizType(key); }} />}
        {modal === 'save' && (
          <SaveModal
            opened
            onClose={() => setModal(null)}
            sliceId={slice?.slice_id ?? null}
            sliceName={sliceName}
            canOverwrite={boot.can_overwrite}
            canAdd={boot.can_add}
            formData={x.formData}
            queryContext={queryContext}
            onSaved={(id, name, dashboardId) => {
              setModal(null);
              setSliceName(name);
              void queryClient.invalidateQueries({ queryKey: ['chart-favorite', id] });
              if (dashboardId) return void navigate({ to: '/superset/dashboard/$idOrSlug/', params: { idOrSlug: String(dashboardId) } });
              if (slice?.slice_id === id) setSlice({ ...slice, slice_name: name });
              else void navigate({ to: '/explore/', search: { slice_id: id } as never });
            }}
          />
        )}
        {modal === 'query' && <ViewQueryModal sql={queryText} engine={boot.dataset?.database.backend} onClose={() => setModal(null)} />}
        {emailReport.modals}
        <Modal opened={modal === 'embed'} onClose={() => setModal(null)} title="Embed code" size="lg">
          <EmbedCode formData={x.formData} />
        </Modal>
        {modal === 'properties' && slice && (
          <PropertiesModal
            sliceId={slice.slice_id}
            onClose={() => setModal(null)}
            onSaved={(name) => {
              setSliceName(name);
              void queryClient.invalidateQueries({ queryKey: ['chart', slice.slice_id] });
              setModal(null);
            }}
          />
        )}
        {modal === 'edit-dataset' && boot.dataset && <DatasetEditorModal datasetId={boot.dataset.id} onClose={() => setModal(null)} onSaved={() => window.location.reload()} />}
        {modal === 'swap' && (
          <SwapDatasetModal
            onClose={() => setModal(null)}
            onSelect={(id) => {
              setModal(null);
              // The form data keeps the dataset it was made on: the opening moves it to the new one, with the datasource warnings.
              void navigate({ to: '/explore/', search: { datasource_id: id, datasource_type: 'table', viz_type: x.formData.viz_type, form_data: JSON.stringify({ ...x.formData, slice_id: undefined }) } as never });
            }}
          />
        )}
      </Suspense>
    </div>
  );
});

/** "Added to N dashboards", with the dashboards in its menu (Superset's explore header). */
function OnDashboards({ sliceId }: { sliceId: number }) {
  const chart = useQuery({ queryKey: ['chart', sliceId], queryFn: () => api<{ result: { dashboards: Array<{ id: number; dashboard_title: string | null }> } }>(`/api/v1/chart/${sliceId}`) });
  const dashboards = chart.data?.result.dashboards ?? [];
  if (!dashboards.length) return null;
  return (
    <Menu position="bottom-start" withinPortal>
      <Menu.Target>
        <Button variant="subtle" size="compact-xs" color="gray" data-testid="explore-on-dashboards">
          Added to {dashboards.length} dashboard{dashboards.length === 1 ? '' : 's'}
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>On dashboards</Menu.Label>
        {dashboards.map((d) => (
          <Menu.Item key={d.id} component="a" href={`/superset/dashboard/${d.id}/`}>
            {d.dashboard_title || UNTITLED_DASHBOARD}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}

/** An iframe of the chart alone (standalone=1) through a permalink, as Superset's embed code. */
function EmbedCode({ formData }: { formData: FormData }) {
  const link = useQuery({ queryKey: ['embed-permalink', JSON.stringify(formData)], queryFn: () => createPermalink(formData) });
  const code = useMemo(() => (link.data ? `<iframe\n  width="600"\n  height="400"\n  seamless\n  frameBorder="0"\n  scrolling="no"\n  src="${link.data}?standalone=1&height=400"\n>\n</iframe>` : ''), [link.data]);
  if (!link.data) return <Loader size="sm" />;
  return (
    <Stack>
      <Code block>{code}</Code>
      <Group justify="flex-end">
        <CopyButton value={code}>{({ copied, copy }) => <Button size="xs" variant="default" onClick={copy}>{copied ? 'Copied!' : 'Copy'}</Button>}</CopyButton>
      </Group>
    </Stack>
  );
}
