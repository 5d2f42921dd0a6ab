import { LineChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import { useEffect, useMemo, useRef, useState } from 'react';
import type { ChartProps } from '../../types';
import { EChart } from '../EChart';
import { needsFormula, withAnnotations, type FormulaEvaluator } from './annotations';
import { partsOf, useOptionalParts } from './optional-parts';
import type { TimeseriesProps } from './transform-props';

/** The formula evaluator, loaded the first time a chart has a formula layer; null until then. */
function useFormulaEvaluator(needed: boolean): FormulaEvaluator | null {
  const [evaluate, setEvaluate] = useState<FormulaEvaluator | null>(null);
  useEffect(() => {
    if (!needed || evaluate) return;
    let live = true;
    void import('./formula').then((m) => live && setEvaluate(() => m.evalFormula));
    return () => {
      live = false;
    };
  }, [needed, evaluate]);
  return evaluate;
}

/** What every time-series option uses; bars, scatter points, zoom and markers load when an option needs them. */
const PARTS = [LineChart, GridComponent, TooltipComponent, LegendComponent];

/** The component every time-series type draws with; a click selects the point's x value and group. */
export default function TimeseriesChart({ transformed, width, height, theme, onRendered, onRenderError, onDataPointClick }: ChartProps<TimeseriesProps>) {
  const evaluate = useFormulaEvaluator(needsFormula(transformed.annotations));
  const option = useMemo(() => (transformed.annotations ? withAnnotations(transformed.option, transformed.annotations, evaluate) : transformed.option), [transformed, evaluate]);
  const optional = useOptionalParts(partsOf(option));
  const parts = useMemo(() => (optional ? [...PARTS, ...optional] : null), [optional]);
  // While a newly needed part loads (zoom turned on), the last drawing stays; only a first draw waits blank.
  const lastReady = useRef<{ option: typeof option; parts: unknown[] } | null>(null);
  if (parts) lastReady.current = { option, parts };
  const shown = lastReady.current;
  const click = (params: any, isContextMenu: boolean) => {
    if (!onDataPointClick) return;
    const x = Array.isArray(params.value) ? params.value[transformed.horizontal ? 1 : 0] : params.name;
    const group = transformed.seriesGroups[params.seriesName] ?? [];
    const filters = [
      { col: transformed.xColumn, op: transformed.isTime ? ('TEMPORAL_RANGE' as const) : ('==' as const), val: x },
      ...transformed.groupby.map((col, i) => ({ col, op: '==' as const, val: group[i] })),
    ];
    params.event?.event?.preventDefault?.();
    onDataPointClick({ filters, clientX: params.event?.event?.clientX ?? 0, clientY: params.event?.event?.clientY ?? 0, isContextMenu });
  };
  // A first draw is held back (an empty box of the same size) until the parts its option needs have loaded.
  if (!shown) return <div style={{ width, height }} />;
  // The series drawn, by name, on the element (what the legend lists), for scripts and tests that read the chart.
  return (
    <div data-series={JSON.stringify((shown.option.series as Array<{ name?: string }>).map((s) => s.name))}>
      <EChart
        option={shown.option}
        use={shown.parts}
        width={width}
        height={height}
        theme={theme}
        onRendered={onRendered}
        onRenderError={onRenderError}
        onEvents={{ click: (p) => click(p, false), contextmenu: (p) => click(p, true) }}
      />
    </div>
  );
}
