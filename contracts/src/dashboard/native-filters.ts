/**
 * Native filters and cross-filters (spec 02 §3 Native filter, Data mask, Chart cross-filter configuration;
 * §4 filter removal; §5 filter form). Pure rules shared by the dashboard screen and the chart data
 * service: which charts a filter reaches, what a filter value adds to their queries, and how the
 * additions of several filters combine. The stored shapes are Superset's, so exported dashboards load.
 */
import { ROOT_ID } from './layout-reducer';
import type { Layout, LayoutComponent } from './layout';

export type NativeFilterType = 'filter_select' | 'filter_range' | 'filter_time' | 'filter_timecolumn' | 'filter_timegrain';

export interface SimpleFilter {
  col: string;
  op: string;
  val?: unknown;
}

/** What a filter value adds to a chart's query (Superset's `extra_form_data`). */
export interface ExtraFormData {
  filters?: SimpleFilter[];
  adhoc_filters?: unknown[];
  time_range?: string;
  granularity_sqla?: string;
  granularity?: string;
  time_grain_sqla?: string;
  time_column?: string;
  time_grain?: string;
  relative_start?: string;
  relative_end?: string;
  [key: string]: unknown;
}

/** spec 02 §3 Data mask: id, extraFormData, filterState, ownState. */
export interface DataMask {
  id: string | number;
  extraFormData?: ExtraFormData;
  filterState?: { value?: unknown; label?: string; selectedValues?: unknown; excludeFilterValues?: boolean; [key: string]: unknown };
  ownState?: Record<string, unknown>;
}

export interface FilterScope {
  rootPath: string[];
  excluded: number[];
}

/** spec 02 §3 Native filter (type NATIVE_FILTER). */
export interface NativeFilter {
  id: string;
  type: 'NATIVE_FILTER';
  name: string;
  filterType: NativeFilterType | string;
  targets: Array<{ datasetId?: number; column?: { name: string } }>;
  controlValues: {
    multiSelect?: boolean;
    enableEmptyFilter?: boolean;
    defaultToFirstItem?: boolean;
    searchAllOptions?: boolean;
    inverseSelection?: boolean;
    sortAscending?: boolean;
    [key: string]: unknown;
  };
  defaultDataMask: Omit<DataMask, 'id'> & { id?: string | number };
  cascadeParentIds: string[];
  scope: FilterScope;
  adhoc_filters?: unknown[];
  time_range?: string;
  granularity_sqla?: string;
  sortMetric?: string | null;
  requiredFirst?: boolean;
  description: string;
  chartsInScope?: number[];
  tabsInScope?: string[];
}

/** A divider in the filter bar (type DIVIDER): a title and a description. */
export interface FilterDivider {
  id: string;
  type: 'DIVIDER';
  title: string;
  description: string;
  scope?: FilterScope;
  chartsInScope?: number[];
  tabsInScope?: string[];
}

export type FilterConfigItem = NativeFilter | FilterDivider;

export const NATIVE_FILTER_PREFIX = 'NATIVE_FILTER-';
export const NATIVE_FILTER_DIVIDER_PREFIX = 'NATIVE_FILTER_DIVIDER-';

/** The filter types offered, with Superset's names. */
export const FILTER_TYPES: ReadonlyArray<readonly [NativeFilterType, string]> = [
  ['filter_select', 'Value'],
  ['filter_range', 'Numerical range'],
  ['filter_time', 'Time range'],
  ['filter_timecolumn', 'Time column'],
  ['filter_timegrain', 'Time grain'],
];

/** Types that filter a dataset's column (the others act on the chart's time settings). */
export const needsColumn = (filterType: string) => filterType === 'filter_select' || filterType === 'filter_range';
/** Types whose options come from a dataset. */
export const needsDataset = (filterType: string) => filterType !== 'filter_time';

export const isNativeFilter = (item: FilterConfigItem | undefined | null): item is NativeFilter => !!item && item.type !== 'DIVIDER';

export const defaultScope = (): FilterScope => ({ rootPath: [ROOT_ID], excluded: [] });

