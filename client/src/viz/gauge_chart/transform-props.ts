import type { TransformInput } from '../types';
import { getCategoricalColor } from '../shared/colors';
import { rowsOf, type EChartsTransformed } from '../shared/echarts-chart';
import { getValueFormatter } from '../shared/format';
import { asList, columnLabel, displayNames, metricLabel, toNumber, type ColumnEntry, type MetricEntry } from '../shared/metrics';
import { chartTheme, echartsBase } from '../shared/theme';

/** One pointer per group (or one for the total) on a dial from min to max; the max defaults to the largest value. */
export function transformGauge({ formData: fd, queriesData, datasource, theme, width, height }: TransformInput): EChartsTransformed {
  const names = displayNames(datasource);
  const groupby = asList<ColumnEntry>(fd.groupby).map(columnLabel);
  const metric = metricLabel(fd.metric as MetricEntry);
  const format = getValueFormatter(fd.number_format, fd.currency_format);
  const t = chartTheme(theme);
  const groups: Record<string, unknown[]> = {};
  const data = rowsOf(queriesData).map((row) => {
    const name = groupby.map((g) => String(row[g] ?? 'NULL')).join(', ') || names(metric);
    groups[name] = groupby.map((g) => row[g]);
    const color = getCategoricalColor(fd.color_scheme, name);
    return { name, value: toNumber(row[metric]) ?? 0, itemStyle: { color } };
  });
  const min = toNumber(fd.min_val) ?? 0;
  const largest = Math.max(0, ...data.map((d) => d.value));
  const max = toNumber(fd.max_val) ?? (largest > 0 ? Number((largest * 1.1).toPrecision(2)) : 1);
  const size = Math.min(width, height);
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
          progress: { show: fd.show_progress !== false, overlap: fd.overlap !== false, roundCap: true, width: Math.max(6, size / 30) },
          axisLine: { roundCap: true, lineStyle: { width: Math.max(6, size / 30), color: [[1, t.splitLine]] } },
          axisTick: { show: fd.show_axis_line_ticks === true, lineStyle: { color: t.axisLine } },
          splitLine: { show: fd.show_split_line !== false, length: size / 40, lineStyle: { color: t.axisLine } },
          axisLabel: { color: t.subtleText, distance: size / 18, fontSize: Math.max(9, size / 40), formatter: (v: number) => format(v) },
          pointer: { show: fd.show_pointer !== false, width: Math.max(3, size / 80) },
          anchor: { show: true, size: Math.max(6, size / 40), itemStyle: { color: t.axisLine } },
          title: { show: data.length > 1, color: t.text },
          detail: { valueAnimation: false, fontSize: Math.max(14, size / 12), color: t.text, offsetCenter: [0, '70%'], formatter: (v: number) => format(v) },
          data: data.length > 1 ? data.map((d, i) => ({ ...d, title: { offsetCenter: [`${(i - (data.length - 1) / 2) * 40}%`, '95%'] }, detail: { show: false } })) : data,
        },
      ],
    },
  };
}
