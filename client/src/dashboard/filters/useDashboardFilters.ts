import {
  chartsInScope,
  crossFiltersOn,
  crossFilterTargets,
  extraFormDataForChart,
  filtersAwaitingFirstValue,
  initialDataMask,
  isNativeFilter,
  nativeFiltersFromLegacy,
  requiredWithoutValue,
  type ChartCrossFilterConfiguration,
  type DataMask,
  type ExtraFormData,
  type FilterConfigItem,
  type FilterScope,
  type Layout,
  type NativeFilter,
} from '@meridian/contracts';
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState } from 'react';
import { api } from '../../api';
import type { DashboardChart } from '../dashboard.api';
import { useFirstValues } from './use-first-values';

export type MaskMap = Record<string, DataMask>;
const NO_FILTERS: NativeFilter[] = [];
const NO_MASKS: MaskMap = {};

/** The data mask a permalink opened the dashboard with (handed over by DashboardPermalinkScreen); read once. */
export const PERMALINK_MASK_KEY = (dashboardId: number) => `dashboard-data-mask-${dashboardId}`;

/** One id per browser tab, so a revisit from the same tab reuses its filter state key (Superset's tab_id). */
function browserTabId(): number {
  const stored = Number(sessionStorage.getItem('meridian-tab-id'));
  if (stored) return stored;
  const id = Math.floor(Math.random() * 1e9) + 1;
  sessionStorage.setItem('meridian-tab-id', String(id));
  return id;
}

/** The native filters of a dashboard's metadata: its configuration, or its legacy filter boxes read as native filters. */
export function filtersOfMetadata(metadata: Record<string, unknown>, charts: Map<number, DashboardChart>): FilterConfigItem[] {
  const config = metadata.native_filter_configuration;
  if (Array.isArray(config) && config.length) return config as FilterConfigItem[];
  if (metadata.default_filters || metadata.filter_scopes) return nativeFiltersFromLegacy(metadata, (id) => charts.get(id)?.datasource_id ?? null);
  return [];
}

const splitMask = (all: MaskMap, filters: FilterConfigItem[]) => {
  const native: MaskMap = {};
  const cross: MaskMap = {};
  const ids = new Set(filters.map((f) => f.id));
  for (const [id, mask] of Object.entries(all)) (ids.has(id) ? native : /^\d+$/.test(id) ? cross : native)[id] = mask;
  return { native, cross };
};

export interface DashboardFilters {
  /** The dashboard these filters are of. */
  dashboardId: number;
  filters: FilterConfigItem[];
  nativeFilters: NativeFilter[];
  /** What the bar shows (not yet applied). */
  pending: MaskMap;
  applied: MaskMap;
  crossFilters: MaskMap;
  /** Each chart's extra form data from the applied filters and cross-filters. */
  extraFormDataFor: (chartId: number) => ExtraFormData;
  scopeOf: (filter: NativeFilter) => number[];
  /** Filters (and cross-filters) applied to a chart, for its header's indicator. */
  appliedTo: (chartId: number) => Array<{ id: string; name: string; label: string }>;
  setPending: (id: string, mask: DataMask) => void;
  /** Sets a filter's value and applies it at once (a default first value, a removed indicator). */
  setApplied: (id: string, mask: DataMask) => void;
  apply: () => void;
  clearAll: () => void;
  canApply: boolean;
  /** Whether some filter has a value to clear (Superset disables 'Clear all' otherwise). */
  canClear: boolean;
  requiredMissing: string[];
  crossFiltersEnabled: boolean;
  crossFilter: (chartId: number, mask: DataMask) => void;
  focusedFilter: string | null;
  setFocusedFilter: (id: string | null) => void;
  /** Charts in the focused filter's scope (highlighted). */
  highlighted: Set<number> | null;
  /** The full data mask (native + cross), as kept in the filter state and permalinks. */
  dataMask: MaskMap;
  /** Charts in scope of a requiredFirst filter whose first value is not known yet: they wait to query. */
  waitingCharts: Set<number>;
}

/**
 * A dashboard's native filters and cross-filters (spec 02 §3 Data mask, §4): the values shown and applied,
 * each chart's extra form data, and the data mask kept under `native_filters_key` so a reload restores it.
 */
