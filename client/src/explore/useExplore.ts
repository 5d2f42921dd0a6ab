/**
 * Explore's state: form data with the stash of hidden controls' values, the chart state machine, the
 * query that really aborts, and the form data kept on the server under `form_data_key`.
 */
import { chartReducer, initialChartState } from '@meridian/contracts/explore/chart-state';
import { dropMissingDatasourceValues, switchVizType } from '@meridian/contracts/explore/form-data';
import { useCallback, useEffect, useMemo, useReducer, useRef, useState } from 'react';
import { ApiError } from '../api';
import { getChartPlugin } from '../viz/registry';
import type { ChartPlugin, FormData } from '../viz/types';
import { controlsOf, normaliseFormData, validateFormData, visibleControlNames } from './controls/panel';
import { createFormDataKey, fetchChartData, updateFormDataKey, type ExploreBootstrap } from './explore.api';

const SAVE_FORM_DATA_DEBOUNCE_MS = 1000;

export function useExplore(boot: ExploreBootstrap, opts: { formDataKey: string | null; force: boolean; onFormDataKey: (key: string) => void }) {
  const datasource = boot.dataset;
  const [formData, setFormData] = useState<FormData>(() => {
    const plugin = getChartPlugin(boot.form_data.viz_type) ?? getChartPlugin('table')!;
    const base = normaliseFormData(plugin, { ...boot.form_data, viz_type: plugin.key }, { datasource });
    return datasource ? dropMissingDatasourceValues(base, controlsOf(plugin), datasource).formData : base;
  });
  const [stash, setStash] = useState<Record<string, unknown>>({});
  const [chart, dispatch] = useReducer(chartReducer, initialChartState);
  const [queriedFormData, setQueriedFormData] = useState<FormData | null>(null);
  const controller = useRef<AbortController | null>(null);
  const plugin: ChartPlugin = getChartPlugin(formData.viz_type) ?? getChartPlugin('table')!;
  const ctx = useMemo(() => ({ formData, datasource }), [formData, datasource]);
  const errors = useMemo(() => validateFormData(plugin, ctx), [plugin, ctx]);
  const hasErrors = Object.keys(errors).length > 0;
  const formDataKey = useRef(opts.formDataKey);

  const run = useCallback(
    async (fd: FormData, force = false) => {
      const p = getChartPlugin(fd.viz_type);
      if (!p) return;
      controller.current?.abort();
      setQueriedFormData(fd);
      if (p.needsQuery === false) {
        dispatch({ type: 'CHART_UPDATE_STARTED', now: Date.now() });
        dispatch({ type: 'CHART_UPDATE_SUCCEEDED', queriesResponse: [], now: Date.now() });
        return;
      }
      const abort = new AbortController();
      controller.current = abort;
      dispatch({ type: 'CHART_UPDATE_STARTED', now: Date.now() });
      try {
        const result = await fetchChartData(p.buildQuery(fd), { sliceId: fd.slice_id ?? null, signal: abort.signal, force });
        if (controller.current !== abort) return;
        dispatch({ type: 'CHART_UPDATE_SUCCEEDED', queriesResponse: result, now: Date.now() });
      } catch (error) {
        if (controller.current !== abort) return;
        if (abort.signal.aborted) dispatch({ type: 'CHART_UPDATE_STOPPED', now: Date.now() });
        else dispatch({ type: 'CHART_UPDATE_FAILED', errors: error instanceof ApiError ? [{ message: error.message }] : null, now: Date.now() });
      }
    },
    [],
  );

  const stop = useCallback(() => controller.current?.abort(), []);

  // The first draw: a saved chart or a complete form runs at once.
  useEffect(() => {
    if (!hasErrors && datasource) void run(formData, opts.force);
    return () => controller.current?.abort();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // Unsaved edits live on the server under form_data_key, so a reload restores them.
  useEffect(() => {
    if (!datasource) return;
    const timer = setTimeout(
      () => {
        const key = formDataKey.current;
        const sliceId = formData.slice_id ?? null;
        if (key) void updateFormDataKey(key, formData, sliceId).catch(() => undefined);
        else
          void createFormDataKey(formData, sliceId)
            .then((k) => {
              formDataKey.current = k;
              opts.onFormDataKey(k);
            })
            .catch(() => undefined);
      },
      formDataKey.current ? SAVE_FORM_DATA_DEBOUNCE_MS : 0,
    );
    return () => clearTimeout(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [formData]);

  const setControl = useCallback((name: string, value: unknown) => setFormData((fd) => ({ ...fd, [name]: value })), []);

  /** A change of chart type: hidden values stashed, stashed ones restored, the new type's defaults filled. */
  const changeVizType = useCallback(
    (vizType: string) => {
      const next = getChartPlugin(vizType);
      if (!next) return;
      const names = new Set(controlsOf(next).map((c) => c.name));
      const switched = switchVizType(formData, stash, vizType, names, next.defaultFormData ?? {});
      const normalised = normaliseFormData(next, switched.formData, { datasource });
      setStash(switched.stash);
      setFormData(normalised);
      if (!Object.keys(validateFormData(next, { formData: normalised, datasource })).length) void run(normalised);
      else {
        controller.current?.abort();
        dispatch({ type: 'CHART_UPDATE_STOPPED', now: Date.now() });
      }
    },
    [formData, stash, datasource, run],
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
    stop,
    stale,
    chartFormData,
    visible: visibleControlNames(plugin, ctx),
  };
}