/** A new filter as the configuration modal adds it. */
export function newNativeFilter(id: string, filterType: NativeFilterType = 'filter_select'): NativeFilter {
  return {
    id,
    type: 'NATIVE_FILTER',
    name: '',
    filterType,
    targets: [{}],
    controlValues: filterType === 'filter_select' ? { enableEmptyFilter: false, defaultToFirstItem: false, multiSelect: true, searchAllOptions: false, inverseSelection: false } : { enableEmptyFilter: false },
    defaultDataMask: { extraFormData: {}, filterState: {}, ownState: {} },
    cascadeParentIds: [],
    scope: defaultScope(),
    description: '',
  };
}

/** spec 02 §5: a divider's title and description are trimmed. */
export function trimDivider(divider: FilterDivider): FilterDivider {
  return { ...divider, title: divider.title.trim(), description: divider.description.trim() };
}

// ---------------------------------------------------------------------------------------------------
// Merging extra form data

/** Keys whose values add up across filters (Superset's EXTRA_FORM_DATA_APPEND_KEYS). */
const APPEND_KEYS = ['adhoc_filters', 'filters', 'interactive_groupby', 'interactive_highlight', 'interactive_drilldown', 'custom_form_data'] as const;
/** Keys a later filter overrides, mapped to the query object field they set (EXTRA_FORM_DATA_OVERRIDE_REGULAR_MAPPINGS). */
const OVERRIDE_REGULAR: Record<string, string> = { granularity: 'granularity', granularity_sqla: 'granularity', time_column: 'time_column', time_grain: 'time_grain', time_range: 'time_range' };
/** Override keys that live in the query object's `extras` (EXTRA_FORM_DATA_OVERRIDE_EXTRA_KEYS). */
const OVERRIDE_EXTRAS = ['relative_start', 'relative_end', 'time_grain_sqla'] as const;

/** Two filters' additions as one: lists are concatenated, overrides are taken from the second. */
export function mergeExtraFormData(first: ExtraFormData | undefined, second: ExtraFormData | undefined): ExtraFormData {
  const out: ExtraFormData = {};
  const a = first ?? {};
  const b = second ?? {};
  for (const key of APPEND_KEYS) {
    const list = [...((a[key] as unknown[]) ?? []), ...((b[key] as unknown[]) ?? [])];
    if (key === 'custom_form_data') {
      if (a.custom_form_data || b.custom_form_data) out.custom_form_data = { ...(a.custom_form_data as object), ...(b.custom_form_data as object) };
    } else if (list.length) (out as Record<string, unknown>)[key] = list;
  }
  for (const key of [...Object.keys(OVERRIDE_REGULAR), ...OVERRIDE_EXTRAS]) {
    const value = b[key] !== undefined ? b[key] : a[key];
    if (value !== undefined) out[key] = value;
  }
  return out;
}

const isTimeAxis = (c: unknown): c is { columnType: string; sqlExpression?: string; label?: string; timeGrain?: string | null } => !!c && typeof c === 'object' && (c as { columnType?: string }).columnType === 'BASE_AXIS';

/**
 * A query object with a chart's extra form data applied (Superset's buildQueryObject and
 * overrideExtraFormData, done here once in the query context for every chart type): appended filters
 * and adhoc filters join the chart's own; a time range, time column or time grain overrides the chart's.
 */
export function applyExtraFormData<Q extends Record<string, any>>(query: Q, extra: ExtraFormData | null | undefined): Q {
  if (!extra || typeof extra !== 'object' || !Object.keys(extra).length) return query;
  const out: Record<string, any> = { ...query, extras: { ...(query.extras ?? {}) } };
  if (Array.isArray(extra.filters) && extra.filters.length) out.filters = [...(Array.isArray(query.filters) ? query.filters : []), ...extra.filters];
  if (Array.isArray(extra.adhoc_filters) && extra.adhoc_filters.length) out.adhoc_filters = [...(Array.isArray(query.adhoc_filters) ? query.adhoc_filters : []), ...extra.adhoc_filters];
  for (const [key, field] of Object.entries(OVERRIDE_REGULAR)) if (extra[key] !== undefined) out[field] = extra[key];
  for (const key of OVERRIDE_EXTRAS) if (extra[key] !== undefined) out.extras[key] = extra[key];
  const timeColumn = (extra.granularity_sqla ?? extra.granularity) as string | undefined;
  if (Array.isArray(out.columns) && (timeColumn !== undefined || extra.time_grain_sqla !== undefined)) {
    // A chart drawn over a time x-axis follows the filtered time column and grain.
    out.columns = out.columns.map((c: unknown) => {
      if (!isTimeAxis(c)) return c;
      const next = { ...c };
      if (timeColumn !== undefined) Object.assign(next, { sqlExpression: timeColumn, label: timeColumn, expressionType: 'SQL' });
      if (extra.time_grain_sqla !== undefined) next.timeGrain = extra.time_grain_sqla;
      return next;
    });
  }
  return out as Q;
}