export function useDashboardFilters(opts: {
  dashboardId: number;
  metadata: Record<string, unknown>;
  layout: Layout;
  charts: Map<number, DashboardChart>;
  crossFiltersFlag: boolean;
  initialKey: string | null;
  /** False where the filter state may not be kept nor read (an embedded dashboard's guest): the values live in the page only. */
  keepState?: boolean;
}): DashboardFilters & { ready: boolean } {
  const { dashboardId, metadata, layout, charts } = opts;
  const filters = useMemo(() => filtersOfMetadata(metadata, charts), [metadata, charts]);
  const nativeFilters = useMemo(() => filters.filter(isNativeFilter), [filters]);
  const [applied, setAppliedMap] = useState<MaskMap>(() => initialDataMask(filters));
  const [pending, setPendingMap] = useState<MaskMap>(applied);
  const [keptCrossFilters, setCrossFilters] = useState<MaskMap>({});
  // spec 02 §5: cross-filters only with the flag on, and on a dashboard with cross_filters_enabled. Off, none applies
  // or shows, whether clicked before the switch went off or restored from a kept state or a permalink.
  const crossFiltersEnabled = crossFiltersOn(opts.crossFiltersFlag, metadata);
  const crossFilters = crossFiltersEnabled ? keptCrossFilters : NO_MASKS;
  useEffect(() => {
    // Switched off, those in effect are dropped for good (switched on again, they do not come back).
    if (!crossFiltersEnabled) setCrossFilters(NO_MASKS);
  }, [crossFiltersEnabled]);
  const [ready, setReady] = useState(false);
  const [focusedFilter, setFocusedFilter] = useState<string | null>(null);
  const keepState = opts.keepState ?? true;
  const key = useRef<string | null>(keepState ? opts.initialKey : null);

  // After the configuration changes: a new or changed filter starts on its default; a removed one is dropped.
  const previous = useRef(filters);
  useEffect(() => {
    if (previous.current === filters) return;
    const before = new Map(previous.current.map((f) => [f.id, JSON.stringify(f)]));
    previous.current = filters;
    const defaults = initialDataMask(filters);
    const sync = (masks: MaskMap): MaskMap => Object.fromEntries(Object.entries(defaults).map(([id, d]) => [id, before.get(id) === JSON.stringify(filters.find((f) => f.id === id)) && masks[id] ? masks[id]! : d]));
    setAppliedMap(sync);
    setPendingMap(sync);
  }, [filters]);

  // Restore: a permalink's mask, else the kept state of `native_filters_key`, else the defaults.
  useEffect(() => {
    let cancelled = false;
    const restore = (all: MaskMap) => {
      const { native, cross } = splitMask(all, filters);
      const merged = { ...initialDataMask(filters), ...native };
      setAppliedMap(merged);
      setPendingMap(merged);
      setCrossFilters(cross);
    };
    const fromPermalink = sessionStorage.getItem(PERMALINK_MASK_KEY(dashboardId));
    if (fromPermalink) {
      sessionStorage.removeItem(PERMALINK_MASK_KEY(dashboardId));
      try {
        restore(JSON.parse(fromPermalink) as MaskMap);
      } catch {
        // A broken handover opens on the defaults.
      }
      setReady(true);
      return;
    }
    const initialKey = key.current;
    if (!initialKey) {
      setReady(true);
      return;
    }
    api<{ value: string }>(`/api/v1/dashboard/${dashboardId}/filter_state/${encodeURIComponent(initialKey)}`)
      .then(({ value }) => !cancelled && restore(JSON.parse(value) as MaskMap))
      .catch(() => {
        key.current = null;
      })
      .finally(() => !cancelled && setReady(true));
    return () => {
      cancelled = true;
    };
    // Restored once per dashboard.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [dashboardId]);

  const dataMask = useMemo(() => ({ ...applied, ...crossFilters }), [applied, crossFilters]);

  // Keep the applied state for a reload: its key goes into the address as native_filters_key.
  const anyValue = Object.values(dataMask).some((m) => m.filterState?.value !== undefined && m.filterState?.value !== null);
  useEffect(() => {
    if (!ready || !keepState || (!anyValue && !key.current)) return;
    const value = JSON.stringify(dataMask);
    const tab = browserTabId();
    const save = key.current
      ? api<{ key: string }>(`/api/v1/dashboard/${dashboardId}/filter_state/${key.current}`, { method: 'PUT', body: { value }, query: { tab_id: tab } }).catch(() => api<{ key: string }>(`/api/v1/dashboard/${dashboardId}/filter_state`, { method: 'POST', body: { value }, query: { tab_id: tab } }))
      : api<{ key: string }>(`/api/v1/dashboard/${dashboardId}/filter_state`, { method: 'POST', body: { value }, query: { tab_id: tab } });
    save
      .then((answer) => {
        key.current = answer.key;
        const url = new URL(window.location.href);
        if (url.searchParams.get('native_filters_key') !== answer.key) {
          url.searchParams.set('native_filters_key', answer.key);
          window.history.replaceState(window.history.state, '', url.toString());
        }
      })
      .catch(() => undefined);
  }, [dataMask, ready, anyValue, dashboardId, keepState]);

  const scopes = useMemo(() => new Map(nativeFilters.map((f) => [f.id, chartsInScope(layout, f.scope)])), [nativeFilters, layout]);
  const scopeOf = useCallback((f: NativeFilter) => scopes.get(f.id) ?? chartsInScope(layout, f.scope), [scopes, layout]);
  const chartConfiguration = metadata.chart_configuration as Record<string, ChartCrossFilterConfiguration> | undefined;
  const globalScope = (metadata.global_chart_configuration as { scope?: FilterScope } | undefined)?.scope;
  const crossFilterTargetsOf = useCallback((chartId: number) => crossFilterTargets(layout, chartId, chartConfiguration, globalScope), [layout, chartConfiguration, globalScope]);
  // Each chart's is worked out once per change of what it depends on: every cell asks on every render.
  const extraFormDataFor = useMemo(() => {
    const known = new Map<number, ExtraFormData>();
    return (chartId: number) => {
      let extra = known.get(chartId);
      if (!extra) known.set(chartId, (extra = extraFormDataForChart(chartId, { filters, masks: applied, scopeOf, crossFilters, crossFilterTargetsOf })));
      return extra;
    };
  }, [filters, applied, scopeOf, crossFilters, crossFilterTargetsOf]);

  const appliedTo = useCallback(
    (chartId: number) => {
      const out: Array<{ id: string; name: string; label: string }> = [];
      for (const f of nativeFilters) {
        const mask = applied[f.id];
        if (!scopeOf(f).includes(chartId) || !mask?.extraFormData || !Object.keys(mask.extraFormData).length) continue;
        out.push({ id: f.id, name: f.name, label: String(mask.filterState?.label ?? mask.filterState?.value ?? '') });
      }
      for (const [emitter, mask] of Object.entries(crossFilters)) {
        if (!mask.extraFormData?.filters?.length || !crossFilterTargetsOf(Number(emitter)).includes(chartId)) continue;
        out.push({ id: emitter, name: charts.get(Number(emitter))?.slice_name ?? `Chart ${emitter}`, label: String(mask.filterState?.label ?? '') });
      }
      return out;
    },
    [nativeFilters, applied, scopeOf, crossFilters, crossFilterTargetsOf, charts],
  );

  const requiredMissing = useMemo(() => requiredWithoutValue(filters, pending), [filters, pending]);
  const canApply = JSON.stringify(pending) !== JSON.stringify(applied) && !requiredMissing.length;
  const canClear = nativeFilters.some((f) => pending[f.id]?.filterState?.value !== undefined && pending[f.id]?.filterState?.value !== null);
  const highlighted = useMemo(() => {
    const f = nativeFilters.find((x) => x.id === focusedFilter);
    return f ? new Set(scopeOf(f)) : null;
  }, [focusedFilter, nativeFilters, scopeOf]);

  const setPending = useCallback((id: string, mask: DataMask) => setPendingMap((p) => ({ ...p, [id]: mask })), []);
  const setApplied = useCallback((id: string, mask: DataMask) => {
    setPendingMap((p) => ({ ...p, [id]: mask }));
    setAppliedMap((a) => ({ ...a, [id]: mask }));
  }, []);
  const apply = useCallback(() => setAppliedMap(pending), [pending]);
  // spec 02 §3 requiredFirst: the first value is picked once the kept state is restored, and the charts in scope of
  // such a filter wait for it (Superset holds them until its first value is known).
  const awaitingFirst = useMemo(() => filtersAwaitingFirstValue(filters, applied), [filters, applied]);
  useFirstValues(ready ? awaitingFirst : NO_FILTERS, filters, applied, setApplied, dashboardId);
  const waitingCharts = useMemo(() => new Set(awaitingFirst.flatMap((f) => scopeOf(f))), [awaitingFirst, scopeOf]);
  // spec 02 §4: Clear all empties the bar; the charts change on Apply.
  const clearAll = useCallback(() => setPendingMap(Object.fromEntries(nativeFilters.map((f) => [f.id, { id: f.id, extraFormData: {}, filterState: { value: null } }]))), [nativeFilters]);
  const crossFilter = useCallback((chartId: number, mask: DataMask) => setCrossFilters((c) => {
    const next = { ...c };
    if (mask.extraFormData?.filters?.length) next[chartId] = mask;
    else delete next[chartId];
    return next;
  }), []);

  // One object per change, so the chart cells reading it re-render only when something in it changed.
  return useMemo(
    () => ({ dashboardId, ready, filters, nativeFilters, pending, applied, crossFilters, extraFormDataFor, scopeOf, appliedTo, setPending, setApplied, apply, clearAll, canApply, canClear, requiredMissing, crossFiltersEnabled, crossFilter, focusedFilter, setFocusedFilter, highlighted, dataMask, waitingCharts }),
    [dashboardId, ready, filters, nativeFilters, pending, applied, crossFilters, extraFormDataFor, scopeOf, appliedTo, setPending, setApplied, apply, clearAll, canApply, canClear, requiredMissing, crossFiltersEnabled, crossFilter, focusedFilter, highlighted, dataMask, waitingCharts],
  );
}

const FiltersContext = createContext<DashboardFilters | null>(null);
export const DashboardFiltersProvider = FiltersContext.Provider;
/** The dashboard's filters, for chart cells (null outside a dashboard, e.g. embedded without filters). */
export const useFiltersContext = () => useContext(FiltersContext);
