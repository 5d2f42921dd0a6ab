/**
 * Annotation layers drawn on a time-series chart, as Superset's ECharts time series draws them: a formula
 * as a smooth line over the chart's x values, events as vertical mark lines, intervals as shaded mark
 * areas, and a line chart's series as extra lines. Data comes from `annotation_data` by layer name
 * (NATIVE: `{columns, records}` of start_dttm/end_dttm/short_descr/long_descr; a chart: `{records}`, its rows).
 */
import type { AnnotationLayer } from '@meridian/contracts/explore/annotations';
import { getCategoricalColor } from '../colors';
import { escapeHtml } from '../format';
import { toNumber, toTime } from '../metrics';

/** Evaluates a formula at x (loaded from `./formula` only when a chart has a formula layer). */
export type FormulaEvaluator = (expression: string, x: number) => number | null;

const OPACITY: Record<string, number> = { opacityLow: 0.2, opacityMedium: 0.5, opacityHigh: 0.8 };
const LINE_TYPE: Record<string, string | number[]> = { solid: 'solid', dashed: 'dashed', longDashed: [12, 6], dotted: 'dotted' };

type Row = Record<string, unknown>;

interface Marker {
  label: string;
  start: number;
  end: number | null;
  description: string;
}

/** Events or intervals of one layer's answer: NATIVE records by their fixed columns, a table's rows by the layer's columns. */
function markersOf(layer: AnnotationLayer, answer: unknown): Marker[] {
  const records = ((answer as { records?: Row[] } | null)?.records ?? []) as Row[];
  const native = layer.sourceType === 'NATIVE';
  const out: Marker[] = [];
  for (const r of records) {
    const start = toTime(native ? r.start_dttm : r[layer.timeColumn ?? '']);
    if (start === null) continue;
    const end = toTime(native ? r.end_dttm : layer.intervalEndColumn ? r[layer.intervalEndColumn] : null);
    const label = String((native ? r.short_descr : layer.titleColumn ? r[layer.titleColumn] : '') ?? '');
    const description = native ? String(r.long_descr ?? '') : (layer.descriptionColumns ?? []).map((c) => String(r[c] ?? '')).join('\n');
    out.push({ label, start, end, description });
  }
  return out;
}

/** The source chart's rows as lines: x from its first time-valued column, one line per numeric column. */
function timeseriesOf(layer: AnnotationLayer, answer: unknown): Array<{ name: string; points: Array<[number, number | null]> }> {
  const records = ((answer as { records?: Row[] } | null)?.records ?? []) as Row[];
  if (!records.length) return [];
  const columns = Object.keys(records[0]!);
  const xColumn = columns.find((c) => records.every((r) => r[c] === null || toTime(r[c]) !== null) && records.some((r) => (toTime(r[c]) ?? 0) > 1e11));
  if (!xColumn) return [];
  const valueColumns = columns.filter((c) => c !== xColumn && records.some((r) => typeof r[c] === 'number'));
  return valueColumns.map((c) => ({
    name: valueColumns.length > 1 ? `${layer.name}, ${c}` : layer.name,
    points: records.map((r) => [toTime(r[xColumn]) ?? 0, toNumber(r[c])] as [number, number | null]).sort((a, b) => a[0] - b[0]),
  }));
}

/**
 * The ECharts series that draw the shown layers; `xValues` are the chart's own x values (a formula is
 * evaluated at each). Returns the series and the legend names they add (formulas and time series).
 */
