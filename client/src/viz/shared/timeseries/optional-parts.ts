/**
 * The ECharts parts a time-series option may need beyond lines, grid, tooltip and legend: each in its own
 * chunk, loaded only when an option uses it (bars, scatter points, the zoom slider, annotation markers, the layout
 * that hides overlapping value labels),
 * so a line chart never downloads them.
 */
import { useEffect, useState } from 'react';
import { loadOnce } from '../load-once';

const LOADERS = {
  bar: () => import('./parts/bar'),
  scatter: () => import('./parts/scatter'),
  zoom: () => import('./parts/zoom'),
  markers: () => import('./parts/markers'),
  labels: () => import('./parts/labels'),
} as const;
export type OptionalPart = keyof typeof LOADERS;

const partsLoaded = loadOnce((part: OptionalPart) => LOADERS[part]().then((module) => module.default));
export const loadPart = partsLoaded.load;

/** Which optional parts an option uses: its series types, a dataZoom, markLine/markArea or a label layout on any series. */
export function partsOf(option: Record<string, any>): OptionalPart[] {
  const series: Array<Record<string, unknown>> = Array.isArray(option.series) ? option.series : option.series ? [option.series] : [];
  const parts = new Set<OptionalPart>();
  for (const s of series) {
    if (s.type === 'bar') parts.add('bar');
    if (s.type === 'scatter') parts.add('scatter');
    if (s.markLine || s.markArea) parts.add('markers');
    if (s.labelLayout) parts.add('labels');
  }
  if (option.dataZoom) parts.add('zoom');
  return [...parts].sort();
}

/** One array per combination, so a chart redrawn with the same parts is not handed new ones. */
const combinations = new Map<string, unknown[]>();
function combined(key: string, parts: OptionalPart[]): unknown[] {
  let list = combinations.get(key);
  if (!list) combinations.set(key, (list = parts.flatMap((p) => partsLoaded.get(p)!)));
  return list;
}

/** The parts, once all are loaded (at once when they already are); null while any is loading. */
export function useOptionalParts(parts: OptionalPart[]): unknown[] | null {
  const key = parts.join(',');
  const loadedNow = parts.every((p) => partsLoaded.get(p)) ? combined(key, parts) : null;
  const [, setLoadedKey] = useState('');
  useEffect(() => {
    if (loadedNow) return;
    let live = true;
    // A part that fails to load (the network) leaves the last drawing, and is asked for again on the next draw.
    void Promise.all(parts.map(loadPart)).then(() => live && setLoadedKey(key), () => undefined);
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, !!loadedNow]);
  return loadedNow;
}