// ---------------------------------------------------------------------------------------------------
// Scope

const componentOf = (layout: Layout, id: string): LayoutComponent | null => {
  const c = layout[id] as LayoutComponent | undefined;
  return c && typeof c === 'object' && typeof c.type === 'string' ? c : null;
};

/** Each chart id of the layout with the ids of the components above it (root first), walked from the root. */
export function chartAncestors(layout: Layout): Map<number, string[]> {
  const out = new Map<number, string[]>();
  const root = Object.keys(layout).find((k) => componentOf(layout, k)?.type === 'ROOT') ?? ROOT_ID;
  const walk = (id: string, path: string[]) => {
    const c = componentOf(layout, id);
    if (!c || path.includes(id)) return;
    if (c.type === 'CHART') {
      const chartId = Number(c.meta?.chartId);
      if (Number.isInteger(chartId) && !out.has(chartId)) out.set(chartId, path);
      return;
    }
    for (const child of c.children ?? []) walk(child, [...path, id]);
  };
  walk(root, []);
  return out;
}

/**
 * The charts a scope reaches (spec 02 §3 chartsInScope): charts under one of the root path's components,
 * less the excluded ones.
 */
export function chartsInScope(layout: Layout, scope: FilterScope | undefined): number[] {
  const s = scope ?? defaultScope();
  const rootPath = s.rootPath?.length ? s.rootPath : [ROOT_ID];
  const excluded = new Set((s.excluded ?? []).map(Number));
  const out: number[] = [];
  for (const [chartId, path] of chartAncestors(layout)) {
    if (!excluded.has(chartId) && path.some((id) => rootPath.includes(id))) out.push(chartId);
  }
  return out;
}

/**
 * The scope reaching exactly the charts given, written as Superset's scope tree writes it (spec 02 §3 scope: rootPath,
 * excluded): each chart's path of tabs from the root, cut at the depth of the shallowest, gives the root path; the
 * charts under it that were not given are excluded. Example: with charts 1, 2 on tab A and 3 on tab B, `[1]` is
 * `{rootPath: [A], excluded: [2]}`, `[1, 2]` is `{rootPath: [A], excluded: []}`, `[1, 3]` is `{rootPath: [A, B],
 * excluded: [2]}`. No chart is the root less every chart. The inverse of `chartsInScope`.
 */
export function scopeOfCharts(layout: Layout, chartIds: number[]): FilterScope {
  const ancestors = chartAncestors(layout);
  const root = Object.keys(layout).find((k) => componentOf(layout, k)?.type === 'ROOT') ?? ROOT_ID;
  const wanted = new Set(chartIds.filter((id) => ancestors.has(id)));
  if (!wanted.size) return { rootPath: [root], excluded: [...ancestors.keys()] };
  const tabPath = (id: number) => [root, ...ancestors.get(id)!.filter((c) => componentOf(layout, c)?.type === 'TAB')];
  const paths = [...wanted].map(tabPath);
  const depth = Math.min(...paths.map((p) => p.length));
  const rootPath = [...new Set(paths.map((p) => p[depth - 1]!))];
  const excluded = [...ancestors.keys()].filter((id) => !wanted.has(id) && tabPath(id).some((c) => rootPath.includes(c)));
  return { rootPath, excluded };
}

/** The tabs holding at least one chart in scope (spec 02 §3 tabsInScope). */
export function tabsInScope(layout: Layout, charts: number[]): string[] {
  const ancestors = chartAncestors(layout);
  const tabs = new Set<string>();
  for (const chartId of charts) for (const id of ancestors.get(chartId) ?? []) if (componentOf(layout, id)?.type === 'TAB') tabs.add(id);
  return [...tabs];
}