export function annotationSeries(
  layers: unknown,
  annotationData: Record<string, unknown>,
  ctx: { isTime: boolean; xValues: number[]; colorScheme?: string; textColor: string; evaluate?: FormulaEvaluator | null },
): { series: Array<Record<string, any>>; legend: string[] } {
  const series: Array<Record<string, any>> = [];
  const legend: string[] = [];
  if (!ctx.isTime || !Array.isArray(layers)) return { series, legend };
  for (const layer of layers as AnnotationLayer[]) {
    if (!layer || layer.show === false || !layer.name) continue;
    const color = layer.color || getCategoricalColor(ctx.colorScheme, layer.name);
    const lineStyle = { color, width: Number(layer.width ?? 1), type: LINE_TYPE[layer.style ?? 'solid'] ?? 'solid', opacity: OPACITY[layer.opacity ?? ''] ?? 1 };
    if (layer.annotationType === 'FORMULA') {
      const evaluate = ctx.evaluate;
      if (!evaluate) continue;
      legend.push(layer.name);
      series.push({ id: `formula-${layer.name}`, name: layer.name, type: 'line', smooth: true, showSymbol: false, itemStyle: { color }, lineStyle, data: ctx.xValues.map((x) => [x, evaluate(String(layer.value ?? ''), x)]) });
      continue;
    }
    const answer = annotationData[layer.name];
    if (answer === undefined) continue;
    if (layer.annotationType === 'TIME_SERIES') {
      for (const line of timeseriesOf(layer, answer)) {
        legend.push(line.name);
        series.push({ id: `timeseries-${line.name}`, name: line.name, type: 'line', showSymbol: !!layer.showMarkers, itemStyle: { color }, lineStyle: { ...lineStyle, width: layer.hideLine ? 0 : lineStyle.width }, data: line.points });
      }
      continue;
    }
    const markers = markersOf(layer, answer);
    const label = { show: !!layer.showLabel, color: ctx.textColor, formatter: (p: { name: string }) => p.name };
    const tooltip = { formatter: (p: { name: string; data?: { description?: string } }) => [`<b>${escapeHtml(layer.name)}</b>`, escapeHtml(p.name), escapeHtml(p.data?.description ?? '')].filter(Boolean).join('<br/>') };
    if (layer.annotationType === 'INTERVAL') {
      series.push({
        id: `interval-${layer.name}`,
        name: layer.name,
        type: 'line',
        data: [],
        tooltip,
        markArea: {
          silent: false,
          itemStyle: { color, opacity: OPACITY[layer.opacity ?? ''] ?? 0.2 },
          label: { ...label, position: 'insideTop' },
          emphasis: { label: { show: true } },
          data: markers.map((m) => [{ name: m.label, xAxis: m.start, description: m.description }, { xAxis: m.end ?? m.start }]),
        },
      });
    } else {
      series.push({
        id: `event-${layer.name}`,
        name: layer.name,
        type: 'line',
        data: [],
        tooltip,
        markLine: {
          silent: false,
          symbol: 'none',
          lineStyle,
          label: { ...label, position: 'insideEndTop' },
          emphasis: { label: { show: true } },
          data: markers.map((m) => ({ name: m.label, xAxis: m.start, description: m.description })),
        },
      });
    }
  }
  return { series, legend };
}


/** What a time-series answer hands its component to draw the layers with. */
export interface AnnotationInput {
  layers: AnnotationLayer[];
  data: Record<string, unknown>;
  xValues: number[];
  colorScheme?: string;
  textColor: string;
  /** The chart's own series names, and whether the legend may show. */
  seriesNames: string[];
  legendAllowed: boolean;
}

/** Whether drawing the layers needs the formula evaluator. */
export const needsFormula = (input: AnnotationInput | null): boolean => !!input?.layers.some((l) => l?.annotationType === 'FORMULA' && l.show !== false);

/** The chart's option with the layers' series added, and their names in a legend shown once there is more than one name. */
export function withAnnotations(option: Record<string, any>, input: AnnotationInput, evaluate: FormulaEvaluator | null): Record<string, any> {
  const { series, legend } = annotationSeries(input.layers, input.data, { isTime: true, xValues: input.xValues, colorScheme: input.colorScheme, textColor: input.textColor, evaluate });
  if (!series.length) return option;
  const names = [...input.seriesNames, ...legend];
  const showLegend = input.legendAllowed && names.length > 1;
  return {
    ...option,
    series: [...option.series, ...series],
    legend: { ...option.legend, show: showLegend, data: names },
    grid: { ...option.grid, top: showLegend ? 40 : option.grid.top },
  };
}
