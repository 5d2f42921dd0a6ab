import type { ComponentType } from 'react';
import type { ChartProps, DataPointClick } from '../types';
import { EChart } from './EChart';

/** What most ECharts types' transformProps answer: the option, and how a clicked item maps to filters. */
export interface EChartsTransformed {
  option: Record<string, any>;
  /** The columns a click filters on, in order. */
  groupby: string[];
  /** Each clickable item's name → its values of `groupby`. */
  groups: Record<string, unknown[]>;
}

/**
 * The filters that select a clicked item: its values of the group-by columns, as far as it goes. A hierarchy's
 * inner node (a sunburst's region ring) has values for its own levels only: it filters on those, not on the
 * levels below with no value (they read 'IN [null]', and every chart went empty).
 */
export function clickFilters(transformed: Pick<EChartsTransformed, 'groupby' | 'groups'>, name: string): DataPointClick['filters'] | null {
  const values = transformed.groups[name];
  if (!values) return null;
  return transformed.groupby.slice(0, values.length).map((col, i) => ({ col, op: '==' as const, val: values[i] }));
}

/**
 * The component of an ECharts type: the shared <EChart> with only `parts` registered, and a click (or
 * right-click) on a named item turned into the filters that select it.
 */
export function echartsComponent(parts: readonly unknown[], drawnAfter?: (canvases: HTMLCanvasElement[]) => Promise<void>): ComponentType<ChartProps<EChartsTransformed>> {
  return function EChartsChart({ transformed, width, height, theme, onRendered, onRenderError, onDataPointClick }: ChartProps<EChartsTransformed>) {
    const click = (params: any, isContextMenu: boolean) => {
      const filters = clickFilters(transformed, params.name);
      if (!onDataPointClick || !filters) return;
      params.event?.event?.preventDefault?.();
      onDataPointClick({ filters, clientX: params.event?.event?.clientX ?? 0, clientY: params.event?.event?.clientY ?? 0, isContextMenu });
    };
    return (
      <EChart
        option={transformed.option}
        use={parts as any[]}
        width={width}
        height={height}
        theme={theme}
        onRendered={onRendered}
        onRenderError={onRenderError}
        onEvents={{ click: (p) => click(p, false), contextmenu: (p) => click(p, true) }}
        drawnAfter={drawnAfter}
      />
    );
  };
}

/** Rows of the first query's answer. */
export const rowsOf = (queriesData: any[], index = 0): Record<string, unknown>[] => (queriesData[index]?.data ?? []) as Record<string, unknown>[];
