import { describe, expect, it } from 'vitest';
import { normaliseQueryObject } from '../chart-data/query-object';
import { layoutOfRows } from './layout-reducer';
import {
  applyExtraFormData,
  cascadeExtraFormData,
  chartsInScope,
  crossFilterMask,
  crossFiltersOn,
  crossFilterTargets,
  dataMaskOf,
  extraFormDataForChart,
  filterOptionsQuery,
  filtersAwaitingFirstValue,
  initialDataMask,
  mergeExtraFormData,
  nativeFiltersFromLegacy,
  newNativeFilter,
  possibleParents,
  requiredWithoutValue,
  scopeOfCharts,
  tabsInScope,
  visibleChartIds,
  trimDivider,
  validateFilterConfiguration,
  errorsStillStanding,
  type NativeFilter,
} from './native-filters';

const selectFilter = (id: string, column: string, extra: Partial<NativeFilter> = {}): NativeFilter => ({ ...newNativeFilter(id), name: column, targets: [{ datasetId: 1, column: { name: column } }], ...extra });

// Two tabs: charts 1 and 2 on 'Overview', chart 3 on 'Health'.
const tabbed = layoutOfRows('T', [
  { tab: 'Overview', rows: [[{ chartId: 1 }, { chartId: 2 }]] },
  { tab: 'Health', rows: [[{ chartId: 3 }]] },
]);
const tabIds = Object.values(tabbed).filter((c) => c.type === 'TAB').map((c) => c.id);

describe('spec 02 §3 Native filter scope (rootPath, excluded) with chartsInScope and tabsInScope computed', () => {
  it('the whole dashboard by default, less excluded charts', () => {
    expect(chartsInScope(tabbed, { rootPath: ['ROOT_ID'], excluded: [] }).sort()).toEqual([1, 2, 3]);
    expect(chartsInScope(tabbed, { rootPath: ['ROOT_ID'], excluded: [2] }).sort()).toEqual([1, 3]);
  });
  it('a root path of one tab reaches only that tab’s charts', () => {
    expect(chartsInScope(tabbed, { rootPath: [tabIds[1]!], excluded: [] })).toEqual([3]);
    expect(tabsInScope(tabbed, [1, 2])).toEqual([tabIds[0]]);
    expect(tabsInScope(tabbed, [1, 3]).sort()).toEqual([...tabIds].sort());
  });
  it('the charts checked in the scope editor make the scope as Superset writes it: a root path of tabs, less the unchecked charts under it', () => {
    const [a, b] = tabIds as [string, string];
    expect(scopeOfCharts(tabbed, [1])).toEqual({ rootPath: [a], excluded: [2] });
    expect(scopeOfCharts(tabbed, [1, 2])).toEqual({ rootPath: [a], excluded: [] });
    expect(scopeOfCharts(tabbed, [1, 3])).toEqual({ rootPath: [a, b], excluded: [2] });
    expect(scopeOfCharts(tabbed, [])).toEqual({ rootPath: ['ROOT_ID'], excluded: [1, 2, 3] });
    // A chart outside the tabs takes the root path up to the root.
    const mixed = layoutOfRows('M', [[{ chartId: 1 }, { chartId: 2 }]]);
    expect(scopeOfCharts(mixed, [1, 2])).toEqual({ rootPath: ['ROOT_ID'], excluded: [] });
    expect(scopeOfCharts(mixed, [2])).toEqual({ rootPath: ['ROOT_ID'], excluded: [1] });
    // Each reads back as the charts it was made of, an imported tab scope too.
    for (const charts of [[1], [1, 2], [1, 3], [3], [2, 3], []]) expect(chartsInScope(tabbed, scopeOfCharts(tabbed, charts)).sort()).toEqual(charts);
    expect(chartsInScope(tabbed, { rootPath: [b], excluded: [] })).toEqual([3]);
  });
  it('the charts on screen are those of the active tabs (the first by default): the others’ filters are out of scope', () => {
    const tabsId = Object.values(tabbed).find((c) => c.type === 'TABS')!.id;
    expect([...visibleChartIds(tabbed, {})].sort()).toEqual([1, 2]);
    expect([...visibleChartIds(tabbed, { [tabsId]: tabIds[1]! })]).toEqual([3]);
  });
});

