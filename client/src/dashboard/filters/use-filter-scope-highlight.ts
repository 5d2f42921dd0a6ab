import { useEffect, useRef } from 'react';

/**
 * Handlers for a filter's element that highlight the charts in its scope while the pointer or the focus is
 * in the filter, its portalled popovers (a time range's) included. React hands the filter the events of its
 * popovers while the document sees every event, so an event that reaches the document without passing
 * through the filter happened elsewhere and ends the highlight. (Blur alone missed it: a popover that closes
 * drops the focus without one.)
 *
 * @example <div {...useFilterScopeHighlight(filter.id, f.focusedFilter, f.setFocusedFilter)}>…</div>
 */
export function useFilterScopeHighlight(filterId: string, focusedFilter: string | null, setFocusedFilter: (id: string | null) => void) {
  const lastInside = useRef<Event | null>(null);
  const active = focusedFilter === filterId;
  useEffect(() => {
    if (!active) return;
    const types = ['mouseover', 'focusin', 'pointerdown'] as const;
    const onDocument = (event: Event) => {
      if (event !== lastInside.current) setFocusedFilter(null);
    };
    for (const type of types) document.addEventListener(type, onDocument);
    return () => {
      for (const type of types) document.removeEventListener(type, onDocument);
    };
  }, [active, setFocusedFilter]);
  const inside = (event: { nativeEvent: Event }) => {
    lastInside.current = event.nativeEvent;
    if (!active) setFocusedFilter(filterId);
  };
  return { onMouseOver: inside, onFocus: inside, onPointerDown: inside };
}
