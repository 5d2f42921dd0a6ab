import { Loader } from '@mantine/core';
import { lazy, Suspense, useMemo, type ComponentType } from 'react';
import { loadChartPlugin, useChartPlugin } from '../registry';
import type { ChartProps, DataPointClick, DatasourceMeta, FormData } from '../types';

type ChartComponent = ComponentType<ChartProps<any>>;
const lazyComponents = new Map<string, ChartComponent>();
const loading = new Map<string, Promise<unknown>>();
/** Components already loaded: drawn at once, with no Suspense (React holds a revealed fallback back ~300 ms). */
const loaded = new Map<string, ChartComponent>();

/**
 * Starts loading a chart type's component, so it arrives while its data is queried: callers that know the
 * type before the answer (Explore, dashboard cells) call it first.
 */
export function preloadChart(vizType: string): void {
  if (loaded.has(vizType) || loading.has(vizType)) return;
  loading.set(
    vizType,
    loadComponent(vizType).then(
      (module) => void loaded.set(vizType, module.default),
      () => loading.delete(vizType),
    ),
  );
}

/** The type's code, then its component. */
const loadComponent = async (vizType: string): Promise<{ default: ChartComponent }> => {
  const plugin = await loadChartPlugin(vizType);
  if (!plugin) throw new Error(`Unknown chart type: ${vizType}`);
  return (await plugin.loadChart()) as { default: ChartComponent };
};

/** The chart type's component: the loaded one, else a lazy one that loads it on first use. */
function componentOf(vizType: string): ChartComponent | null {
  const ready = loaded.get(vizType);
  if (ready) return ready;
  preloadChart(vizType);
  if (!lazyComponents.has(vizType)) lazyComponents.set(vizType, lazy(() => loadComponent(vizType)));
  return lazyComponents.get(vizType)!;
}

/**
 * Draws a chart from its form data and chart data answer with its chart type: transformProps (pure), then
 * the type's component, loaded the first time that type is drawn. Used by Explore, dashboards and thumbnails.
 */
export function SuperChart({ formData, queriesData, datasource, width, height, theme, onRenderError, onRendered, onDataPointClick }: { formData: FormData; queriesData: any[]; datasource: DatasourceMeta | null; width: number; height: number; theme: 'light' | 'dark'; onRenderError: (e: Error) => void; onRendered?: () => void; onDataPointClick?: (click: DataPointClick) => void }) {
  const { plugin, unknown, failed } = useChartPlugin(formData.viz_type);
  const transformed = useMemo(() => {
    if (!plugin) return null;
    try {
      return { ok: true as const, value: plugin.transformProps({ formData, queriesData, datasource, theme, width, height }) };
    } catch (error) {
      return { ok: false as const, error: error as Error };
    }
  }, [plugin, formData, queriesData, datasource, theme, width, height]);
  // Pinned per type for this chart: a lazy component swapped for the loaded one would remount the drawing.
  const Chart = useMemo(() => componentOf(formData.viz_type), [formData.viz_type]);
  if (unknown) return null;
  if (failed) {
    queueMicrotask(() => onRenderError(new Error(`the code of chart type ${formData.viz_type} could not load`)));
    return null;
  }
  if (!transformed) return <Loader size="sm" />;
  if (!transformed.ok) {
    queueMicrotask(() => onRenderError(transformed.error));
    return null;
  }
  if (!Chart) return null;
  return (
    <Suspense fallback={<Loader size="sm" />}>
      <Chart formData={formData} transformed={transformed.value} width={width} height={height} theme={theme} onRendered={onRendered} onRenderError={onRenderError} onDataPointClick={onDataPointClick} />
    </Suspense>
  );
}