/**
 * The charts on screen: under each tabs container only its active tab (the first when none is chosen).
 * Filters reaching none of them are listed as out of scope in the filter bar.
 */
export function visibleChartIds(layout: Layout, activeTabs: Record<string, string>): Set<number> {
  const out = new Set<number>();
  const root = Object.keys(layout).find((k) => componentOf(layout, k)?.type === 'ROOT') ?? ROOT_ID;
  const seen = new Set<string>();
  const walk = (id: string) => {
    const c = componentOf(layout, id);
    if (!c || seen.has(id)) return;
    seen.add(id);
    if (c.type === 'CHART') {
      const chartId = Number(c.meta?.chartId);
      if (Number.isInteger(chartId)) out.add(chartId);
      return;
    }
    const children = c.children ?? [];
    if (c.type === 'TABS') {
      const active = activeTabs[id] && children.includes(activeTabs[id]!) ? activeTabs[id]! : children[0];
      if (active) walk(active);
      return;
    }
    children.forEach(walk);
  };
  walk(root);
  return out;
}

/** A filter with its chartsInScope and tabsInScope computed from the layout, as saved. */
export function withScopeComputed<T extends FilterConfigItem>(item: T, layout: Layout): T {
  const charts = chartsInScope(layout, item.scope);
  return { ...item, chartsInScope: charts, tabsInScope: tabsInScope(layout, charts) };
}

// ---------------------------------------------------------------------------------------------------
// Values → data masks

const isEmptyValue = (value: unknown) => value === undefined || value === null || value === '' || (Array.isArray(value) && (value.length === 0 || value.every((v) => v === null || v === undefined)));

/** The filter's target column name ('' when none). */
export const targetColumn = (filter: NativeFilter) => filter.targets?.[0]?.column?.name ?? '';
export const targetDataset = (filter: NativeFilter) => filter.targets?.[0]?.datasetId ?? null;

/**
 * The data mask a filter value makes (what each filter type adds to its charts' queries):
 * a value filter → `IN` (or `NOT IN` when inverse); a range → `>=` / `<=`; a time range → time_range;
 * a time column → granularity_sqla; a time grain → time_grain_sqla. No value → no additions.
 */
export function dataMaskOf(filter: NativeFilter, value: unknown): DataMask {
  const col = targetColumn(filter);
  if (isEmptyValue(value)) return { id: filter.id, extraFormData: {}, filterState: { value: null } };
  switch (filter.filterType) {
    case 'filter_select': {
      const values = Array.isArray(value) ? value : [value];
      const inverse = !!filter.controlValues?.inverseSelection;
      return { id: filter.id, extraFormData: { filters: [{ col, op: inverse ? 'NOT IN' : 'IN', val: values }] }, filterState: { value: values, label: `${values.join(', ')}${inverse ? ' (excluded)' : ''}`, excludeFilterValues: inverse } };
    }
    case 'filter_range': {
      const [lower, upper] = (Array.isArray(value) ? value : [null, null]) as Array<number | null>;
      const filters: SimpleFilter[] = [];
      if (lower !== null && lower !== undefined) filters.push({ col, op: '>=', val: lower });
      if (upper !== null && upper !== undefined) filters.push({ col, op: '<=', val: upper });
      const label = lower !== null && upper !== null ? `${lower} ≤ x ≤ ${upper}` : lower !== null ? `x ≥ ${lower}` : `x ≤ ${upper}`;
      return { id: filter.id, extraFormData: { filters }, filterState: { value: [lower ?? null, upper ?? null], label } };
    }
    case 'filter_time':
      return { id: filter.id, extraFormData: { time_range: String(value) }, filterState: { value } };
    case 'filter_timecolumn':
      return { id: filter.id, extraFormData: { granularity_sqla: String(value) }, filterState: { value } };
    case 'filter_timegrain':
      return { id: filter.id, extraFormData: { time_grain_sqla: String(value) }, filterState: { value } };
    default:
      return { id: filter.id, extraFormData: {}, filterState: { value } };
  }
}

