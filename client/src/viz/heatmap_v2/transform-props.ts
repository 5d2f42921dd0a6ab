import { GenericDataType } from '@meridian/contracts/rules/constants';
import type { TransformInput } from '../types';
import { getSequentialColors } from '../shared/colors';
import { rowsOf, type EChartsTransformed } from '../shared/echarts-chart';
import { getNumberFormatter, getTimeFormatter, getValueFormatter } from '../shared/format';
import { axisBounds } from '../shared/axis-bounds';
import { extent } from '../shared/extent';
import { widestLabel } from '../shared/label-room';
import { columnLabel, displayNames, metricLabel, toNumber, type ColumnEntry, type MetricEntry } from '../shared/metrics';
import { axisStyle, chartTheme, echartsBase } from '../shared/theme';

/** The colour scale's offset from the right edge, its bar's width, and its drag handles with their gap to the labels. */
const VISUAL_MAP_RIGHT = 28;
const VISUAL_MAP_BAR = 20;
const VISUAL_MAP_HANDLE = 34;
const GRID_LEFT = 16;

/**
 * The x-axis labels of columns `columnWidth` pixels wide: level while the widest fits its column, else turned 45°, and
 * then each shown while a turned label (about a line high across) has room, rather than every other one hidden.
 */
export function columnLabels(labels: string[], columnWidth: number): { rotate: number; interval: number | 'auto' } {
  if (widestLabel(labels) <= columnWidth - 4) return { rotate: 0, interval: 'auto' };
  return { rotate: 45, interval: columnWidth >= 14 ? 0 : 'auto' };
}

/** Superset's 'Sort X Axis' / 'Sort Y Axis' choices. */
export const SORT_AXIS_CHOICES = [['alpha_asc', 'Axis ascending'], ['alpha_desc', 'Axis descending'], ['value_asc', 'Metric ascending'], ['value_desc', 'Metric descending']] as const;

/**
 * An axis's values in the order 'Sort X/Y Axis' asks for, as Superset sorts them: by the axis's own values (numbers
 * as numbers, else text with numbers in it compared as numbers), or by the metric summed over the axis value's cells.
 * No option keeps the order of the answer.
 */
export function sortAxisValues(values: unknown[], rows: Record<string, unknown>[], sort: unknown, column: string, metric: string): unknown[] {
  if (typeof sort !== 'string' || !sort) return values;
  const ascending = sort.includes('asc');
  if (sort.includes('value')) {
    const sums = new Map<unknown, number>();
    for (const r of rows) if (typeof r[metric] === 'number') sums.set(r[column], (sums.get(r[column]) ?? 0) + (r[metric] as number));
    return [...values].sort((a, b) => ((sums.get(a) ?? 0) - (sums.get(b) ?? 0)) * (ascending ? 1 : -1));
  }
  return [...values].sort((a, b) => {
    const x = typeof a === 'number' ? a : Number(a);
    const y = typeof b === 'number' ? b : Number(b);
    const order = Number.isFinite(x) && Number.isFinite(y) && a !== '' && b !== '' ? x - y : String(a).localeCompare(String(b), undefined, { numeric: true });
    return ascending ? order : -order;
  });
}

/**
 * Each value's percentile rank among its peers, as pandas' rank(pct=True) that Superset's heatmap asks for: its place
 * in ascending order (ties share their average place) over the number of values; a missing value has none.
 *
 * @example percentRanks([10, 30, 20, 20]) // [0.25, 1, 0.625, 0.625]
 */
export function percentRanks(values: Array<number | null>): Array<number | null> {
  const present = values.map((v, i) => [v, i] as const).filter((e): e is readonly [number, number] => e[0] !== null).sort((a, b) => a[0] - b[0]);
  const ranks: Array<number | null> = values.map(() => null);
  for (let start = 0; start < present.length; ) {
    let end = start;
    while (end + 1 < present.length && present[end + 1]![0] === present[start]![0]) end++;
    const average = (start + end) / 2 + 1;
    for (let k = start; k <= end; k++) ranks[present[k]![1]] = average / present.length;
    start = end + 1;
  }
  return ranks;
}

