/**
 * Per-column settings (Superset's `column_config` form data: a map from a column's or metric's label to its
 * settings), read by the table and radar charts and written by the ColumnConfigControl.
 *
 *   column_config: { 'SUM(num)': { d3NumberFormat: ',d', horizontalAlign: 'center' }, ds: { d3TimeFormat: '%Y' } }
 */
import type { ControlContext } from '../types';
import type { Currency } from './format';
import { asList, columnLabel, displayNames, metricLabel, type ColumnEntry, type MetricEntry } from './metrics';

/** Superset's keys (SharedColumnConfigProp), plus the radar's min and max. Unset keys fall back to the chart-wide control. */
export interface ColumnConfig {
  d3NumberFormat?: string;
  d3SmallNumberFormat?: string;
  d3TimeFormat?: string;
  currencyFormat?: Currency;
  columnWidth?: number;
  horizontalAlign?: 'left' | 'center' | 'right';
  truncateLongCells?: boolean;
  showCellBars?: boolean;
  alignPositiveNegative?: boolean;
  colorPositiveNegative?: boolean;
  radarMetricMinValue?: number;
  radarMetricMaxValue?: number;
}

export type ColumnConfigKey = keyof ColumnConfig;

/** A column's kind, as Superset's GenericDataType picks the settings it offers. */
export type ColumnKind = 'numeric' | 'temporal' | 'string';

/** The settings each kind of column offers, in rows (Superset's configFormLayout). */
export type ColumnConfigFormLayout = Partial<Record<ColumnKind, ReadonlyArray<ReadonlyArray<ColumnConfigKey>>>>;

/** Superset's DEFAULT_CONFIG_FORM_LAYOUT (the table's). */
export const DEFAULT_CONFIG_FORM_LAYOUT: ColumnConfigFormLayout = {
  string: [['columnWidth', 'horizontalAlign'], ['truncateLongCells']],
  numeric: [['columnWidth', 'horizontalAlign'], ['truncateLongCells'], ['d3NumberFormat'], ['d3SmallNumberFormat'], ['currencyFormat'], ['alignPositiveNegative', 'colorPositiveNegative'], ['showCellBars']],
  temporal: [['columnWidth', 'horizontalAlign'], ['truncateLongCells'], ['d3TimeFormat']],
};

/** The radar's: a min and a max per metric. */
export const RADAR_CONFIG_FORM_LAYOUT: ColumnConfigFormLayout = { numeric: [['radarMetricMinValue', 'radarMetricMaxValue']] };

export interface ColumnConfigColumn {
  /** The key of `column_config` (the label the answer's values come under). */
  key: string;
  /** What the control shows (a saved metric's verbose name). */
  label: string;
  kind: ColumnKind;
}

const NUMERIC_TYPE = /INT|NUM|DEC|FLOAT|DOUBLE|REAL|MONEY/i;

/** Whether a dataset column's type is a number's (the types Superset reads as GenericDataType.NUMERIC). */
export const isNumericType = (type: string | null | undefined): boolean => !!type && NUMERIC_TYPE.test(type);

/**
 * The columns a chart's `column_config` can set, from its form data: group-bys, metrics and percent metrics ('%label')
 * in aggregate mode, the chosen columns in raw mode; or only the metrics (the radar's 'Customize Metrics').
 */
export function columnConfigColumns({ formData: fd, datasource }: ControlContext, only: 'all' | 'metrics' = 'all'): ColumnConfigColumn[] {
  const names = displayNames(datasource);
  const metrics = asList<MetricEntry>(fd.metrics).map((m) => ({ key: metricLabel(m), label: names(metricLabel(m)), kind: 'numeric' as const }));
  if (only === 'metrics') return metrics;
  const dimension = (entry: ColumnEntry): ColumnConfigColumn => {
    const key = columnLabel(entry);
    const column = typeof entry === 'string' ? datasource?.columns.find((c) => c.column_name === entry) : undefined;
    const kind: ColumnKind = column?.is_dttm ? 'temporal' : isNumericType(column?.type) ? 'numeric' : 'string';
    return { key, label: column?.verbose_name || key, kind };
  };
  if (fd.query_mode === 'raw') return asList<ColumnEntry>(fd.all_columns).map(dimension);
  const percent = asList<MetricEntry>(fd.percent_metrics).map((m) => ({ key: `%${metricLabel(m)}`, label: `%${names(metricLabel(m))}`, kind: 'numeric' as const }));
  const all = [...asList<ColumnEntry>(fd.groupby).map(dimension), ...metrics, ...percent];
  return all.filter((c, i) => c.key && all.findIndex((d) => d.key === c.key) === i);
}

/** One column's settings from the form data (an empty object when none). */
export function columnConfigOf(formData: Record<string, unknown>, key: string): ColumnConfig {
  const config = formData.column_config;
  if (!config || typeof config !== 'object' || Array.isArray(config)) return {};
  const entry = (config as Record<string, unknown>)[key];
  return entry && typeof entry === 'object' ? (entry as ColumnConfig) : {};
}

/**
 * The columns a conditional formatting rule can name, as [key, what the picker shows]: a table's numeric columns
 * (group-bys, raw columns, metrics and percent metrics: Superset offers the answer's numeric columns), else the chart's
 * metrics (the pivot's 'metrics', big_number_total's 'metric').
 */
export function conditionalFormattingColumns(ctx: ControlContext): Array<{ value: string; label: string }> {
  if (ctx.formData.viz_type === 'table') return columnConfigColumns(ctx).filter((c) => c.kind === 'numeric').map((c) => ({ value: c.key, label: c.label }));
  const names = displayNames(ctx.datasource);
  const labels = [...asList<MetricEntry>(ctx.formData.metrics), ...asList<MetricEntry>(ctx.formData.metric)].map(metricLabel);
  return [...new Set(labels)].map((key) => ({ value: key, label: names(key) }));
}
