/**
 * Explore's state: form data with the stash of hidden controls' values, the chart state machine, the
 * query that really aborts, and the form data kept on the server under `form_data_key`.
 */
import { annotationLayerRequest, annotationQueryKey, requiresQuery, withoutQueriedLayers, type AnnotationLayer } from '@meridian/contracts/explore/annotations';
import { chartReducer, initialChartState } from '@meridian/contracts/explore/chart-state';
import { dropMissingDatasourceValues, renameMetricConfig, switchVizType } from '@meridian/contracts/explore/form-data';
import { useCallback, useEffect, useMemo, useReducer, useRef, useState } from 'react';
import { ApiError } from '../api';
import { loggedChartLoad } from '../event-log/chart-events';
import { getChartPlugin, loadChartPlugin } from '../viz/registry';
import { asList, metricLabel, type MetricEntry } from '../viz/shared/metrics';
import { preloadChart } from '../viz/shared/SuperChart';
import type { ChartPlugin, FormData, OwnState } from '../viz/types';
import { controlsOf, normaliseFormData, validateFormData, visibleControlNames } from './controls/panel';
import { chartErrorsOf, createFormDataKey, fetchChartData, storeQueryContext, updateFormDataKey, type ExploreBootstrap } from './explore.api';

const SAVE_FORM_DATA_DEBOUNCE_MS = 1000;

const layersOf = (fd: FormData): AnnotationLayer[] => (Array.isArray(fd.annotation_layers) ? fd.annotation_layers : []);

/**
 * The form data Explore opens with: the type's defaults filled, saved values missing from the dataset dropped (its code
 * is loaded). Form data made on another dataset (a swap keeps the old `datasource` key until here) moves to this one,
 * with the datasource warnings of spec 01 §5: SQL expressions are kept as written, and the user is told so.
 */
export function openingFormData(boot: ExploreBootstrap): { formData: FormData; warnings: string[] } {
  const datasource = boot.dataset;
  const plugin = getChartPlugin(boot.form_data.viz_type) ?? getChartPlugin('table')!;
  const base = normaliseFormData(plugin, { ...boot.form_data, viz_type: plugin.key }, { datasource });
  if (!datasource) return { formData: base, warnings: [] };
  const key = `${datasource.id}__table`;
  const swapped = typeof base.datasource === 'string' && base.datasource !== key;
  const { formData, warnings } = dropMissingDatasourceValues({ ...base, datasource: key }, controlsOf(plugin), datasource);
  return { formData, warnings: swapped ? warnings : [] };
}

/** The metric controls whose labels key `column_config` (a percent metric's column is '%label'). */
const METRIC_CONFIG_KEYS: Record<string, (label: string) => string> = { metrics: (l) => l, percent_metrics: (l) => `%${l}` };

/**
 * The form data with one control's new value. A metric edited in place whose label changed (renamed, as Superset's
 * explore reducer reads it: a new label, at the place of an old one that has column settings) keeps its
 * `column_config` entry under the new label, so its table formatting and width stay.
 */
export function withControlValue(fd: FormData, name: string, value: unknown): FormData {
  let next: FormData = { ...fd, [name]: value };
  const keyOf = METRIC_CONFIG_KEYS[name];
  if (!keyOf || !fd.column_config) return next;
  const before = asList<MetricEntry>(fd[name]).map(metricLabel);
  const after = asList<MetricEntry>(value as MetricEntry[]).map(metricLabel);
  after.forEach((label, i) => {
    const old = before[i];
    if (old === undefined || old === label || before.includes(label) || after.includes(old)) return;
    next = renameMetricConfig(next, keyOf(old), keyOf(label)) as FormData;
  });
  return next;
}

/** The chart data request of a run: the type's query, without the annotation layers that run beside it. */
const chartRequest = (plugin: ChartPlugin, fd: FormData, ownState: OwnState = {}) => withoutQueriedLayers(plugin.buildQuery(fd, { ownState }));

/**
 * The opening chart data call, started before the editor's first render (which takes a few hundred ms of
 * Mantine controls): the first run takes it over when it asks for the same request.
 */
let opening: { key: string; answer: Promise<any[]>; abort: AbortController } | null = null;
const openingKey = (request: unknown, force: boolean) => JSON.stringify([request, force]);

/** What the server configures for a chart request: its timeout (the web server's, spec 01 §9) and SQL_MAX_ROW (the row limit's bound, §5). */
export interface ChartRequestLimits {
  timeoutMs: number;
  sqlMaxRow: number | null;
}

