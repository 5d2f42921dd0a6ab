import type { TransformInput } from '../types';
import { getNumberFormatter, getTimeFormatter, getValueFormatter } from '../shared/format';
import { metricLabel, toNumber, toTime, type MetricEntry } from '../shared/metrics';
import { chartTheme } from '../shared/theme';

export interface BigNumberProps {
  /** The formatted number, or null when there is no data. */
  bigNumber: string | null;
  subheader: string;
  /** e.g. '+12.5% WoW', coloured by sign. */
  comparison: { text: string; positive: boolean } | null;
  headerFontSize: number;
  subheaderFontSize: number;
  /** The trendline's ECharts option, or null without a trendline. */
  trendline: Record<string, any> | null;
  timestamp: string | null;
}

/** big_number_total: one value, formatted. */
export function transformBigNumberTotal({ formData: fd, queriesData }: TransformInput): BigNumberProps {
  const metric = metricLabel(fd.metric as MetricEntry);
  const value = toNumber(queriesData[0]?.data?.[0]?.[metric]);
  return {
    bigNumber: value === null ? null : getValueFormatter(fd.y_axis_format, fd.currency_format)(value),
    subheader: String(fd.subheader ?? ''),
    comparison: null,
    headerFontSize: Number(fd.header_font_size ?? 0.4),
    subheaderFontSize: Number(fd.subheader_font_size ?? 0.15),
    trendline: null,
    timestamp: null,
  };
}

/**
 * big_number: the latest value of the metric over time, its change against `compare_lag` periods back
 * (Superset's compare_suffix), and a trendline of every period.
 */
export function transformBigNumber({ formData: fd, queriesData, theme }: TransformInput): BigNumberProps {
  const metric = metricLabel(fd.metric as MetricEntry);
  const rows = (queriesData[0]?.data ?? []) as Record<string, unknown>[];
  const colnames: string[] = queriesData[0]?.colnames ?? [];
  const xColumn = colnames.find((c) => c !== metric) ?? '__timestamp';
  const points = rows
    .map((row) => [toTime(row[xColumn]), toNumber(row[metric])] as [number | null, number | null])
    .filter((p): p is [number, number | null] => p[0] !== null)
    .sort((a, b) => a[0] - b[0]);
  // The number and its trendline's tooltip carry the currency; the change in percent does not (Superset's).
  const format = getValueFormatter(fd.y_axis_format, fd.currency_format);
  const last = [...points].reverse().find((p) => p[1] !== null);
  const lag = Number(fd.compare_lag ?? 0);
  let comparison: BigNumberProps['comparison'] = null;
  if (last && lag > 0) {
    const index = points.indexOf(last) - lag;
    const before = index >= 0 ? points[index]![1] : null;
    if (before !== null && before !== 0) {
      const change = (last[1]! - before) / Math.abs(before);
      comparison = { text: `${getNumberFormatter('+.1%')(change)} ${fd.compare_suffix ?? ''}`.trim(), positive: change >= 0 };
    }
  }
  const t = chartTheme(theme);
  const color = '#1FA8C9';
  const trendline =
    fd.show_trend_line === false || points.length < 2
      ? null
      : {
          animation: false,
          grid: { top: 4, bottom: 4, left: 4, right: 4 },
          xAxis: { type: 'time', show: false },
          yAxis: { type: 'value', show: false, min: fd.start_y_axis_at_zero === false ? 'dataMin' : 0 },
          tooltip: {
            trigger: 'axis',
            backgroundColor: t.tooltipBackground,
            borderColor: t.tooltipBorder,
            textStyle: { color: t.text, fontSize: 12 },
            formatter: (p: any) => `${getTimeFormatter(fd.x_axis_time_format)(p[0].value[0])}: ${format(p[0].value[1])}`,
          },
          series: [{ type: 'line', data: points, showSymbol: false, smooth: false, lineStyle: { color, width: 2 }, areaStyle: { color, opacity: 0.15 } }],
        };
  return {
    bigNumber: last ? format(last[1]) : null,
    subheader: String(fd.subheader ?? ''),
    comparison,
    headerFontSize: Number(fd.header_font_size ?? 0.4),
    subheaderFontSize: Number(fd.subheader_font_size ?? 0.15),
    trendline,
    timestamp: last ? getTimeFormatter(fd.x_axis_time_format)(last[0]) : null,
  };
}
