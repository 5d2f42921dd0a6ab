import type { TransformInput } from '../types';
import { categoricalScheme, getCategoricalColor } from '../shared/colors';
import { rowsOf, type EChartsTransformed } from '../shared/echarts-chart';
import { getValueFormatter } from '../shared/format';
import { asList, columnLabel, displayNames, metricLabel, toNumber, type ColumnEntry, type MetricEntry } from '../shared/metrics';
import { chartTheme, echartsBase } from '../shared/theme';

/** Numbers from a comma-separated list ('2, 4,5'); an entry that is not a number makes the whole list empty, as Superset's parseNumbersList failing does. */
export function numbersList(text: unknown): number[] {
  if (typeof text !== 'string' || !text.trim()) return [];
  const numbers = text.split(',').map((part) => (part.trim() === '' ? NaN : Number(part)));
  return numbers.every(Number.isFinite) ? numbers : [];
}

/**
 * The dial's bands from 'Interval bounds' and 'Interval colors', as ECharts' axis line colour stops: each bound as a
 * fraction of the dial, its colour the 1-based pick from the colour scheme (wrapping round it), else the scheme's
 * colour at the band's place. `interval_colors` (Superset's later control: the colours themselves) wins when set.
 * Superset divides each bound by the max; here by the dial's span from the min, which is the same for a dial from 0.
 *
 * @example intervalStops({ intervals: '2,4,5', interval_color_indices: '1,3' }, 0, 5, ['#a', '#b', '#c']) // [[0.4, '#a'], [0.8, '#c'], [1, '#c']]
 */
export function intervalStops(fd: Record<string, unknown>, min: number, max: number, colors: readonly string[]): Array<[number, string]> {
  const bounds = numbersList(fd.intervals);
  const picks = numbersList(fd.interval_color_indices);
  const given = Array.isArray(fd.interval_colors) ? fd.interval_colors.filter((c): c is string => typeof c === 'string' && !!c) : [];
  const span = max - min || 1;
  return bounds.map((bound, i) => {
    const pick = picks[i];
    const color = given[i] ?? (pick !== undefined ? colors[(((pick - 1) % colors.length) + colors.length) % colors.length] : undefined) ?? colors[i % colors.length]!;
    return [(bound - min) / span, color];
  });
}

/**
 * The dial's ends when 'Min' / 'Max' are left empty, as Superset sets them: twice the smallest value (or 0) and twice
 * the largest (or 0), so a single value's pointer stands at the middle of the dial.
 */
export function gaugeRange(values: number[], minVal: unknown, maxVal: unknown): [number, number] {
  const min = toNumber(minVal) ?? 2 * Math.min(0, ...values);
  const max = toNumber(maxVal) ?? 2 * Math.max(0, ...values);
  return [min, max === min ? min + 1 : max];
}

/** One pointer per group (or one for the total) on a dial from min to max, banded by the interval bounds when set. */
export function transformGauge({ formData: fd, queriesData, datasource, theme, width, height }: TransformInput): EChartsTransformed {
  const names = displayNames(datasource);
  const groupby = asList<ColumnEntry>(fd.groupby).map(columnLabel);
  const metric = metricLabel(fd.metric as MetricEntry);
  const numberFormat = getValueFormatter(fd.number_format, fd.currency_format);
  // Superset's 'Value format': text around the number, '{value}' standing for it ('{value} km').
  const valueText = typeof fd.value_formatter === 'string' && fd.value_formatter.includes('{value}') ? fd.value_formatter : '{value}';
  const format = (v: number) => valueText.replace('{value}', numberFormat(v));
  const t = chartTheme(theme);
  const groups: Record<string, unknown[]> = {};
  const data = rowsOf(queriesData).map((row) => {
    const name = groupby.map((g) => String(row[g] ?? 'NULL')).join(', ') || names(metric);
    groups[name] = groupby.map((g) => row[g]);
    const color = getCategoricalColor(fd.color_scheme, name);
    return { name, value: toNumber(row[metric]) ?? 0, itemStyle: { color } };
  });
  const [min, max] = gaugeRange(data.map((d) => d.value), fd.min_val, fd.max_val);
  const size = Math.min(width, height);
  const bands = intervalStops(fd, min, max, categoricalScheme(fd.color_scheme).colors);
  // On a banded dial the ticks, split lines and pointer take the colour of the band they stand on (Superset's 'auto').
  // The labels keep the theme's text colour: in a dark band's colour (the scheme's navy) they were lost on a dark page.
  const banded = bands.length > 0;
  const roundCap = fd.round_cap === true;
  // Superset's 'Font size' sets the labels' size and the bars' width (the value 1.2 times it); unset, they follow the
  // chart's size.
  const fontSize = toNumber(fd.font_size);
  const barWidth = fontSize ?? Math.max(6, size / 30);
  const labelSize = fontSize ?? Math.max(9, size / 40);
  return {
    groupby,
    groups,
    option: {
      ...echartsBase(theme),
      animation: false,
      tooltip: { ...echartsBase(theme).tooltip, trigger: 'item', formatter: (p: any) => `${p.name}: ${format(p.value)}` },
      series: [
        {
          type: 'gauge',
          min,
          max,
          startAngle: Number(fd.start_angle ?? 225),
          endAngle: Number(fd.end_angle ?? -45),
          splitNumber: Number(fd.split_number ?? 10),
          radius: '85%',
          center: ['50%', '55%'],
          progress: { show: fd.show_progress !== false, overlap: fd.overlap !== false, roundCap, width: barWidth },
          axisLine: { roundCap, lineStyle: { width: barWidth, color: banded ? bands : [[1, t.splitLine]] } },
          axisTick: { show: fd.show_axis_tick === true, lineStyle: { color: banded ? 'auto' : t.axisLine } },
          splitLine: { show: fd.show_split_line === true, length: size / 40, lineStyle: { color: banded ? 'auto' : t.axisLine } },
          axisLabel: { color: t.subtleText, distance: Math.max(size / 18, barWidth + 8), fontSize: labelSize, formatter: (v: number) => numberFormat(v) },
          pointer: { show: fd.show_pointer !== false, width: Math.max(3, size / 80), ...(banded ? { itemStyle: { color: 'auto' } } : {}) },
          anchor: { show: true, size: Math.max(6, size / 40), itemStyle: { color: t.axisLine } },
          title: { show: data.length > 1, color: t.text, ...(fontSize ? { fontSize } : {}) },
          detail: { valueAnimation: false, fontSize: fontSize ? fontSize * 1.2 : Math.max(14, size / 12), color: t.text, offsetCenter: [0, '70%'], formatter: (v: number) => format(v) },
          data: data.length > 1 ? data.map((d, i) => ({ ...d, title: { offsetCenter: [`${(i - (data.length - 1) / 2) * 40}%`, '95%'] }, detail: { show: false } })) : data,
        },
      ],
    },
  };
}