export function prefetchOpeningChart(boot: ExploreBootstrap, force: boolean, limits: ChartRequestLimits): void {
  const fd = openingFormData(boot).formData;
  const plugin = getChartPlugin(fd.viz_type);
  if (!plugin || plugin.needsQuery === false || !boot.dataset) return;
  if (Object.keys(validateFormData(plugin, { formData: fd, datasource: boot.dataset }, limits.sqlMaxRow)).length) return;
  opening?.abort.abort();
  const request = chartRequest(plugin, fd);
  const abort = new AbortController();
  const answer = fetchChartData(request, { sliceId: fd.slice_id ?? null, signal: abort.signal, force, timeoutMs: limits.timeoutMs });
  answer.catch(() => undefined);
  opening = { key: openingKey(request, force), answer, abort };
}

/**
 * A saved chart opened without a stored query context gets one, built from its saved form data as the opening run
 * builds it (Superset's Explore does the same); not from unsaved edits, which are not the chart.
 */
export function storeMissingQueryContext(boot: ExploreBootstrap, canWrite: boolean): void {
  const slice = boot.slice;
  if (!slice || slice.query_context || !canWrite) return;
  const fd = openingFormData({ ...boot, form_data: { ...slice.form_data, viz_type: slice.form_data.viz_type ?? boot.form_data.viz_type } }).formData;
  const plugin = getChartPlugin(fd.viz_type);
  if (!plugin || plugin.needsQuery === false || !boot.dataset) return;
  void storeQueryContext(slice.slice_id, plugin.buildQuery(fd)).catch(() => undefined);
}

/** The prefetched answer of this request, once (a stop aborts it); null when none was started for it. */
function takeOpening(request: unknown, force: boolean, signal: AbortSignal): Promise<any[]> | null {
  const taken = opening;
  opening = null;
  if (!taken || taken.key !== openingKey(request, force)) {
    taken?.abort.abort();
    return null;
  }
  signal.addEventListener('abort', () => taken.abort.abort(), { once: true });
  return taken.answer;
}