/** The value a data mask holds for a filter (its filterState.value), or null. */
export const valueOf = (mask: DataMask | undefined) => (mask?.filterState?.value ?? null) as unknown;

/** The data masks the dashboard opens with: each filter's default (spec 02 §3 defaultDataMask). */
export function initialDataMask(filters: FilterConfigItem[]): Record<string, DataMask> {
  const out: Record<string, DataMask> = {};
  for (const f of filters) if (isNativeFilter(f)) out[f.id] = { ...f.defaultDataMask, id: f.id, extraFormData: f.defaultDataMask?.extraFormData ?? {}, filterState: f.defaultDataMask?.filterState ?? {} };
  return out;
}

/** Filters marked required ('Filter value is required') that have no value: Apply is blocked while any remain. */
export function requiredWithoutValue(filters: FilterConfigItem[], masks: Record<string, DataMask>): string[] {
  return filters.filter((f): f is NativeFilter => isNativeFilter(f) && !!f.controlValues?.enableEmptyFilter && isEmptyValue(valueOf(masks[f.id]))).map((f) => f.id);
}

/**
 * 'Select first filter value by default' (spec 02 §3 requiredFirst, which the configuration writes beside the value
 * filter's controlValues.defaultToFirstItem): the filter starts on the first of its values.
 */
export function isRequiredFirst(filter: NativeFilter): boolean {
  return filter.filterType === 'filter_select' && (!!filter.requiredFirst || !!filter.controlValues?.defaultToFirstItem);
}

/**
 * The requiredFirst filters whose first value is not known yet: their value is still undefined (not picked, not
 * restored, not cleared by the user). Charts in their scope wait for it, as Superset's do. Example: a requiredFirst
 * filter with the mask `{filterState: {}}` awaits; with `{filterState: {value: null}}` (cleared) it does not.
 */
export function filtersAwaitingFirstValue(filters: FilterConfigItem[], masks: Record<string, DataMask>): NativeFilter[] {
  return filters.filter((f): f is NativeFilter => isNativeFilter(f) && isRequiredFirst(f) && masks[f.id]?.filterState?.value === undefined);
}

// ---------------------------------------------------------------------------------------------------
// Cross-filters

export interface ChartCrossFilterConfiguration {
  id: number;
  crossFilters: { scope: 'global' | FilterScope; chartsInScope?: number[] };
}

/**
 * Whether a dashboard's charts cross-filter (spec 02 §5 'Cross-filters are available only when the cross-filters
 * feature flag is on'; json_metadata cross_filters_enabled, on unless false). Off, no cross-filter is emitted,
 * applied or shown, not even one kept from before. Example: `crossFiltersOn(true, { cross_filters_enabled: false })`
 * is false.
 */
export function crossFiltersOn(flag: boolean, metadata: { cross_filters_enabled?: unknown }): boolean {
  return flag && metadata.cross_filters_enabled !== false;
}

/**
 * The charts a chart's cross-filter reaches (spec 02 §3: scope 'global' means the global configuration
 * applies); never the emitting chart itself.
 */
export function crossFilterTargets(layout: Layout, chartId: number, chartConfiguration: Record<string, ChartCrossFilterConfiguration> | undefined, globalScope: FilterScope | undefined): number[] {
  const own = chartConfiguration?.[chartId]?.crossFilters?.scope;
  const scope = own && own !== 'global' ? own : globalScope ?? defaultScope();
  return chartsInScope(layout, scope).filter((id) => id !== chartId);
}

/** The data mask a click on a chart makes: its group-by value(s) as an IN filter, or none to clear. */
export function crossFilterMask(chartId: number, clicked: Array<{ col: string; val: unknown }>): DataMask {
  if (!clicked.length) return { id: chartId, extraFormData: {}, filterState: { value: null } };
  const filters = clicked.map((c) => ({ col: c.col, op: 'IN', val: Array.isArray(c.val) ? c.val : [c.val] }));
  const label = clicked.map((c) => String(c.val)).join(', ');
  return { id: chartId, extraFormData: { filters }, filterState: { value: [clicked.map((c) => c.val)], selectedValues: clicked.map((c) => c.val), label } };
}

