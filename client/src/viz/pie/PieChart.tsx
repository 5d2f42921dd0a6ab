import { PieChart as EPie } from 'echarts/charts';
import { GraphicComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import { EChart } from '../shared/EChart';
import type { ChartProps } from '../types';
import type { PieProps } from './transform-props';

const PARTS = [EPie, LegendComponent, TooltipComponent, GraphicComponent];

export default function PieChart({ transformed, width, height, theme, onRendered, onRenderError, onDataPointClick }: ChartProps<PieProps>) {
  const click = (params: any, isContextMenu: boolean) => {
    // 'Other' stands for several slices: no one value to filter or drill by.
    const group = transformed.sliceGroups[params.name];
    if (!group) return;
    params.event?.event?.preventDefault?.();
    onDataPointClick?.({
      filters: transformed.groupby.map((col, i) => ({ col, op: '==' as const, val: group[i] })),
      clientX: params.event?.event?.clientX ?? 0,
      clientY: params.event?.event?.clientY ?? 0,
      isContextMenu,
    });
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