describe('spec 02 §3 Data mask: extraFormData of each filter type', () => {
  it('a value filter adds IN, or NOT IN when inverse; no value adds nothing', () => {
    const f = selectFilter('F1', 'state');
    expect(dataMaskOf(f, ['CA', 'NY']).extraFormData).toEqual({ filters: [{ col: 'state', op: 'IN', val: ['CA', 'NY'] }] });
    expect(dataMaskOf({ ...f, controlValues: { inverseSelection: true } }, ['CA']).extraFormData).toEqual({ filters: [{ col: 'state', op: 'NOT IN', val: ['CA'] }] });
    expect(dataMaskOf(f, []).extraFormData).toEqual({});
  });
  it('a numerical range adds >= and <=, an open end adds one bound', () => {
    const f = selectFilter('F2', 'num', { filterType: 'filter_range' });
    expect(dataMaskOf(f, [10, 20]).extraFormData!.filters).toEqual([{ col: 'num', op: '>=', val: 10 }, { col: 'num', op: '<=', val: 20 }]);
    expect(dataMaskOf(f, [null, 20]).extraFormData!.filters).toEqual([{ col: 'num', op: '<=', val: 20 }]);
  });
  it('time range, time column and time grain filters override the chart’s time settings', () => {
    expect(dataMaskOf(selectFilter('T', '', { filterType: 'filter_time' }), 'Last year').extraFormData).toEqual({ time_range: 'Last year' });
    expect(dataMaskOf(selectFilter('C', '', { filterType: 'filter_timecolumn' }), 'ds').extraFormData).toEqual({ granularity_sqla: 'ds' });
    expect(dataMaskOf(selectFilter('G', '', { filterType: 'filter_timegrain' }), 'P1M').extraFormData).toEqual({ time_grain_sqla: 'P1M' });
  });
  it('defaultDataMask is what the dashboard opens with', () => {
    const f = selectFilter('F1', 'state');
    f.defaultDataMask = dataMaskOf(f, ['CA']);
    expect(initialDataMask([f]).F1!.filterState!.value).toEqual(['CA']);
  });
});

describe('merging extraFormData', () => {
  it('filters append; time_range, granularity_sqla and time_grain_sqla are overridden by the later filter', () => {
    const merged = mergeExtraFormData({ filters: [{ col: 'a', op: 'IN', val: [1] }], time_range: 'Last week' }, { filters: [{ col: 'b', op: 'IN', val: [2] }], time_range: 'Last year', time_grain_sqla: 'P1D' });
    expect(merged).toEqual({ filters: [{ col: 'a', op: 'IN', val: [1] }, { col: 'b', op: 'IN', val: [2] }], time_range: 'Last year', time_grain_sqla: 'P1D' });
  });
  it('applied to a query: filters join the chart’s own, time range overrides, grain goes to extras and the time axis', () => {
    const query = { columns: [{ columnType: 'BASE_AXIS', sqlExpression: 'ds', label: 'ds', timeGrain: 'P1Y' }, 'name'], filters: [{ col: 'x', op: '==', val: 1 }], time_range: 'No filter', extras: { where: '' } };
    const out = applyExtraFormData(query, { filters: [{ col: 'state', op: 'IN', val: ['CA'] }], time_range: 'Last year', time_grain_sqla: 'P1M', granularity_sqla: 'ds2' });
    expect(out.filters).toEqual([{ col: 'x', op: '==', val: 1 }, { col: 'state', op: 'IN', val: ['CA'] }]);
    expect(out.time_range).toBe('Last year');
    expect(out.extras).toEqual({ where: '', time_grain_sqla: 'P1M' });
    expect((out as any).granularity).toBe('ds2');
    expect(out.columns[0]).toMatchObject({ sqlExpression: 'ds2', timeGrain: 'P1M' });
    expect(query.filters).toHaveLength(1);
  });
  it('the server’s query normalisation applies the form data’s extra_form_data', () => {
    const q = normaliseQueryObject({ columns: ['name'], metrics: ['count'], filters: [] }, { now: new Date('2024-01-01T00:00:00Z'), formData: { extra_form_data: { filters: [{ col: 'state', op: 'IN', val: ['CA'] }] } } });
    expect(q.filters).toEqual([{ col: 'state', op: 'IN', val: ['CA'] }]);
  });
});

