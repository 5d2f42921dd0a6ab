import { Group, Loader, MultiSelect, NumberInput, Select, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { SELECT_PAGE_SIZE, shouldFetchNextPage, toggleSelectAll } from '@meridian/contracts/rules/select';
import { SELECT_ALL } from '@meridian/contracts/messages';
import { cascadeExtraFormData, dataMaskOf, targetDataset, valueOf, type DataMask, type FilterConfigItem, type NativeFilter } from '@meridian/contracts';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { api, ApiError } from '../../api';
import { pasteChoices, renderSelectTag } from '../../components/select-tags';
import { TimeRangeControl } from '../../explore/controls/TimeRangeControl';
import { timeGrainChoices } from '../../viz/shared/controls';
import classes from '../dashboard.module.css';
import { filterOptionsQueryOptions } from './filter-options';
import type { MaskMap } from './useDashboardFilters';

export interface DatasetMeta {
  id: number;
  table_name: string;
  columns: Array<{ column_name: string; is_dttm?: boolean; type?: string | null; filterable?: boolean; groupby?: boolean }>;
  metrics: Array<{ metric_name: string; expression: string }>;
  time_grain_sqla?: Array<[string, string]>;
}

/** `GET /api/v1/dataset/{id}`: a dataset's columns and metrics (shared by the bar and the configuration modal). */
export function useDatasetMeta(id: number | null | undefined) {
  return useQuery({
    queryKey: ['dataset-meta', id],
    enabled: !!id,
    queryFn: async () => (await api<{ result: DatasetMeta }>(`/api/v1/dataset/${id}`)).result,
    staleTime: 60_000,
    retry: false,
  });
}

/**
 * A value filter's options: the column's distinct values from a chart data query, narrowed by the filter's
 * pre-filter, its parents' values (spec 02 §3 cascadeParentIds) and the search asked of the server, fetched when
 * needed and in pages.
 */
function useFilterOptions(filter: NativeFilter, filters: FilterConfigItem[], applied: MaskMap, enabled: boolean, serverSearch: string, pages: number, dashboardId: number | undefined) {
  const cascade = useMemo(() => cascadeExtraFormData(filter, filters, applied), [filter, filters, applied]);
  const options = filterOptionsQueryOptions(filter, cascade, serverSearch, pages, dashboardId);
  return useQuery({ ...options, enabled: enabled && options.enabled, placeholderData: (previous) => previous });
}

const asKey = (v: unknown) => (v === null ? '<NULL>' : String(v));
/** The 'Select All' entry's key, which no value of a column is expected to have. */
const SELECT_ALL_KEY = '\u0000select-all';

function SelectFilterValue({ filter, filters, mask, applied, onChange, error, dashboardId }: { filter: NativeFilter; filters: FilterConfigItem[]; mask: DataMask | undefined; applied: MaskMap; onChange: (m: DataMask) => void; error?: string; dashboardId?: number }) {
  const [opened, setOpened] = useState(false);
  const [search, setSearch] = useState('');
  const current = (valueOf(mask) as unknown[] | null) ?? [];
  // A single select shows its value in its search box: that is no search (asked of the server, the list opened with
  // that value alone); Mantine lists every option then too.
  const searched = filter.controlValues?.multiSelect === false && current.length === 1 && search === asKey(current[0]) ? '' : search;
  const [debounced] = useDebouncedValue(searched, 300);
  const [pages, setPages] = useState(1);
  // Whether the list holds every value (an unsearched page came back short). Until it does, a search asks the server,
  // as it always does with 'Dynamically search all filter values': looking through the pages loaded, it missed the rest.
  const [complete, setComplete] = useState(false);
  const serverSearch = filter.controlValues?.searchAllOptions || !complete ? debounced : '';
  // 'Select first filter value by default' is picked by the dashboard's filters (useFirstValues), shown or not.
  const options = useFilterOptions(filter, filters, applied, opened, serverSearch, pages, dashboardId);
  const values = options.data ?? [];
  useEffect(() => {
    if (options.data && !options.isPlaceholderData && !serverSearch) setComplete(options.data.length < pages * SELECT_PAGE_SIZE);
  }, [options.data, options.isPlaceholderData, serverSearch, pages]);
  const byKey = new Map<string, unknown>(values.map((v) => [asKey(v), v]));
  for (const v of current) byKey.set(asKey(v), v);
  const data = [...byKey.keys()].map((k) => ({ value: k, label: k === '<NULL>' ? '<NULL>' : k }));
  const set = (keys: string[]) => onChange(dataMaskOf(filter, keys.map((k) => byKey.get(k) ?? k)));
  const common = {
    'aria-label': filter.name,
    searchable: true,
    clearable: true,
    size: 'sm' as const,
    data,
    error,
    placeholder: options.isFetching && !values.length ? 'Loading…' : current.length ? undefined : filter.controlValues?.multiSelect === false ? 'Select a value' : 'Select or type a value',
    nothingFoundMessage: options.isError ? (options.error instanceof ApiError ? options.error.message : 'Could not load the values') : options.isFetching ? 'Loading…' : 'No values',
    onDropdownOpen: () => setOpened(true),
    onSearchChange: (s: string) => {
      setSearch(s);
      setPages(1);
    },
    searchValue: search,
    filter: filter.controlValues?.searchAllOptions ? ({ options: o }: { options: any[] }) => o : undefined,
    rightSection: options.isFetching ? <Loader size={12} /> : undefined,
    comboboxProps: { withinPortal: true },
    scrollAreaProps: {
      viewportProps: {
        onScroll: (event: React.UIEvent<HTMLDivElement>) => {
          const { scrollTop, clientHeight, scrollHeight } = event.currentTarget;
          // A page shorter than asked for was the last one.
          if (!options.isFetching && shouldFetchNextPage(scrollTop, clientHeight, scrollHeight, values.length < pages * SELECT_PAGE_SIZE)) setPages((p) => p + 1);
        },
      },
    },
  };
  if (filter.controlValues?.multiSelect === false) return <Select {...common} value={current.length ? asKey(current[0]) : null} onChange={(v) => set(v ? [v] : [])} />;
  // Spec 01 §4: 'Select All' toggles every option loaded; deselecting any option drops it (a pill's ×, as any other).
  const choose = (keys: string[]) => (keys.includes(SELECT_ALL_KEY) ? set(toggleSelectAll(current.map(asKey), data)) : set(keys));
  return <MultiSelect {...common} renderPill={renderSelectTag} onPaste={pasteChoices(current.map(asKey), new Set(byKey.keys()), set)} data={data.length > 1 ? [{ value: SELECT_ALL_KEY, label: SELECT_ALL }, ...data] : data} value={current.map(asKey)} onChange={choose} />;
}

function RangeFilterValue({ filter, mask, onChange, error }: { filter: NativeFilter; mask: DataMask | undefined; onChange: (m: DataMask) => void; error?: string }) {
  const [lower, upper] = ((valueOf(mask) as Array<number | null> | null) ?? [null, null]) as [number | null, number | null];
  const set = (l: number | null, u: number | null) => onChange(dataMaskOf(filter, l === null && u === null ? null : [l, u]));
  const num = (v: string | number) => (v === '' || v === null ? null : Number(v));
  return (
    <div>
      <Group gap={6} wrap="nowrap">
        <NumberInput aria-label={`${filter.name} minimum`} placeholder="Min" size="sm" value={lower ?? ''} onChange={(v) => set(num(v), upper)} />
        <Text c="dimmed" size="sm">
          –
        </Text>
        <NumberInput aria-label={`${filter.name} maximum`} placeholder="Max" size="sm" value={upper ?? ''} onChange={(v) => set(lower, num(v))} />
      </Group>
      {(error || (lower !== null && upper !== null && lower > upper)) && (
        <Text size="xs" c="red" mt={4}>
          {error ?? 'Minimum value cannot be higher than maximum value'}
        </Text>
      )}
    </div>
  );
}

function TimeColumnFilterValue({ filter, mask, onChange, error }: { filter: NativeFilter; mask: DataMask | undefined; onChange: (m: DataMask) => void; error?: string }) {
  const dataset = useDatasetMeta(targetDataset(filter));
  const data = (dataset.data?.columns ?? []).filter((c) => c.is_dttm).map((c) => c.column_name);
  return <Select aria-label={filter.name} size="sm" clearable data={data} value={(valueOf(mask) as string | null) ?? null} onChange={(v) => onChange(dataMaskOf(filter, v))} placeholder="Select a time column" error={error} comboboxProps={{ withinPortal: true }} />;
}

/** A time grain filter: the grains its dataset's database computes. */
function TimeGrainFilterValue({ filter, mask, onChange, error }: { filter: NativeFilter; mask: DataMask | undefined; onChange: (m: DataMask) => void; error?: string }) {
  const dataset = useDatasetMeta(targetDataset(filter));
  const data = timeGrainChoices(dataset.data?.time_grain_sqla).map(([value, label]) => ({ value, label }));
  return <Select aria-label={filter.name} size="sm" clearable data={data} value={(valueOf(mask) as string | null) ?? null} onChange={(v) => onChange(dataMaskOf(filter, v))} placeholder="Select a time grain" error={error} comboboxProps={{ withinPortal: true }} />;
}

/** The value input of one filter, by filter type. */
/** A filter's value control; `dashboardId` names the saved dashboard whose filter it is, as its option requests say (DASHBOARD_RBAC). */
export function FilterValue(props: { filter: NativeFilter; filters: FilterConfigItem[]; mask: DataMask | undefined; applied: MaskMap; onChange: (m: DataMask) => void; error?: string; dashboardId?: number }) {
  const { filter, mask, onChange, error } = props;
  switch (filter.filterType) {
    case 'filter_select':
      return <SelectFilterValue {...props} />;
    case 'filter_range':
      return <RangeFilterValue filter={filter} mask={mask} onChange={onChange} error={error} />;
    case 'filter_time':
      return (
        <div className={classes.filterTimeRange}>
          <TimeRangeControl value={(valueOf(mask) as string | null) ?? ''} onChange={(v) => onChange(dataMaskOf(filter, v === 'No filter' ? null : v))} />
          {error && (
            <Text size="xs" c="red">
              {error}
            </Text>
          )}
        </div>
      );
    case 'filter_timecolumn':
      return <TimeColumnFilterValue filter={filter} mask={mask} onChange={onChange} error={error} />;
    case 'filter_timegrain':
      return <TimeGrainFilterValue filter={filter} mask={mask} onChange={onChange} error={error} />;
    default:
      return (
        <Text size="xs" c="dimmed">
          {`Unknown filter type: ${filter.filterType}`}
        </Text>
      );
  }
}
