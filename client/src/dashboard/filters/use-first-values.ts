import { cascadeExtraFormData, dataMaskOf, targetColumn, targetDataset, type DataMask, type FilterConfigItem, type NativeFilter } from '@meridian/contracts';
import { useQueries } from '@tanstack/react-query';
import { useEffect } from 'react';
import { filterOptionsQueryOptions } from './filter-options';
import type { MaskMap } from './useDashboardFilters';

/**
 * 'Select first filter value by default' (spec 02 §3 requiredFirst): each filter of `awaiting` gets the first of its
 * options, applied at once, whether or not its control is drawn (one under 'More filters' or in a collapsed bar is
 * not). A filter with no option, whose options fail, or with no column, gets no value (null) so the charts waiting
 * on it go ahead. A child waits for its parents' first values, which narrow its options.
 */
export function useFirstValues(awaiting: NativeFilter[], filters: FilterConfigItem[], applied: MaskMap, setApplied: (id: string, mask: DataMask) => void, dashboardId: number) {
  const waiting = new Set(awaiting.map((f) => f.id));
  const asking = awaiting.filter((f) => !(f.cascadeParentIds ?? []).some((id) => waiting.has(id)));
  const results = useQueries({ queries: asking.map((f) => filterOptionsQueryOptions(f, cascadeExtraFormData(f, filters, applied), '', 1, dashboardId)) });
  const settled = asking.map((f, i) => {
    const r = results[i];
    if (!targetDataset(f) || !targetColumn(f) || r?.isError) return { filter: f, mask: dataMaskOf(f, null) };
    if (r?.isSuccess && !r.isFetching) return { filter: f, mask: dataMaskOf(f, r.data.length ? [r.data[0]] : null) };
    return null;
  });
  const key = JSON.stringify(settled.map((s) => s && [s.filter.id, s.mask.filterState?.value ?? null]));
  useEffect(() => {
    for (const s of settled) if (s) setApplied(s.filter.id, s.mask);
    // `key` names what `settled` holds.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, setApplied]);
}