// ---------------------------------------------------------------------------------------------------
// Per chart

/**
 * The extra form data of one chart: the applied values of every native filter whose scope holds the chart,
 * then every other chart's cross-filter that reaches it, merged in configuration order.
 */
export function extraFormDataForChart(
  chartId: number,
  opts: {
    filters: FilterConfigItem[];
    masks: Record<string, DataMask>;
    scopeOf: (filter: NativeFilter) => number[];
    crossFilters?: Record<string, DataMask>;
    crossFilterTargetsOf?: (chartId: number) => number[];
  },
): ExtraFormData {
  let out: ExtraFormData = {};
  for (const f of opts.filters) {
    if (!isNativeFilter(f) || !opts.scopeOf(f).includes(chartId)) continue;
    out = mergeExtraFormData(out, opts.masks[f.id]?.extraFormData);
  }
  for (const [emitter, mask] of Object.entries(opts.crossFilters ?? {})) {
    if (Number(emitter) === chartId || !mask.extraFormData?.filters?.length) continue;
    if (opts.crossFilterTargetsOf?.(Number(emitter)).includes(chartId)) out = mergeExtraFormData(out, mask.extraFormData);
  }
  return out;
}

/**
 * The additions that narrow a filter's own options (spec 02 §3 cascadeParentIds): the applied values of its
 * parents, and theirs in turn, plus its pre-filter time range.
 */
export function cascadeExtraFormData(filter: NativeFilter, filters: FilterConfigItem[], masks: Record<string, DataMask>): ExtraFormData {
  const byId = new Map(filters.filter(isNativeFilter).map((f) => [f.id, f]));
  let out: ExtraFormData = {};
  const seen = new Set<string>([filter.id]);
  const visit = (ids: string[]) => {
    for (const id of ids) {
      const parent = byId.get(id);
      if (!parent || seen.has(id)) continue;
      seen.add(id);
      visit(parent.cascadeParentIds ?? []);
      out = mergeExtraFormData(out, masks[id]?.extraFormData);
    }
  };
  visit(filter.cascadeParentIds ?? []);
  return out;
}

/** Filters that can be a parent of `filter`: value filters that do not, in turn, descend from it. */
export function possibleParents(filter: NativeFilter, filters: FilterConfigItem[]): NativeFilter[] {
  const byId = new Map(filters.filter(isNativeFilter).map((f) => [f.id, f]));
  const descendsFrom = (id: string, ancestor: string, seen = new Set<string>()): boolean => {
    if (seen.has(id)) return false;
    seen.add(id);
    const parents = byId.get(id)?.cascadeParentIds ?? [];
    return parents.includes(ancestor) || parents.some((p) => descendsFrom(p, ancestor, seen));
  };
  return [...byId.values()].filter((f) => f.id !== filter.id && f.filterType === 'filter_select' && !descendsFrom(f.id, filter.id));
}

/**
 * The options query of a value filter: the distinct values of its column (sorted, optionally by a metric),
 * narrowed by its pre-filter and its parents' values, and by a search text when searching all options.
 */
export function filterOptionsQuery(filter: NativeFilter, opts: { cascade: ExtraFormData; search?: string; rowLimit?: number }) {
  const col = targetColumn(filter);
  const ascending = filter.controlValues?.sortAscending !== false;
  const sortMetric = filter.sortMetric ?? null;
  const search = opts.search?.trim();
  return {
    columns: [col],
    // A metric makes the query group by the column: one row per distinct value.
    metrics: [sortMetric ?? { expressionType: 'SQL', sqlExpression: 'COUNT(*)', label: '__count' }],
    orderby: [[sortMetric ?? col, ascending]],
    adhoc_filters: filter.adhoc_filters ?? [],
    filters: search ? [{ col, op: 'ILIKE', val: `%${search}%` }] : [],
    time_range: filter.time_range ?? 'No filter',
    granularity: filter.granularity_sqla ?? null,
    row_limit: opts.rowLimit ?? 1000,
    extra_form_data: opts.cascade,
  };
}

// ---------------------------------------------------------------------------------------------------
// Configuration form

export type FilterErrors = Record<string, Record<string, string>>;

