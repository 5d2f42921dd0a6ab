/**
 * Superset's 'Advanced analytics' of the time-series charts: a rolling window or cumulative sum, time comparison
 * (time shifts drawn as their values, or as the difference, percentage change or ratio to the main series) and
 * resampling. The controls as data, and the post-processing operations of Superset's rollingWindowOperator,
 * timeCompareOperator and resampleOperator, run on the rows pivoted to one column per metric and group.
 */
import { COMPARISON_TYPES, ROLLING_TYPES, formatChoicesForComparison, validateRollingOptions, type ComparisonType } from '@meridian/contracts/rules/validators';
import type { ControlContext, ControlPanelSection, FormData } from '../../types';
import { NUMBER_FORMAT_OPTIONS } from '../format';
import { asList, columnLabel, metricLabel, type ColumnEntry, type MetricEntry } from '../metrics';

/** Superset's TIME_COMPARISON_SEPARATOR: 'SUM(num)__1 year ago', 'difference__SUM(num)__SUM(num)__1 year ago'. */
export const TIME_COMPARISON_SEPARATOR = '__';

export const TIME_SHIFTS = ['1 day ago', '1 week ago', '28 days ago', '30 days ago', '52 weeks ago', '1 year ago', '104 weeks ago', '2 years ago', '156 weeks ago', '3 years ago'] as const;

const RESAMPLE_RULES = [
  ['1T', '1 minutely frequency'],
  ['1H', '1 hourly frequency'],
  ['1D', '1 calendar day frequency'],
  ['7D', '7 calendar day frequency'],
  ['1MS', '1 month start frequency'],
  ['1M', '1 month end frequency'],
  ['1AS', '1 year start frequency'],
  ['1A', '1 year end frequency'],
] as const;

const RESAMPLE_METHODS = [
  ['asfreq', 'Null imputation'],
  ['zerofill', 'Zero imputation'],
  ['linear', 'Linear interpolation'],
  ['ffill', 'Forward values'],
  ['bfill', 'Backward values'],
  ['median', 'Median values'],
  ['mean', 'Mean values'],
  ['sum', 'Sum values'],
] as const;

const COMPARISON_LABELS: Record<ComparisonType, string> = { values: 'Actual values', difference: 'Difference', percentage: 'Percentage change', ratio: 'Ratio' };

/** 'Calculation type' choices, as Superset names them (the time-series' advanced analytics and the table's time comparison). */
export const COMPARISON_CHOICES = COMPARISON_TYPES.map((t) => [t, COMPARISON_LABELS[t]] as const);

/** The keys of the section; the mixed chart's query B has each with a `_b` suffix (Superset's createAdvancedAnalyticsSection). */
export const ADVANCED_ANALYTICS_KEYS = ['rolling_type', 'rolling_periods', 'min_periods', 'time_compare', 'comparison_type', 'resample_rule', 'resample_method'] as const;

/**
 * The section's values under their plain keys, read from the suffixed twins, so the rules below run on either query.
 *
 * @example advancedAnalyticsOf({ rolling_type: null, rolling_type_b: 'mean' }, '_b') // { rolling_type: 'mean', rolling_periods: undefined, ... }
 */
export function advancedAnalyticsOf(formData: Record<string, unknown>, suffix = ''): Record<string, unknown> {
  return Object.fromEntries(ADVANCED_ANALYTICS_KEYS.map((key) => [key, formData[`${key}${suffix}`]]));
}

/** A rolling window of mean, sum or std (not cumsum) has periods. */
const hasRollingPeriods = (suffix: string) => ({ formData }: ControlContext) => ['mean', 'sum', 'std'].includes(formData[`rolling_type${suffix}`]);

/** Superset's ensureIsInt: the integer a text control holds, else the fallback. */
function toInt(value: unknown, fallback: number): number {
  const n = typeof value === 'number' ? value : Number.parseInt(String(value ?? ''), 10);
  return Number.isFinite(n) ? Math.trunc(n) : fallback;
}

/** The comparison in force: its type when one is chosen and there are time shifts to compare with (Superset's isTimeComparison), else null. */
export function activeComparison(formData: FormData): ComparisonType | null {
  const type = formData.comparison_type as ComparisonType;
  return COMPARISON_TYPES.includes(type) && asList<string>(formData.time_compare).length > 0 ? type : null;
}

const rollingType = (formData: FormData) => (ROLLING_TYPES as readonly string[]).includes(formData.rolling_type) ? (formData.rolling_type as string) : null;
const resampleMethod = (formData: FormData) => (formData.resample_method === 'zerofill' ? 'asfreq' : (formData.resample_method as string | null | undefined)) || null;

