import { GenericDataType } from '@meridian/contracts/rules/constants';
import type { FormData, TransformInput } from '../types';
import { getNumberFormatter, getTimeFormatter, getValueFormatter } from '../shared/format';
import { asList, metricLabel, toNumber, toTime, type MetricEntry } from '../shared/metrics';
import { chartTheme } from '../shared/theme';
import { pickerColor, PRIMARY_RGBA } from '../shared/colors';
import { ruleMatches, type FormattingRule } from '../shared/conditional-formatting';

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
  /** The latest period's time, shown above the number with 'Show Timestamp'; null when not shown. */
  timestamp: string | null;
  /** The number's colour from the first conditional formatting rule its value meets (big_number_total), or null. */
  color: string | null;
}

/** The 'Date format' (Superset's time_format); charts saved here before it existed kept it in x_axis_time_format. */
const timeFormatOf = (fd: FormData) => (fd.time_format ?? fd.x_axis_time_format) as string | undefined;

/**
 * How the number reads: as a date with 'Force date format', or when the metric gives times or text (its coltype);
 * else in the number format with the currency (Superset's headerFormatter).
 */
function headerFormatter(fd: FormData, coltype: number | undefined): (value: number) => string {
  if (fd.force_timestamp_formatting || coltype === GenericDataType.TEMPORAL || coltype === GenericDataType.STRING) {
    const time = getTimeFormatter(timeFormatOf(fd));
    return (value) => time(value);
  }
  return getValueFormatter(fd.y_axis_format, fd.currency_format);
}

/** The colour of the first conditional formatting rule on the metric that the value meets (Superset's colorThresholdFormatters). */
function numberColor(conditionalFormatting: unknown, metric: string, value: number | null): string | null {
  if (value === null) return null;
  const rule = asList<FormattingRule>(conditionalFormatting as FormattingRule[] | null | undefined).find((r) => r && r.colorScheme && (!r.column || r.column === metric) && ruleMatches(r, value));
  return rule ? rule.colorScheme : null;
}

/** big_number_total: one value, formatted. */
export function transformBigNumberTotal({ formData: fd, queriesData }: TransformInput): BigNumberProps {
  const metric = metricLabel(fd.metric as MetricEntry);
  const answer = queriesData[0];
  const raw = answer?.data?.[0]?.[metric];
  const coltype = answer?.coltypes?.[answer.colnames?.indexOf(metric) ?? 0] ?? answer?.coltypes?.[0];
  const value = coltype === GenericDataType.TEMPORAL ? toTime(raw) : toNumber(raw);
  return {
    bigNumber: value === null ? null : headerFormatter(fd, coltype)(value),
    color: numberColor(fd.conditional_formatting, metric, value),
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
  const header = headerFormatter(fd, queriesData[0]?.coltypes?.[colnames.indexOf(metric)]);
  const timeFormat = getTimeFormatter(timeFormatOf(fd));
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
  // 'Fixed Color' (color_picker): the line and its area, without the stored alpha (Superset's mainColor is rgb()).
  const stored = fd.color_picker && typeof fd.color_picker === 'object' ? { ...(fd.color_picker as object), a: 1 } : undefined;
  const color = pickerColor(stored, pickerColor(PRIMARY_RGBA, ''));
  // 'Fix to selected Time Range': the line spans the range asked for, not only the periods that have rows.
  const answer = queriesData[0];
  const fixed = !!fd.time_range_fixed && fd.time_range && fd.time_range !== 'No filter' ? { min: answer?.from_dttm ?? undefined, max: answer?.to_dttm ?? undefined } : {};
  const trendline =
    fd.show_trend_line === false || points.length < 2
      ? null
      : {
          animation: false,
          grid: { top: 4, bottom: 4, left: 4, right: 4 },
          xAxis: { type: 'time', show: false, ...fixed },
          yAxis: { type: 'value', show: false, min: fd.start_y_axis_at_zero === false ? 'dataMin' : 0 },
          tooltip: {
            trigger: 'axis',
            backgroundColor: t.tooltipBackground,
            borderColor: t.tooltipBorder,
            textStyle: { color: t.text, fontSize: 12 },
            formatter: (p: any) => `${timeFormat(p[0].value[0])}: ${format(p[0].value[1])}`,
          },
          series: [{ type: 'line', data: points, showSymbol: false, smooth: false, lineStyle: { color, width: 2 }, areaStyle: { color, opacity: 0.15 } }],
        };
  return {
    bigNumber: last ? header(last[1]!) : null,
    subheader: String(fd.subheader ?? ''),
    comparison,
    headerFontSize: Number(fd.header_font_size ?? 0.4),
    subheaderFontSize: Number(fd.subheader_font_size ?? 0.15),
    trendline,
    timestamp: last && fd.show_timestamp ? timeFormat(last[0]) : null,
    color: null,
  };
}
