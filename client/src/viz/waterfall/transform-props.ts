import { GenericDataType } from '@meridian/contracts/rules/constants';
import type { TransformInput } from '../types';
import { pickerColor } from '../shared/colors';
import { tickLayoutRotate } from '../shared/label-room';
import { rowsOf, type EChartsTransformed } from '../shared/echarts-chart';
import { getTimeFormatter, getValueFormatter } from '../shared/format';
import { columnLabel, metricLabel, toNumber, toTime, type ColumnEntry, type MetricEntry } from '../shared/metrics';
import { axisStyle, echartsBase, legendStyle } from '../shared/theme';

/** Superset's series colours when none is picked (its increase, decrease and total defaults). */
const WATERFALL_COLORS = { increase: 'rgba(90, 193, 137, 1)', decrease: 'rgba(224, 67, 85, 1)', total: 'rgba(102, 102, 102, 1)' };

/**
 * Each x value's change as a floating bar from the running total (increase or decrease colour),
 * then a Total bar; an invisible stacked series lifts each bar to where the last one ended.
 */
export function transformWaterfall({ formData: fd, queriesData, theme }: TransformInput): EChartsTransformed {
  const result = queriesData[0] ?? {};
  const x = columnLabel(fd.x_axis as ColumnEntry);
  const metric = metricLabel(fd.metric as MetricEntry);
  const isTime = result.coltypes?.[result.colnames?.indexOf(x) ?? -1] === GenericDataType.TEMPORAL;
  const timeFormat = getTimeFormatter(fd.x_axis_time_format);
  const format = getValueFormatter(fd.y_axis_format, fd.currency_format);
  // Rows of the same x (several group-by values) add up to one step.
  const steps = new Map<string, { raw: unknown; value: number; sort: number }>();
  for (const row of rowsOf(queriesData)) {
    const raw = row[x];
    const label = isTime ? timeFormat(toTime(raw)) : String(raw ?? 'NULL');
    const step = steps.get(label) ?? { raw, value: 0, sort: isTime ? (toTime(raw) ?? 0) : steps.size };
    step.value += toNumber(row[metric]) ?? 0;
    steps.set(label, step);
  }
  const ordered = [...steps.entries()].sort((a, b) => a[1].sort - b[1].sort);
  // Superset's series labels: an empty one reads as its default, in the legend, the tooltip and (the total) the axis.
  const totalLabel = String(fd.total_label || 'Total');
  const increaseLabel = String(fd.increase_label || 'Increase');
  const decreaseLabel = String(fd.decrease_label || 'Decrease');
  const showTotal = fd.show_total !== false;
  const categories = [...ordered.map(([l]) => l), ...(showTotal ? [totalLabel] : [])];
  const assist: Array<number | string> = [];
  const increase: Array<number | string> = [];
  const decrease: Array<number | string> = [];
  const total: Array<number | string> = [];
  let running = 0;
  for (const [, { value }] of ordered) {
    const next = running + value;
    assist.push(Math.min(running, next));
    increase.push(value >= 0 ? value : '-');
    decrease.push(value < 0 ? -value : '-');
    total.push('-');
    running = next;
  }
  if (showTotal) {
    assist.push(0);
    increase.push('-');
    decrease.push('-');
    total.push(running);
  }
  const groups: Record<string, unknown[]> = Object.fromEntries(ordered.map(([label, s]) => [label, [s.raw]]));
  const axis = axisStyle(theme);
  // Superset's keys are x_axis_label / y_axis_label; an earlier Meridian panel stored the x one as x_axis_title.
  const xName = String(fd.x_axis_label || fd.x_axis_title || '');
  const yName = String(fd.y_axis_label || '');
  const rotate = tickLayoutRotate(fd.x_ticks_layout);
  const bar = (name: string, data: Array<number | string>, color: string) => ({ name, type: 'bar', stack: 'waterfall', data, itemStyle: { color }, label: { show: !!fd.show_value, position: 'top', formatter: (p: any) => format(p.value) } });
  return {
    groupby: isTime ? [] : [x],
    groups,
    option: {
      ...echartsBase(theme),
      animation: false,
      grid: { top: fd.show_legend === true ? 40 : 20, right: 20, bottom: xName ? 44 : 28, left: yName ? 56 : 16, containLabel: true },
      // Superset's waterfall shows no legend unless 'Show legend' is ticked.
      legend: { ...legendStyle(theme, { show: fd.show_legend === true }), data: [increaseLabel, decreaseLabel, ...(showTotal ? [totalLabel] : [])] },
      tooltip: { ...echartsBase(theme).tooltip, trigger: 'axis', axisPointer: { type: 'shadow' }, formatter: (ps: any[]) => { const p = ps.find((s) => s.seriesName !== 'assist' && s.value !== '-'); return p ? `${p.name}<br/>${p.seriesName}: ${format(p.seriesName === decreaseLabel ? -p.value : p.value)}` : ''; } },
      xAxis: { ...axis, type: 'category', data: categories, name: xName || undefined, nameLocation: 'middle', nameGap: 28, splitLine: { show: false }, axisLabel: { ...axis.axisLabel, ...(rotate === undefined ? {} : { rotate, interval: 0 }) } },
      yAxis: { ...axis, type: 'value', name: yName || undefined, nameLocation: 'middle', nameGap: 52, axisLabel: { ...axis.axisLabel, formatter: (v: number) => format(v) } },
      series: [
        { name: 'assist', type: 'bar', stack: 'waterfall', data: assist, itemStyle: { color: 'transparent' }, emphasis: { disabled: true }, tooltip: { show: false } },
        bar(increaseLabel, increase, pickerColor(fd.increase_color, WATERFALL_COLORS.increase)),
        bar(decreaseLabel, decrease, pickerColor(fd.decrease_color, WATERFALL_COLORS.decrease)),
        ...(showTotal ? [bar(totalLabel, total, pickerColor(fd.total_color, WATERFALL_COLORS.total))] : []),
      ],
    },
  };
}
