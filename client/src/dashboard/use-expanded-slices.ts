import { expandedSlicesOf, toggleExpandSlice } from '@meridian/contracts';
import { useCallback, useState } from 'react';

/**
 * spec 02 §3 expandedSlices: the charts whose description is open, first as json_metadata.expanded_slices holds them,
 * then toggled from a chart's menu (Superset's TOGGLE_EXPAND_SLICE: a toggle alone is no unsaved change). A new stored
 * expanded_slices (edited in the properties' JSON, or another dashboard loaded) is taken; `metadata` null (still
 * loading, as an embedded dashboard refetched with a new guest token) keeps what is open. `reset` opens the
 * descriptions of the given metadata, as a discard does.
 */
export function useExpandedSlices(metadata: Record<string, unknown> | null) {
  const stored = metadata ? JSON.stringify(metadata.expanded_slices ?? null) : null;
  const [expandedSlices, setExpandedSlices] = useState(() => (metadata ? expandedSlicesOf(metadata) : {}));
  const [storedFrom, setStoredFrom] = useState(stored);
  if (stored !== null && stored !== storedFrom) {
    setStoredFrom(stored);
    setExpandedSlices(expandedSlicesOf(metadata!));
  }
  const toggle = useCallback((chartId: number) => setExpandedSlices((e) => toggleExpandSlice(e, chartId)), []);
  const reset = useCallback((to: Record<string, unknown>) => setExpandedSlices(expandedSlicesOf(to)), []);
  return { expandedSlices, toggleExpandSlice: toggle, reset };
}
