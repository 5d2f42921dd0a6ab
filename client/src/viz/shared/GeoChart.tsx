import { MapChart, ScatterChart } from 'echarts/charts';
import { GeoComponent, TooltipComponent, VisualMapComponent } from 'echarts/components';
import { useEffect, useState } from 'react';
import type { ChartProps } from '../types';
import type { EChartsTransformed } from './echarts-chart';
import { echartsComponent } from './echarts-chart';
import { registerShapes } from './geo';

const Inner = echartsComponent([MapChart, ScatterChart, GeoComponent, TooltipComponent, VisualMapComponent]);

/** A map chart: its shapes are registered first (loaded with this chart only; a country's, the first time it is drawn), then drawn like any ECharts type. */
export function GeoChart(props: ChartProps<EChartsTransformed & { map: string | null }>) {
  // The map whose shapes are registered: another country chosen in Explore waits for its own shapes.
  const [ready, setReady] = useState<string | null>(null);
  const { map } = props.transformed;
  const { onRenderError } = props;
  useEffect(() => {
    if (!map) return;
    registerShapes(map).then(() => setReady(map), (e: Error) => onRenderError?.(e));
  }, [map, onRenderError]);
  if (!map) return null;
  return ready === map ? <Inner {...props} /> : null;
}
