import type { FilterState } from '../types';

/** How an item the chart's own cross-filter left out is drawn (Superset's OpacityEnum.SemiTransparent). */
export const UNSELECTED_OPACITY = 0.3;

/** Whether the chart has a cross-filter of its own in effect. */
export const hasSelection = (filterState: FilterState | undefined): boolean => Array.isArray(filterState?.selectedValues) && filterState.selectedValues.length > 0;

/**
 * The style that shows a chart's own cross-filter on one item, given its values of the clicked columns: the
 * selected item in full, the others faded, nothing while the chart has no cross-filter. Values compare as text
 * (a slice's name parts are text, the answer's values may not be).
 * Example: `selectionStyle({ selectedValues: ['CA'] }, ['TX'])` is `{ opacity: 0.3 }`.
 */
export function selectionStyle(filterState: FilterState | undefined, values: readonly unknown[]): { opacity?: number } {
  if (!hasSelection(filterState)) return {};
  const selected = filterState!.selectedValues as unknown[];
  const same = selected.length === values.length && selected.every((v, i) => String(v) === String(values[i]));
  return { opacity: same ? 1 : UNSELECTED_OPACITY };
}