export function useExplore(boot: ExploreBootstrap, opts: { formDataKey: string | null; force: boolean; onFormDataKey: (key: string) => void } & ChartRequestLimits) {
  const datasource = boot.dataset;
  const [opened] = useState(() => openingFormData(boot));
  const [formData, setFormData] = useState<FormData>(opened.formData);
  /** The datasource warnings of the opening (a swapped dataset's kept SQL expressions), until dismissed. */
  const [warnings, setWarnings] = useState<string[]>(opened.warnings);
  const dismissWarnings = useCallback(() => setWarnings([]), []);
  const [stash, setStash] = useState<Record<string, unknown>>({});
  const [chart, dispatch] = useReducer(chartReducer, initialChartState);
  const [queriedFormData, setQueriedFormData] = useState<FormData | null>(null);
  // The chart's own state (a server-paginated table's page, page size and order): set by the chart, it queries the
  // drawn form data again; a run of the form starts from none (the first page, the form's page size and order).
  const [ownState, setOwnState] = useState<OwnState>({});
  const controller = useRef<AbortController | null>(null);
  const plugin: ChartPlugin = getChartPlugin(formData.viz_type) ?? getChartPlugin('table')!;
  const ctx = useMemo(() => ({ formData, datasource }), [formData, datasource]);
  const errors = useMemo(() => validateFormData(plugin, ctx, opts.sqlMaxRow), [plugin, ctx, opts.sqlMaxRow]);
  const hasErrors = Object.keys(errors).length > 0;
  const formDataKey = useRef(opts.formDataKey);
  /** Each annotation layer's running query and the key of what it asks (spec 01 §4: one per layer name). */
  const annotationRuns = useRef(new Map<string, { abort: AbortController; key: string }>());

  /**
   * One layer's annotation query through the chart data path (the chart's query with only that layer):
   * starting aborts the previous one of the same name; an answer stores the layer's data, a failure its
   * error, and running past the chart timeout gives 'Query timeout'.
   */
  const runAnnotation = useCallback(
    async (fd: FormData, layer: AnnotationLayer, force: boolean) => {
      const p = getChartPlugin(fd.viz_type);
      if (!p) return;
      annotationRuns.current.get(layer.name)?.abort.abort();
      const abort = new AbortController();
      const run = { abort, key: annotationQueryKey(layer) };
      annotationRuns.current.set(layer.name, run);
      const timer = setTimeout(() => abort.abort(new DOMException('Query timeout', 'TimeoutError')), opts.timeoutMs);
      dispatch({ type: 'ANNOTATION_QUERY_STARTED', name: layer.name });
      try {
        const [first] = (await fetchChartData(annotationLayerRequest(p.buildQuery({ ...fd, annotation_layers: [layer] }), layer), { sliceId: fd.slice_id ?? null, signal: abort.signal, force })) as Array<{ annotation_data?: Record<string, unknown> }>;
        if (annotationRuns.current.get(layer.name) !== run) return;
        dispatch({ type: 'ANNOTATION_QUERY_SUCCESS', name: layer.name, data: first?.annotation_data?.[layer.name] ?? { records: [] } });
      } catch (error) {
        if (annotationRuns.current.get(layer.name) !== run) return;
        const timedOut = abort.signal.reason instanceof DOMException && abort.signal.reason.name === 'TimeoutError';
        if (abort.signal.aborted && !timedOut) {
          // Stopped with the chart: no answer and no error; the next run asks again.
          annotationRuns.current.delete(layer.name);
          dispatch({ type: 'ANNOTATION_QUERY_CLEARED', name: layer.name });
          return;
        }
        dispatch({ type: 'ANNOTATION_QUERY_FAILED', name: layer.name, timeout: timedOut, error: error instanceof ApiError ? error.message : null });
      } finally {
        clearTimeout(timer);
      }
    },
    [opts.timeoutMs],
  );

  const run = useCallback(
    async (fd: FormData, force = false, own: OwnState = {}) => {
      const p = getChartPlugin(fd.viz_type);
      if (!p) return;
      controller.current?.abort();
      setQueriedFormData(fd);
      setOwnState(own);
      if (p.needsQuery === false) {
        dispatch({ type: 'CHART_UPDATE_STARTED', now: Date.now() });
        dispatch({ type: 'CHART_UPDATE_SUCCEEDED', queriesResponse: [], now: Date.now() });
        return;
      }
      const abort = new AbortController();
      controller.current = abort;
      // The type's component loads while its data is queried; the answer waits for it, so it is drawn at once
      // (not through Suspense, which React may hold back).
      const component = preloadChart(fd.viz_type);
      dispatch({ type: 'CHART_UPDATE_STARTED', now: Date.now() });
      // The layers run beside the chart, each on its own, so a failing layer never fails the chart.
      for (const layer of layersOf(fd)) if (requiresQuery(layer)) void runAnnotation(fd, layer, force);
      try {
        const request = chartRequest(p, fd, own);
        // load_chart, a failure with has_err and its error type (spec 01 §4), as Superset's chart actions log it.
        const sliceId = typeof fd.slice_id === 'number' ? fd.slice_id : undefined;
        const result = await loggedChartLoad({ source: 'explore', source_id: sliceId }, { sliceId, formData: fd, force }, () => takeOpening(request, force, abort.signal) ?? fetchChartData(request, { sliceId: fd.slice_id ?? null, signal: abort.signal, force, timeoutMs: opts.timeoutMs }));
        await component;
        if (controller.current !== abort) return;
        dispatch({ type: 'CHART_UPDATE_SUCCEEDED', queriesResponse: result, now: Date.now() });
      } catch (error) {
        if (controller.current !== abort) return;
        if (abort.signal.aborted) dispatch({ type: 'CHART_UPDATE_STOPPED', now: Date.now() });
        else dispatch({ type: 'CHART_UPDATE_FAILED', errors: chartErrorsOf(error), now: Date.now() });
      }
    },
    [runAnnotation, opts.timeoutMs],
  );

  const stop = useCallback(() => {
    controller.current?.abort();
    for (const run of annotationRuns.current.values()) run.abort.abort();
  }, []);

  // A layer added or changed in the control is queried at once against the chart's last query; a removed
  // or hidden one drops its state. Style changes only redraw.
  useEffect(() => {
    if (!queriedFormData) return;
    const layers = layersOf(formData);
    for (const layer of layers) {
      if (requiresQuery(layer) && annotationRuns.current.get(layer.name)?.key !== annotationQueryKey(layer)) void runAnnotation({ ...queriedFormData, annotation_layers: layers }, layer, false);
    }
    for (const [name, run] of annotationRuns.current) {
      const layer = layers.find((l) => l.name === name);
      if (layer && requiresQuery(layer)) continue;
      run.abort.abort();
      annotationRuns.current.delete(name);
      dispatch({ type: 'ANNOTATION_QUERY_CLEARED', name });
    }
  }, [formData.annotation_layers, queriedFormData, runAnnotation]);

  // The first draw: a saved chart or a complete form runs at once.
  useEffect(() => {
    if (!hasErrors && datasource) void run(formData, opts.force);
    const runs = annotationRuns.current;
    return () => {
      controller.current?.abort();
      for (const run of runs.values()) run.abort.abort();
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // Unsaved edits live on the server under form_data_key, so a reload restores them.
  const pendingSave = useRef<(() => void) | null>(null);
  useEffect(() => {
    if (!datasource) return;
    const save = (keepalive = false) => {
      pendingSave.current = null;
      const key = formDataKey.current;
      const sliceId = formData.slice_id ?? null;
      if (key) void updateFormDataKey(key, formData, sliceId, { keepalive }).catch(() => undefined);
      else
        void createFormDataKey(formData, sliceId)
          .then((k) => {
            formDataKey.current = k;
            opts.onFormDataKey(k);
          })
          .catch(() => undefined);
    };
    pendingSave.current = formDataKey.current ? () => save(true) : null;
    const timer = setTimeout(() => save(), formDataKey.current ? SAVE_FORM_DATA_DEBOUNCE_MS : 0);
    return () => clearTimeout(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [formData]);
  // An edit still waiting out the debounce is sent when the page is left (a reload within it brought back the
  // edit before) or Explore closes; keepalive lets the request outlive the page.
  useEffect(() => {
    const flush = () => pendingSave.current?.();
    window.addEventListener('pagehide', flush);
    return () => {
      window.removeEventListener('pagehide', flush);
      flush();
    };
  }, []);

  const setControl = useCallback((name: string, value: unknown) => setFormData((fd) => withControlValue(fd, name, value)), []);

  /** A change of chart type: hidden values stashed, stashed ones restored, the new type's defaults filled (ExploreView loaded the current type's code). */
  const changeVizType = useCallback(
    async (vizType: string) => {
      // The new type's code loads first (at once when it already has).
      const next = await loadChartPlugin(vizType).catch(() => undefined);
      if (!next) return;
      const names = new Set(controlsOf(next).map((c) => c.name));
      const own = { from: new Set(plugin.ownControls), to: new Set(next.ownControls) };
      const switched = switchVizType(formData, stash, vizType, names, next.defaultFormData ?? {}, own);
      const normalised = normaliseFormData(next, switched.formData, { datasource });
      setStash(switched.stash);
      setFormData(normalised);
      if (!Object.keys(validateFormData(next, { formData: normalised, datasource }, opts.sqlMaxRow)).length) void run(normalised);
      else {
        // Nothing to run until the new type's required controls are filled (the chart area asks for them); a run
        // under way is dropped quietly: nobody stopped it ('Updating chart was stopped' is for the Stop button).
        const running = controller.current;
        controller.current = null;
        running?.abort();
      }
    },
    [formData, stash, plugin, datasource, run, opts.sqlMaxRow],
  );

  // Controls that only change the drawing re-render from the last answer; the others wait for "Update chart".
  const renderNames = useMemo(() => new Set(controlsOf(plugin).filter((c) => c.renderTrigger).map((c) => c.name)), [plugin]);
  const stale = useMemo(() => {
    if (!queriedFormData) return true;
    const keys = new Set([...Object.keys(formData), ...Object.keys(queriedFormData)]);
    for (const key of keys) if (!renderNames.has(key) && JSON.stringify(formData[key]) !== JSON.stringify(queriedFormData[key])) return true;
    return false;
  }, [formData, queriedFormData, renderNames]);
  const chartFormData = useMemo(() => {
    if (!queriedFormData) return formData;
    const drawn: FormData = { ...queriedFormData };
    for (const name of renderNames) drawn[name] = formData[name];
    return drawn;
  }, [formData, queriedFormData, renderNames]);

  return {
    plugin,
    formData,
    setFormData,
    setControl,
    changeVizType,
    ctx,
    errors,
    hasErrors,
    chart,
    dispatch,
    run: (force = false) => run(formData, force),
    ownState,
    /** The chart's own state changed (a page picked): the drawn chart is queried again with it. */
    changeOwnState: (own: OwnState) => queriedFormData && void run(queriedFormData, false, own),
    stop,
    stale,
    chartFormData,
    visible: visibleControlNames(plugin, ctx),
    warnings,
    dismissWarnings,
  };
}