/**
 * spec 02 §4/§5: the filter form validated on submit. Errors by filter id then field; the first invalid
 * filter (in configuration order) is the one focus moves to.
 */
export function validateFilterConfiguration(items: FilterConfigItem[]): { errors: FilterErrors; firstInvalid: string | null } {
  const errors: FilterErrors = {};
  for (const item of items) {
    const e: Record<string, string> = {};
    if (item.type === 'DIVIDER') {
      if (!item.title.trim()) e.title = 'Title is required';
    } else {
      if (!item.name.trim()) e.name = 'Name is required';
      if (needsDataset(item.filterType) && !targetDataset(item)) e.dataset = 'Dataset is required';
      if (needsColumn(item.filterType) && !targetColumn(item)) e.column = 'Column is required';
      if (item.filterType === 'filter_range') {
        const [lower, upper] = (valueOf(item.defaultDataMask as DataMask) as Array<number | null> | null) ?? [null, null];
        if (lower !== null && upper !== null && lower !== undefined && upper !== undefined && Number(lower) > Number(upper)) e.defaultValue = 'Minimum value cannot be higher than maximum value';
      }
    }
    if (Object.keys(e).length) errors[item.id] = e;
  }
  const firstInvalid = items.find((i) => errors[i.id])?.id ?? null;
  return { errors, firstInvalid };
}

/**
 * The errors of the last submit still standing: an error goes once its field is valid, and no new error
 * appears before the next submit (spec 02 §4 'Filter form: validated on submit').
 */
export function errorsStillStanding(shown: FilterErrors, items: FilterConfigItem[]): FilterErrors {
  const now = validateFilterConfiguration(items.filter((i) => i.id in shown)).errors;
  const out: FilterErrors = {};
  for (const [id, fields] of Object.entries(shown)) {
    const kept = Object.fromEntries(Object.keys(fields).filter((field) => now[id]?.[field]).map((field) => [field, now[id]![field]!]));
    if (Object.keys(kept).length) out[id] = kept;
  }
  return out;
}

/**
 * Legacy filter boxes (spec 02 §3 default_filters, filter_scopes) read as native filters, for dashboards made
 * with them: one value filter per filter box column, scoped as the legacy scope said.
 */
export function nativeFiltersFromLegacy(metadata: { default_filters?: unknown; filter_scopes?: unknown }, datasetOfChart: (chartId: number) => number | null): NativeFilter[] {
  let defaults: Record<string, Record<string, unknown>> = {};
  try {
    const raw = typeof metadata.default_filters === 'string' ? JSON.parse(metadata.default_filters) : metadata.default_filters;
    if (raw && typeof raw === 'object') defaults = raw as typeof defaults;
  } catch {
    defaults = {};
  }
  const scopes = (metadata.filter_scopes && typeof metadata.filter_scopes === 'object' ? metadata.filter_scopes : {}) as Record<string, Record<string, { scope?: string[]; immune?: number[] }>>;
  const columnsByChart = new Map<string, Set<string>>();
  for (const [chartId, columns] of [...Object.entries(defaults), ...Object.entries(scopes)]) {
    const set = columnsByChart.get(chartId) ?? new Set<string>();
    for (const column of Object.keys(columns ?? {})) if (!column.startsWith('__')) set.add(column);
    columnsByChart.set(chartId, set);
  }
  const out: NativeFilter[] = [];
  for (const [chartId, columns] of columnsByChart) {
    for (const column of columns) {
      const filter = newNativeFilter(`${NATIVE_FILTER_PREFIX}legacy-${chartId}-${column}`);
      filter.name = column;
      const datasetId = datasetOfChart(Number(chartId));
      filter.targets = [{ ...(datasetId ? { datasetId } : {}), column: { name: column } }];
      const legacy = scopes[chartId]?.[column];
      filter.scope = { rootPath: legacy?.scope?.length ? legacy.scope : [ROOT_ID], excluded: [Number(chartId), ...(legacy?.immune ?? []).map(Number)] };
      const value = defaults[chartId]?.[column];
      if (!isEmptyValue(value)) filter.defaultDataMask = dataMaskOf(filter, value);
      out.push(filter);
    }
  }
  return out;
}