/** True when any advanced analytics applies: the answer then comes pivoted, one column per metric (and shift) and group. */
export function usesAdvancedAnalytics(formData: FormData): boolean {
  return !!formData.x_axis && asList(formData.metrics).length > 0 && (!!rollingType(formData) || !!activeComparison(formData) || (!!resampleMethod(formData) && !!formData.resample_rule) || !!contributionOf(formData));
}

/** 'Contribution Mode': 'row' (a share of each x value's total) or 'column' (of each series' total), else none. */
export const contributionOf = (formData: FormData): 'row' | 'column' | null => (formData.contributionMode === 'row' || formData.contributionMode === 'column' ? formData.contributionMode : null);

/** Superset's getMetricOffsetsMap: 'SUM(num)__1 year ago' → 'SUM(num)', for each metric and time shift. */
export function metricOffsetsMap(formData: FormData): Map<string, string> {
  const map = new Map<string, string>();
  for (const metric of asList<MetricEntry>(formData.metrics).map(metricLabel)) {
    for (const offset of asList<string>(formData.time_compare)) map.set([metric, offset].join(TIME_COMPARISON_SEPARATOR), metric);
  }
  return map;
}

/** The columns a pivoted answer names by their first level: each metric, each metric's shifts, or each comparison. */
export function seriesLabels(formData: FormData): string[] {
  const metrics = asList<MetricEntry>(formData.metrics).map(metricLabel);
  const comparison = activeComparison(formData);
  if (!comparison) return metrics;
  const offsets = [...metricOffsetsMap(formData).entries()];
  if (comparison === 'values') return [...metrics, ...offsets.map(([shifted]) => shifted)];
  return offsets.map(([shifted, metric]) => [comparison, metric, shifted].join(TIME_COMPARISON_SEPARATOR));
}

/**
 * What the chart writes for each column of a pivoted answer: the metric's verbose name, also within a shifted or
 * compared column ('Births__1 year ago' for 'sum__num__1 year ago'), so a metric and its shift read alike.
 */
export function seriesDisplayNames(formData: FormData, names: (label: string) => string): (label: string) => string {
  const shown = new Map<string, string>();
  const comparison = activeComparison(formData);
  for (const [shifted, metric] of metricOffsetsMap(formData)) {
    const offset = shifted.slice(metric.length + TIME_COMPARISON_SEPARATOR.length);
    shown.set(shifted, [names(metric), offset].join(TIME_COMPARISON_SEPARATOR));
    if (comparison && comparison !== 'values') shown.set([comparison, metric, shifted].join(TIME_COMPARISON_SEPARATOR), [comparison, names(metric), names(metric), offset].join(TIME_COMPARISON_SEPARATOR));
  }
  return (label) => shown.get(label) ?? names(label);
}

/**
 * The post-processing of the time-series query when advanced analytics apply, in Superset's order: pivot (x-axis as
 * index, one column per metric, shift and group), rolling or cum, compare, resample, flatten. Empty otherwise.
 *
 * @example advancedPostProcessing({ x_axis: 'ds', metrics: ['sum__num'], rolling_type: 'mean', rolling_periods: '3', viz_type: 'line' })
 * // [{ operation: 'pivot', ... }, { operation: 'rolling', options: { rolling_type: 'mean', window: 3, min_periods: 0, columns: { sum__num: 'sum__num' }, is_pivot_df: true } }, { operation: 'flatten' }]
 */
export function advancedPostProcessing(formData: FormData): Array<{ operation: string; options?: Record<string, unknown> }> {
  if (!usesAdvancedAnalytics(formData)) return [];
  const xAxis = columnLabel(formData.x_axis as ColumnEntry);
  const metrics = asList<MetricEntry>(formData.metrics).map(metricLabel);
  const comparison = activeComparison(formData);
  const offsets = metricOffsetsMap(formData);
  const ops: Array<{ operation: string; options?: Record<string, unknown> }> = [];
  // Superset's pivotOperator / timeComparePivotOperator: 'mean' keeps each single value and its nulls.
  const aggregated = comparison ? [...offsets.values(), ...offsets.keys()] : metrics;
  ops.push({
    operation: 'pivot',
    options: {
      index: [xAxis],
      columns: asList<ColumnEntry>(formData.groupby).map(columnLabel).filter((c) => c !== xAxis),
      aggregates: Object.fromEntries([...new Set(aggregated)].map((m) => [m, { operator: 'mean' }])),
      drop_missing_columns: !formData.show_empty_columns,
    },
  });
  const rolling = rollingType(formData);
  if (rolling) {
    const columns = comparison === 'values' ? [...offsets.values(), ...offsets.keys()] : comparison ? seriesLabels(formData) : metrics;
    const columnsMap = Object.fromEntries(columns.map((c) => [c, c]));
    ops.push(
      rolling === 'cumsum'
        ? { operation: 'cum', options: { operator: 'sum', columns: columnsMap, is_pivot_df: true } }
        : { operation: 'rolling', options: { rolling_type: rolling, window: toInt(formData.rolling_periods, 1), min_periods: toInt(formData.min_periods, 0), columns: columnsMap, is_pivot_df: true } },
    );
  }
  if (comparison && comparison !== 'values') {
    ops.push({ operation: 'compare', options: { source_columns: [...offsets.values()], compare_columns: [...offsets.keys()], compare_type: comparison, drop_original_columns: true } });
  }
  const method = resampleMethod(formData);
  if (method && formData.resample_rule) {
    ops.push({ operation: 'resample', options: { method, rule: formData.resample_rule, fill_value: formData.resample_method === 'zerofill' ? 0 : null } });
  }
  // Superset's contributionOperator: each value as its share of its row's total, or of its series' total.
  const contribution = contributionOf(formData);
  if (contribution) ops.push({ operation: 'contribution', options: { orientation: contribution, ...(comparison === 'values' ? { time_shifts: asList<string>(formData.time_compare) } : {}) } });
  ops.push({ operation: 'flatten' });
  return ops;
}

