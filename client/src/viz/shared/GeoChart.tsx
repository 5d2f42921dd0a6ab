import { MapChart, ScatterChart } from 'echarts/charts';
import { GeoComponent, TooltipComponent, VisualMapComponent } from 'echarts/components';
import { useEffect, useState } from 'react';
import type { ChartProps } from '../types';
import type { EChartsTransformed } from './echarts-chart';
import { echartsComponent } from './echarts-chart';
import { registerUsa, registerWorld } from './geo';

const Inner = echartsComponent([MapChart, ScatterChart, GeoComponent, TooltipComponent, VisualMapComponent]);

/** A map chart: its shapes are registered first (loaded with this chart only), then drawn like any ECharts type. */
export function GeoChart(props: ChartProps<EChartsTransformed & { map: 'world' | 'usa' | null }>) {
  const [ready, setReady] = useState(false);
  const { map } = props.transformed;
  const { onRenderError } = props;
  useEffect(() => {
    if (!map) return;
    (map === 'usa' ? registerUsa() : registerWorld()).then(() => setReady(true), (e: Error) => onRenderError?.(e));
  }, [map, onRenderError]);
  if (!map) return null;
  return ready ? <Inner {...props} /> : null;
}