describe('extraFormData per chart: native filters in scope and cross-filters', () => {
  const layout = layoutOfRows('T', [[{ chartId: 1 }, { chartId: 2 }, { chartId: 3 }]]);
  const state = selectFilter('F1', 'state', { scope: { rootPath: ['ROOT_ID'], excluded: [3] } });
  const masks = { F1: dataMaskOf(state, ['CA']) };
  const scopeOf = (f: NativeFilter) => chartsInScope(layout, f.scope);
  it('a value filter narrows only the charts in its scope', () => {
    expect(extraFormDataForChart(1, { filters: [state], masks, scopeOf }).filters).toEqual([{ col: 'state', op: 'IN', val: ['CA'] }]);
    expect(extraFormDataForChart(3, { filters: [state], masks, scopeOf })).toEqual({});
  });
  it('a cross-filter reaches the other charts of its scope, never the emitting chart (scope global = the global configuration)', () => {
    const cross = { 2: crossFilterMask(2, [{ col: 'gender', val: 'boy' }]) };
    const targets = (id: number) => crossFilterTargets(layout, id, { 2: { id: 2, crossFilters: { scope: 'global' } } }, { rootPath: ['ROOT_ID'], excluded: [3] });
    expect(extraFormDataForChart(1, { filters: [], masks: {}, scopeOf, crossFilters: cross, crossFilterTargetsOf: targets }).filters).toEqual([{ col: 'gender', op: 'IN', val: ['boy'] }]);
    expect(extraFormDataForChart(2, { filters: [], masks: {}, scopeOf, crossFilters: cross, crossFilterTargetsOf: targets })).toEqual({});
    expect(extraFormDataForChart(3, { filters: [], masks: {}, scopeOf, crossFilters: cross, crossFilterTargetsOf: targets })).toEqual({});
    // A chart's own scope wins over the global one.
    expect(crossFilterTargets(layout, 2, { 2: { id: 2, crossFilters: { scope: { rootPath: ['ROOT_ID'], excluded: [1] } } } }, undefined)).toEqual([3]);
  });
});

describe('spec 02 §3 cascadeParentIds: the parents’ values narrow the child’s options', () => {
  const country = selectFilter('P', 'country');
  const grand = selectFilter('G', 'region');
  country.cascadeParentIds = ['G'];
  const city = selectFilter('C', 'city', { cascadeParentIds: ['P'] });
  const masks = { P: dataMaskOf(country, ['FR']), G: dataMaskOf(grand, ['EU']), C: dataMaskOf(city, ['Paris']) };
  it('the options query carries the parents’ (and grandparents’) filters, not its own', () => {
    const cascade = cascadeExtraFormData(city, [grand, country, city], masks);
    expect(cascade.filters).toEqual([{ col: 'region', op: 'IN', val: ['EU'] }, { col: 'country', op: 'IN', val: ['FR'] }]);
    const q = filterOptionsQuery(city, { cascade, search: 'par' });
    expect(q.columns).toEqual(['city']);
    expect(q.filters).toEqual([{ col: 'city', op: 'ILIKE', val: '%par%' }]);
    expect(q.extra_form_data).toBe(cascade);
  });
  it('a filter cannot be the parent of its own ancestor', () => {
    expect(possibleParents(grand, [grand, country, city]).map((f) => f.id)).toEqual([]);
    expect(possibleParents(city, [grand, country, city]).map((f) => f.id)).toEqual(['G', 'P']);
  });
});

