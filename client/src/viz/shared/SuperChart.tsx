import { Loader } from '@mantine/core';
import { lazy, memo, Suspense, useMemo, type ComponentType } from 'react';
import { loadChartPlugin, useChartPlugin } from '../registry';
import type { ChartProps, DataPointClick, DatasourceMeta, FilterState, FormData, OwnState } from '../types';
import { loadOnce } from './load-once';
import { hasNoResults } from './no-results';
import { NoResults } from './NoResults';

type ChartComponent = ComponentType<ChartProps<any>>;
const lazyComponents = new Map<string, ChartComponent>();
/** The type's code, then its component; a loaded one is drawn at once, with no Suspense (React holds a revealed fallback back ~300 ms). */
const components = loadOnce(async (vizType: string): Promise<ChartComponent> => {
  const plugin = await loadChartPlugin(vizType);
  if (!plugin) throw new Error(`Unknown chart type: ${vizType}`);
  return (await plugin.loadChart()).default as ChartComponent;
});

/**
 * Starts loading a chart type's component, so it arrives while its data is queried: callers that know the
 * type before the answer (Explore, dashboard cells) call it first. Resolves once it is loaded (or could not be:
 * SuperChart then reports the failure); a caller that waits for it before drawing skips Suspense, whose
 * reveal React defers behind every other update of a busy page (a dashboard's big number waited ~1 s).
 */
export function preloadChart(vizType: string): Promise<void> {
  return components.load(vizType).then(
    () => undefined,
    () => undefined,
  );
}

/** The chart type's component: the loaded one, else a lazy one that loads it on first use. */
function componentOf(vizType: string): ChartComponent | null {
  const ready = components.get(vizType);
  if (ready) return ready;
  if (!lazyComponents.has(vizType)) lazyComponents.set(vizType, lazy(async () => ({ default: await components.load(vizType) })));
  return lazyComponents.get(vizType)!;
}

/**
 * Draws a chart from its form data and chart data answer with its chart type: transformProps (pure), then
 * the type's component, loaded the first time that type is drawn. Used by Explore, dashboards and thumbnails.
 * An answer with no rows draws 'No results were returned for this query' whatever the type (`inExplore` adds
 * Superset's hint on the controls), and counts as rendered. Memoised: a dashboard cell draws again at each step of
 * its query, which must not draw its chart again while the chart's props stay the same.
 */
export const SuperChart = memo(function SuperChart({ formData, queriesData, datasource, width, height, theme, filterState, ownState, onOwnStateChange, onRenderError, onRendered, onDataPointClick, inExplore = false }: { formData: FormData; queriesData: any[]; datasource: DatasourceMeta | null; width: number; height: number; theme: 'light' | 'dark'; filterState?: FilterState; ownState?: OwnState; onOwnStateChange?: (ownState: OwnState) => void; onRenderError: (e: Error) => void; onRendered?: () => void; onDataPointClick?: (click: DataPointClick) => void; inExplore?: boolean }) {
  const { plugin, unknown, failed } = useChartPlugin(formData.viz_type);
  const noResults = !!plugin && hasNoResults(plugin, queriesData);
  const transformed = useMemo(() => {
    if (!plugin || noResults) return null;
    try {
      return { ok: true as const, value: plugin.transformProps({ formData, queriesData, datasource, theme, width, height, filterState, ownState }) };
    } catch (error) {
      return { ok: false as const, error: error as Error };
    }
  }, [plugin, noResults, formData, queriesData, datasource, theme, width, height, filterState, ownState]);
  // Pinned per type for this chart: a lazy component swapped for the loaded one would remount the drawing.
  const Chart = useMemo(() => componentOf(formData.viz_type), [formData.viz_type]);
  if (unknown) return null;
  if (failed) {
    queueMicrotask(() => onRenderError(new Error(`the code of chart type ${formData.viz_type} could not load`)));
    return null;
  }
  if (noResults) return <NoResults answer={queriesData} width={width} height={height} inExplore={inExplore} onRendered={onRendered} />;
  if (!transformed) return <Loader size="sm" />;
  if (!transformed.ok) {
    queueMicrotask(() => onRenderError(transformed.error));
    return null;
  }
  if (!Chart) return null;
  return (
    <Suspense fallback={<Loader size="sm" />}>
      <Chart formData={formData} transformed={transformed.value} width={width} height={height} theme={theme} onRendered={onRendered} onRenderError={onRenderError} onDataPointClick={onDataPointClick} setOwnState={onOwnStateChange} />
    </Suspense>
  );
});