/** Rolling periods and min periods must be integers (spec 01 §5), said by the shared rule. */
const rollingOption = (key: 'rolling_periods' | 'min_periods') => (value: unknown) => validateRollingOptions({ [key]: value === '' ? null : value })[0] ?? false;

/**
 * Superset's 'Advanced analytics' section of the time-series charts; with a suffix, the same controls under suffixed
 * names (the mixed chart's 'Advanced analytics Query B' holds rolling_type_b, time_compare_b, ...).
 *
 * @example advancedAnalyticsSection('Advanced analytics Query B', '_b')
 */
export function advancedAnalyticsSection(label = 'Advanced analytics', suffix = ''): ControlPanelSection {
  return {
    label,
    expanded: false,
    tab: 'data',
    description: 'This section contains options that allow for advanced analytical post processing of query results',
    controlSetRows: [
      [{ name: `rolling_type${suffix}`, type: 'SelectControl', label: 'Rolling function', default: null, choices: [[null, 'None'], ...ROLLING_TYPES.map((t) => [t, t] as const)], description: 'Defines a rolling window function to apply, works along with the [Periods] text box' }],
      [{ name: `rolling_periods${suffix}`, type: 'TextControl', label: 'Periods', validators: [rollingOption('rolling_periods')], visibility: hasRollingPeriods(suffix), description: 'Defines the size of the rolling window function, relative to the time granularity selected' }],
      [
        {
          name: `min_periods${suffix}`,
          type: 'TextControl',
          label: 'Min periods',
          validators: [rollingOption('min_periods')],
          visibility: hasRollingPeriods(suffix),
          description: 'The minimum number of rolling periods required to show a value. For instance if you do a cumulative sum on 7 days you may want your "Min Period" to be 7, so that all data points shown are the total of 7 periods. This will hide the "ramp up" taking place over the first 7 periods',
        },
      ],
      [
        {
          name: `time_compare${suffix}`,
          type: 'SelectControl',
          label: 'Time shift',
          multi: true,
          freeForm: true,
          default: [],
          choices: TIME_SHIFTS.map((s) => [s, s] as const),
          description: 'Overlay one or more timeseries from a relative time period. Expects relative time deltas in natural language (example: 24 hours, 7 days, 52 weeks, 365 days). Free text is supported.',
        },
      ],
      [
        {
          name: `comparison_type${suffix}`,
          type: 'SelectControl',
          label: 'Calculation type',
          default: 'values',
          choices: COMPARISON_CHOICES,
          description: 'How to display time shifts: as individual lines; as the difference between the main time series and each time shift; as the percentage change; or as the ratio between series and time shifts.',
        },
      ],
      [{ name: `resample_rule${suffix}`, type: 'SelectControl', label: 'Rule', freeForm: true, clearable: true, default: null, choices: RESAMPLE_RULES, description: 'Pandas resample rule' }],
      [{ name: `resample_method${suffix}`, type: 'SelectControl', label: 'Fill method', clearable: true, default: null, choices: RESAMPLE_METHODS, description: 'Pandas resample method' }],
    ],
  };
}

export const ADVANCED_ANALYTICS = advancedAnalyticsSection();

/** The y-axis format choices: only percent formats under a percentage comparison (spec 01 §5). */
export const yAxisFormatChoices = ({ formData }: ControlContext) => formatChoicesForComparison(activeComparison(formData), NUMBER_FORMAT_OPTIONS);
