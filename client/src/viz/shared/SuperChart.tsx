import { Loader } from '@mantine/core';
import { lazy, Suspense, useMemo, type ComponentType } from 'react';
import { getChartPlugin } from '../registry';
import type { ChartProps, DataPointClick, DatasourceMeta, FormData } from '../types';

const components = new Map<string, ComponentType<ChartProps<any>>>();

/** The chart type's component, loaded on first use and kept per type. */
function componentOf(vizType: string): ComponentType<ChartProps<any>> | null {
  const plugin = getChartPlugin(vizType);
  if (!plugin) return null;
  if (!components.has(vizType)) components.set(vizType, lazy(plugin.loadChart));
  return components.get(vizType)!;
}

/**
 * Draws a chart from its form data and chart data answer with its chart type: transformProps (pure), then
 * the type's component, loaded the first time that type is drawn. Used by Explore, dashboards and thumbnails.
 */
export function SuperChart({ formData, queriesData, datasource, width, height, theme, onRenderError, onRendered, onDataPointClick }: { formData: FormData; queriesData: any[]; datasource: DatasourceMeta | null; width: number; height: number; theme: 'light' | 'dark'; onRenderError: (e: Error) => void; onRendered?: () => void; onDataPointClick?: (click: DataPointClick) => void }) {
  const plugin = getChartPlugin(formData.viz_type);
  const transformed = useMemo(() => {
    try {
      return { ok: true as const, value: plugin!.transformProps({ formData, queriesData, datasource, theme, width, height }) };
    } catch (error) {
      return { ok: false as const, error: error as Error };
    }
  }, [plugin, formData, queriesData, datasource, theme, width, height]);
  const Chart = componentOf(formData.viz_type);
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