describe('spec 02 §4/§5 filter form and required filters', () => {
  it('validation lists errors by filter and names the first invalid one', () => {
    const ok = selectFilter('A', 'state');
    const bad = { ...newNativeFilter('B'), name: ' ' };
    const { errors, firstInvalid } = validateFilterConfiguration([ok, bad]);
    expect(firstInvalid).toBe('B');
    expect(errors.B).toEqual({ name: 'Name is required', dataset: 'Dataset is required', column: 'Column is required' });
    expect(errors.A).toBeUndefined();
  });
  it('"Filter form: validated on submit": an error clears once its field is valid, and none appears before the next submit', () => {
    const bad = { ...newNativeFilter('B'), name: '' };
    const other = { ...newNativeFilter('C'), name: '' };
    const { errors } = validateFilterConfiguration([bad]);
    const named = { ...bad, name: 'State' };
    expect(errorsStillStanding(errors, [named, other])).toEqual({ B: { dataset: 'Dataset is required', column: 'Column is required' } });
    const complete = { ...named, targets: [{ datasetId: 1, column: { name: 'state' } }] };
    expect(errorsStillStanding(errors, [complete, other])).toEqual({});
  });
  it('"Filter description is trimmed" (dividers: title and description)', () => {
    expect(trimDivider({ id: 'D', type: 'DIVIDER', title: '  Geo ', description: ' where \n' })).toMatchObject({ title: 'Geo', description: 'where' });
  });
  it("requiredFirst ('Select first filter value by default'): awaits its first value until one is set, restored or cleared", () => {
    const first = selectFilter('F', 'state', { requiredFirst: true, controlValues: { defaultToFirstItem: true } });
    const plain = selectFilter('P', 'gender');
    const range = { ...selectFilter('N', 'num', { requiredFirst: true }), filterType: 'filter_range' };
    const masks = initialDataMask([first, plain, range]);
    expect(filtersAwaitingFirstValue([first, plain, range], masks).map((f) => f.id)).toEqual(['F']);
    // A configuration that set only defaultToFirstItem reads the same.
    expect(filtersAwaitingFirstValue([{ ...first, requiredFirst: undefined }], masks).map((f) => f.id)).toEqual(['F']);
    expect(filtersAwaitingFirstValue([first], { ...masks, F: dataMaskOf(first, ['CA']) })).toEqual([]);
    expect(filtersAwaitingFirstValue([first], { ...masks, F: dataMaskOf(first, null) })).toEqual([]);
  });
  it('a required filter with no value blocks apply', () => {
    const f = selectFilter('R', 'state', { controlValues: { enableEmptyFilter: true } });
    expect(requiredWithoutValue([f], {})).toEqual(['R']);
    expect(requiredWithoutValue([f], { R: dataMaskOf(f, ['CA']) })).toEqual([]);
  });
});

describe('legacy default_filters and filter_scopes read as native filters', () => {
  it('one value filter per filter-box column, with its default and scope', () => {
    const [f] = nativeFiltersFromLegacy({ default_filters: JSON.stringify({ 7: { state: ['CA'] } }), filter_scopes: { 7: { state: { scope: ['ROOT_ID'], immune: [9] } } } }, () => 4);
    expect(f).toMatchObject({ name: 'state', targets: [{ datasetId: 4, column: { name: 'state' } }], scope: { rootPath: ['ROOT_ID'], excluded: [7, 9] } });
    expect(f!.defaultDataMask.extraFormData).toEqual({ filters: [{ col: 'state', op: 'IN', val: ['CA'] }] });
  });
});

describe("spec 02 §5 'Cross-filters are available only when the cross-filters feature flag is on'", () => {
  it('needs the flag, and cross_filters_enabled not false in the metadata', () => {
    expect(crossFiltersOn(true, {})).toBe(true);
    expect(crossFiltersOn(true, { cross_filters_enabled: true })).toBe(true);
    expect(crossFiltersOn(true, { cross_filters_enabled: false })).toBe(false);
    expect(crossFiltersOn(false, { cross_filters_enabled: true })).toBe(false);
  });
});
