import { BarChart, LineChart, ScatterChart } from 'echarts/charts';
import { DataZoomComponent, GridComponent, LegendComponent, MarkAreaComponent, MarkLineComponent, TooltipComponent } from 'echarts/components';
import type { ChartProps } from '../../types';
import { EChart } from '../EChart';
import type { TimeseriesProps } from './transform-props';

const PARTS = [LineChart, BarChart, ScatterChart, GridComponent, TooltipComponent, LegendComponent, DataZoomComponent, MarkLineComponent, MarkAreaComponent];

/** The component every time-series type draws with; a click selects the point's x value and group. */
export default function TimeseriesChart({ transformed, width, height, theme, onRendered, onRenderError, onDataPointClick }: ChartProps<TimeseriesProps>) {
  const click = (params: any, isContextMenu: boolean) => {
    if (!onDataPointClick) return;
    const x = Array.isArray(params.value) ? params.value[0] : params.name;
    const group = transformed.seriesGroups[params.seriesName] ?? [];
    const filters = [
      { col: transformed.xColumn, op: transformed.isTime ? ('TEMPORAL_RANGE' as const) : ('==' as const), val: x },
      ...transformed.groupby.map((col, i) => ({ col, op: '==' as const, val: group[i] })),
    ];
    params.event?.event?.preventDefault?.();
    onDataPointClick({ filters, clientX: params.event?.event?.clientX ?? 0, clientY: params.event?.event?.clientY ?? 0, isContextMenu });
  };
  return (
    <EChart
      option={transformed.option}
      use={PARTS}
      width={width}
      height={height}
      theme={theme}
      onRendered={onRendered}
      onRenderError={onRenderError}
      onEvents={{ click: (p) => click(p, false), contextmenu: (p) => click(p, true) }}
    />
  );
}