/** A margin control's value ('auto' or pixels, typed or chosen) as pixels, or undefined for 'auto'. */
export const marginPixels = (value: unknown): number | undefined => (value === null || value === undefined || value === '' || value === 'auto' || !Number.isFinite(Number(value)) ? undefined : Number(value));

/** An 'XScale/YScale Interval' as ECharts' label interval: -1 is automatic, n shows every n-th label. */
export const scaleInterval = (value: unknown): number | 'auto' => (value === null || value === undefined || Number(value) === -1 || !Number.isFinite(Number(value)) ? 'auto' : Math.max(0, Number(value) - 1));

/** A cell per (x, y) coloured by the metric on a sequential scale; normalised across x, y or the heatmap. */
export function transformHeatmap({ formData: fd, queriesData, datasource, theme, width }: TransformInput): EChartsTransformed {
  const names = displayNames(datasource);
  const result = queriesData[0] ?? {};
  const xCol = columnLabel(fd.x_axis as ColumnEntry);
  const yCol = columnLabel((Array.isArray(fd.groupby) ? fd.groupby[0] : fd.groupby) as ColumnEntry);
  const metric = metricLabel(fd.metric as MetricEntry);
  const xTime = result.coltypes?.[result.colnames?.indexOf(xCol) ?? -1] === GenericDataType.TEMPORAL;
  const timeFormat = getTimeFormatter(fd.x_axis_time_format);
  const format = getValueFormatter(fd.y_axis_format, fd.currency_format);
  const label = (v: unknown, time: boolean) => (v === null || v === undefined ? 'NULL' : time ? timeFormat(Number(v)) : String(v));
  const rows = rowsOf(queriesData);
  // Each axis's distinct values, in the order 'Sort X/Y Axis' asks for (Superset's default: the axis ascending).
  const distinct = (col: string) => [...new Set(rows.map((r) => r[col]))];
  const sortOf = (v: unknown) => (v === undefined ? 'alpha_asc' : v);
  const xs = [...new Set(sortAxisValues(distinct(xCol), rows, sortOf(fd.sort_x_axis), xCol, metric).map((v) => label(v, xTime)))];
  const ys = [...new Set(sortAxisValues(distinct(yCol), rows, sortOf(fd.sort_y_axis), yCol, metric).map((v) => label(v, false)))];
  const values = rows.map((r) => toNumber(r[metric]));
  // Each row's x and y labels, formatted once: they key its peers, its share and its cell.
  const rowX = rows.map((r) => label(r[xCol], xTime));
  const rowY = rows.map((r) => label(r[yCol], false));
  // Superset's normalize_across: 'Normalized' colours each cell by its percentile rank within its x column, y row or
  // the whole heatmap; the tooltip's percentage is its share of the same.
  const across = String(fd.normalize_across ?? 'heatmap');
  const peersOf = (i: number) => (across === 'x' ? rowX[i]! : across === 'y' ? rowY[i]! : '');
  const peerGroups = new Map<string, number[]>();
  const totals = new Map<string, number>();
  rows.forEach((_, i) => {
    const peers = peersOf(i);
    totals.set(peers, (totals.get(peers) ?? 0) + (values[i] ?? 0));
    const members = peerGroups.get(peers);
    if (members) members.push(i);
    else peerGroups.set(peers, [i]);
  });
  const ranks: Array<number | null> = rows.map(() => null);
  if (fd.normalized) {
    for (const members of peerGroups.values()) {
      const rankOf = percentRanks(members.map((i) => values[i] ?? null));
      members.forEach((row, k) => (ranks[row] = rankOf[k]!));
    }
  }
  // The cell's share of its x column, y row or the heatmap, with what it is a share of (Superset's tooltip percentage).
  const share = new Map<string, string>();
  const percent = getNumberFormatter('.2%');
  rows.forEach((_, i) => {
    const peers = peersOf(i);
    const total = totals.get(peers) ?? 0;
    share.set(`${rowX[i]}\u0000${rowY[i]}`, `${percent(total ? (values[i] ?? 0) / total : 0)} (${peers || 'heatmap'})`);
  });
  // A cell is [x, y, metric], and its rank fourth when normalised (the colour scale then reads that dimension); the
  // axis positions come from maps, not a scan of the axis per cell.
  const xIndex = new Map(xs.map((x, k) => [x, k]));
  const yIndex = new Map(ys.map((y, k) => [y, k]));
  const data = rows.map((_, i) => [xIndex.get(rowX[i]!) ?? -1, yIndex.get(rowY[i]!) ?? -1, values[i], ...(fd.normalized ? [ranks[i]] : [])]);
  const [dataMin, dataMax] = extent(fd.normalized ? ranks : values.map((v) => v ?? 0), [0, 1]);
  // 'Value bounds' fix the colour scale's ends; an empty side follows the data.
  const [lo, hi] = axisBounds(fd.value_bounds);
  const min = lo ?? dataMin;
  const max = hi ?? dataMax;
  const scaleLabel = (v: number) => (fd.normalized ? getNumberFormatter('.0%')(v) : format(v));
  const piecewise = fd.legend_type === 'piecewise';
  const showLegend = fd.show_legend !== false;
  // The colour scale's labels stand beside its bar (or its pieces' swatches): the grid ends before the longest of them.
  const scaleText = piecewise ? widestLabel([`${scaleLabel(min)} - ${scaleLabel(max)}`]) : widestLabel([scaleLabel(min), scaleLabel(max)]);
  const scaleRoom = showLegend ? VISUAL_MAP_RIGHT + VISUAL_MAP_BAR + (piecewise ? 10 : VISUAL_MAP_HANDLE) + scaleText + 8 : 20;
  const left = marginPixels(fd.left_margin) ?? GRID_LEFT;
  const axis = axisStyle(theme);
  const t = chartTheme(theme);
  const groups: Record<string, unknown[]> = {};
  const xLabels = columnLabels(xs, (width - left - widestLabel(ys) - scaleRoom) / Math.max(xs.length, 1));
  const xInterval = scaleInterval(fd.xscale_interval);
  return {
    groupby: [],
    groups,
    option: {
      ...echartsBase(theme),
      animation: false,
      // The colour scale stands at the right, clear of the rotated x-axis labels.
      grid: { top: 24, right: scaleRoom, bottom: marginPixels(fd.bottom_margin) ?? 16, left, containLabel: true },
      tooltip: {
        ...echartsBase(theme).tooltip,
        formatter: (p: any) => {
          const x = xs[p.value[0]];
          const y = ys[p.value[1]];
          const value = format(p.value[2]);
          const pct = fd.show_percentage !== false ? ` · ${share.get(`${x}\u0000${y}`) ?? ''}` : '';
          return `${x} · ${y}<br/>${names(metric)}: ${value}${pct}`;
        },
      },
      xAxis: { ...axis, type: 'category', data: xs, splitArea: { show: false }, axisLabel: { ...axis.axisLabel, ...xLabels, ...(xInterval === 'auto' ? {} : { interval: xInterval }) } },
      yAxis: { ...axis, type: 'category', data: ys, splitArea: { show: false }, axisLabel: { ...axis.axisLabel, interval: scaleInterval(fd.yscale_interval) } },
      visualMap: {
        type: piecewise ? 'piecewise' : 'continuous',
        dimension: fd.normalized ? 3 : 2,
        show: showLegend,
        min,
        max,
        calculable: true,
        orient: 'vertical',
        right: VISUAL_MAP_RIGHT,
        itemWidth: piecewise ? 14 : VISUAL_MAP_BAR,
        top: 'middle',
        itemHeight: piecewise ? 14 : 140,
        textStyle: { color: t.subtleText },
        formatter: piecewise ? (lo: number, hi: number) => `${scaleLabel(lo)} - ${scaleLabel(hi)}` : scaleLabel,
        inRange: { color: getSequentialColors(fd.linear_color_scheme, 9, theme) },
      },
      series: [{ type: 'heatmap', data, label: { show: !!fd.show_values, formatter: (p: any) => format(p.value[2]) }, itemStyle: { borderColor: t.tooltipBackground, borderWidth: 1 } }],
    },
  };
}
