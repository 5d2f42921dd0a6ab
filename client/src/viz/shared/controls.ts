/**
 * Shared controls by Superset's names: a chart type's control panel lists these names (or overrides
 * them) instead of declaring each control again. Labels, defaults and descriptions follow Superset's.
 */
import { TIME_GRAIN_CHOICES } from '@meridian/contracts/rules/constants';
import { validateInteger, validateNonEmpty } from '@meridian/contracts/rules/validators';
import type { ControlConfig, ControlContext, ControlEntry } from '../types';
import { CATEGORICAL_SCHEMES, DEFAULT_CATEGORICAL_SCHEME, DEFAULT_SEQUENTIAL_SCHEME, SEQUENTIAL_SCHEMES } from './colors';
import { isNumericType } from './column-config';
import { NUMBER_FORMAT_OPTIONS, SMART_DATE, SMART_NUMBER, TIME_FORMAT_OPTIONS } from './format';

const nonEmpty = (value: unknown) => validateNonEmpty(Array.isArray(value) && value.length === 0 ? null : value);
/** The validators of a control that must be set (the catalogue's 'cannot be empty'). */
export const REQUIRED = [nonEmpty];
const integer = (value: unknown) => (value === null || value === undefined || value === '' ? false : validateInteger(value));

/** The dataset's columns as choices (name, verbose name): every column picker's list. */
export const columnChoices = (ctx: ControlContext) => (ctx.datasource?.columns ?? []).map((c) => [c.column_name, c.verbose_name || c.column_name] as const);
const temporalChoices = (ctx: ControlContext) => (ctx.datasource?.columns ?? []).filter((c) => c.is_dttm).map((c) => [c.column_name, c.verbose_name || c.column_name] as const);

/** The dataset column on the x-axis, or undefined (none chosen, or adhoc SQL). */
const xAxisColumn = ({ formData, datasource }: ControlContext) => (typeof formData.x_axis === 'string' ? datasource?.columns.find((c) => c.column_name === formData.x_axis) : undefined);

/** The x-axis is a dataset column of numbers (Superset's checkColumnType(x_axis, [NUMERIC])). */
const xAxisIsNumeric = (ctx: ControlContext) => {
  const axis = xAxisColumn(ctx);
  return !!axis && !axis.is_dttm && isNumericType(axis.type);
};

/** Time grain applies only to a temporal x-axis (unknown columns, e.g. adhoc SQL, keep it shown). */
const xAxisIsTemporal = (ctx: ControlContext) => {
  const axis = xAxisColumn(ctx);
  return !axis || !!axis.is_dttm;
};

const ROW_LIMITS = [10, 50, 100, 250, 500, 1000, 5000, 10000, 50000].map((n) => [n, String(n)] as const);
/** Spec 01 §9's time grains ('all' is the cleared control), for a dataset that does not list its engine's. */
const DEFAULT_TIME_GRAINS = TIME_GRAIN_CHOICES.flatMap(([value, label]) => (value === null ? [] : [[value, label] as const]));

/**
 * The time grains offered for a dataset: those its database's engine computes (the dataset's `time_grain_sqla`, as
 * Superset's control reads them), else spec 01 §9's. A saved grain outside a fixed short list was dropped as an
 * unknown choice when Explore opened ('PT5M', 'P7D', the week variants).
 */
export const timeGrainChoices = (grains: ReadonlyArray<readonly [string, string]> | null | undefined): ReadonlyArray<readonly [string, string]> => (grains?.length ? grains : DEFAULT_TIME_GRAINS);

export const SHARED_CONTROLS: Record<string, ControlConfig> = {
  metrics: { name: 'metrics', type: 'MetricsControl', label: 'Metrics', multi: true, validators: [nonEmpty], description: 'One or many metrics to display' },
  metric: { name: 'metric', type: 'MetricsControl', label: 'Metric', multi: false, validators: [nonEmpty], description: 'Metric' },
  groupby: { name: 'groupby', type: 'GroupByControl', label: 'Dimensions', multi: true, choices: columnChoices, description: 'Dimensions contain qualitative values such as names, dates, or geographical data.' },
  columns: { name: 'columns', type: 'GroupByControl', label: 'Columns', multi: true, choices: columnChoices },
  all_columns: { name: 'all_columns', type: 'GroupByControl', label: 'Columns', multi: true, choices: columnChoices },
  // A new chart's x-axis is the dataset's default time column, else its first temporal one (Superset's x_axis initialValue).
  x_axis: { name: 'x_axis', type: 'GroupByControl', label: 'X-axis', multi: false, choices: columnChoices, validators: [nonEmpty], description: 'Dimension to use on x-axis.', initialValue: ({ datasource }) => datasource?.main_dttm_col || datasource?.columns.find((c) => c.is_dttm)?.column_name },
  // Shown for a number x-axis only: numbers lie along a continuous axis unless drawn as categories.
  xAxisForceCategorical: { name: 'xAxisForceCategorical', type: 'CheckboxControl', label: 'Force categorical', default: false, renderTrigger: true, description: 'Treat values as categorical.', visibility: xAxisIsNumeric },
  time_grain_sqla: { name: 'time_grain_sqla', type: 'SelectControl', label: 'Time grain', choices: ({ datasource }) => timeGrainChoices(datasource?.time_grain_sqla), clearable: true, default: 'P1D', description: 'Select a time grain for the visualization.', visibility: xAxisIsTemporal },
  granularity_sqla: { name: 'granularity_sqla', type: 'SelectControl', label: 'Time column', choices: temporalChoices, clearable: true },
  adhoc_filters: { name: 'adhoc_filters', type: 'AdhocFilterControl', label: 'Filters', default: [] },
  time_range: { name: 'time_range', type: 'TimeRangeControl', label: 'Time range', default: 'No filter' },
  row_limit: { name: 'row_limit', type: 'SelectControl', label: 'Row limit', freeForm: true, choices: ROW_LIMITS, default: 10000, validators: [integer], description: 'Limits the number of the rows that are computed in the query that is the source of the data used for this chart.' },
  limit: { name: 'limit', type: 'SelectControl', label: 'Series limit', freeForm: true, clearable: true, choices: [5, 10, 25, 50, 100, 500].map((n) => [n, String(n)] as const), validators: [integer], description: 'Limits the number of series that get displayed.' },
  timeseries_limit_metric: { name: 'timeseries_limit_metric', type: 'MetricsControl', label: 'Sort by', multi: false },
  order_desc: { name: 'order_desc', type: 'CheckboxControl', label: 'Sort descending', default: true },
  truncate_metric: { name: 'truncate_metric', type: 'CheckboxControl', label: 'Truncate Metric', default: true, description: 'Whether to truncate metrics' },
  sort_by_metric: { name: 'sort_by_metric', type: 'CheckboxControl', label: 'Sort by metric', default: true },
  color_scheme: { name: 'color_scheme', type: 'ColorSchemeControl', label: 'Color scheme', schemeType: 'categorical', default: DEFAULT_CATEGORICAL_SCHEME, renderTrigger: true, choices: CATEGORICAL_SCHEMES.map((s) => [s.id, s.label] as const) },
  linear_color_scheme: { name: 'linear_color_scheme', type: 'ColorSchemeControl', label: 'Linear color scheme', schemeType: 'sequential', default: DEFAULT_SEQUENTIAL_SCHEME, renderTrigger: true, choices: SEQUENTIAL_SCHEMES.map((s) => [s.id, s.label] as const) },
  y_axis_format: { name: 'y_axis_format', type: 'NumberFormatControl', label: 'Y Axis Format', freeForm: true, default: SMART_NUMBER, renderTrigger: true, choices: NUMBER_FORMAT_OPTIONS },
  number_format: { name: 'number_format', type: 'NumberFormatControl', label: 'Number format', freeForm: true, default: SMART_NUMBER, renderTrigger: true, choices: NUMBER_FORMAT_OPTIONS },
  // Superset's 'Currency format': no default, so a chart without one stores nothing.
  currency_format: { name: 'currency_format', type: 'CurrencyControl', label: 'Currency format', renderTrigger: true },
  // Superset's 'Date format' of charts whose group-by values may be dates (pie, sunburst, treemap).
  date_format: { name: 'date_format', type: 'TimeFormatControl', label: 'Date format', freeForm: true, default: SMART_DATE, renderTrigger: true, choices: TIME_FORMAT_OPTIONS, description: 'D3 format syntax: https://github.com/d3/d3-format' },
  x_axis_time_format: { name: 'x_axis_time_format', type: 'TimeFormatControl', label: 'Time format', freeForm: true, default: SMART_DATE, renderTrigger: true, choices: TIME_FORMAT_OPTIONS },
  show_legend: { name: 'show_legend', type: 'CheckboxControl', label: 'Show legend', default: true, renderTrigger: true, description: 'Whether to display a legend for the chart' },
  show_value: { name: 'show_value', type: 'CheckboxControl', label: 'Show value', default: false, renderTrigger: true },
  x_axis_title: { name: 'x_axis_title', type: 'TextControl', label: 'X Axis Title', default: '', renderTrigger: true },
  y_axis_title: { name: 'y_axis_title', type: 'TextControl', label: 'Y Axis Title', default: '', renderTrigger: true },
  zoomable: { name: 'zoomable', type: 'CheckboxControl', label: 'Data Zoom', default: false, renderTrigger: true, description: 'Enable data zooming controls' },
  minorTicks: { name: 'minorTicks', type: 'CheckboxControl', label: 'Minor ticks', default: false, renderTrigger: true, description: 'Show minor ticks on axes.' },
  // Superset's DEFAULT_FORM_DATA.truncateXAxis is true: a number x-axis spans its data unless turned off.
  truncateXAxis: {
    name: 'truncateXAxis',
    type: 'CheckboxControl',
    label: 'Truncate X Axis',
    default: true,
    renderTrigger: true,
    description: 'Truncate X Axis. Can be overridden by specifying a min or max bound. Only applicable for numerical X axis.',
  },
  xAxisBounds: {
    name: 'xAxisBounds',
    type: 'BoundsControl',
    label: 'X Axis Bounds',
    default: [null, null],
    renderTrigger: true,
    description:
      "Bounds for numerical X axis. Not applicable for temporal or categorical axes. When left empty, the bounds are dynamically defined based on the min/max of the data. Note that this feature will only expand the axis range. It won't narrow the data's extent.",
    // Superset shows it whenever 'Truncate X Axis' is on; here only where it applies too, a number x-axis.
    visibility: (ctx) => ctx.formData.truncateXAxis !== false && xAxisIsNumeric(ctx),
  },
  // Superset's time-series options: the legend's kind and place, the x labels' angle, the y-axis' scale and bounds.
  legendType: { name: 'legendType', type: 'SelectControl', label: 'Type', default: 'scroll', clearable: false, renderTrigger: true, choices: [['scroll', 'Scroll'], ['plain', 'Plain']], description: 'Legend type', visibility: ({ formData }) => formData.show_legend !== false },
  legendOrientation: { name: 'legendOrientation', type: 'SelectControl', label: 'Orientation', default: 'top', clearable: false, renderTrigger: true, choices: [['top', 'Top'], ['bottom', 'Bottom'], ['left', 'Left'], ['right', 'Right']], description: 'Legend Orientation', visibility: ({ formData }) => formData.show_legend !== false },
  // Superset's 'Stacked Style' (its StackControlOptions); a chart saved with the earlier checkbox's true stacks.
  stack: {
    name: 'stack',
    type: 'SelectControl',
    label: 'Stacked Style',
    default: null,
    renderTrigger: true,
    choices: [[null, 'None'], ['Stack', 'Stack'], ['Stream', 'Stream']],
    description: 'Stack series on top of each other',
    fromStored: (value) => (value === true ? 'Stack' : value === false ? null : value),
  },
  only_total: {
    name: 'only_total',
    type: 'CheckboxControl',
    label: 'Only Total',
    default: true,
    renderTrigger: true,
    description: 'Only show the total value on the stacked chart, and not show on the selected category',
    visibility: ({ formData }) => !!formData.show_value && !!formData.stack,
  },
  legendMargin: { name: 'legendMargin', type: 'TextControl', label: 'Margin', isInt: true, default: null, renderTrigger: true, description: 'Additional padding for legend.', visibility: ({ formData }) => formData.show_legend !== false },
  sort_series_type: {
    name: 'sort_series_type',
    type: 'SelectControl',
    label: 'Sort Series By',
    default: 'sum',
    clearable: false,
    renderTrigger: true,
    choices: [['name', 'Category name'], ['sum', 'Total value'], ['min', 'Minimum value'], ['max', 'Maximum value'], ['avg', 'Average value']],
    description: 'Based on what should series be ordered on the chart and legend',
  },
  sort_series_ascending: { name: 'sort_series_ascending', type: 'CheckboxControl', label: 'Sort Series Ascending', default: false, renderTrigger: true, description: 'Sort series in ascending order' },
  showTooltipTotal: { name: 'showTooltipTotal', type: 'CheckboxControl', label: 'Show total', default: true, renderTrigger: true, description: 'Whether to display the total value in the tooltip', visibility: ({ formData }) => formData.rich_tooltip !== false },
  showTooltipPercentage: { name: 'showTooltipPercentage', type: 'CheckboxControl', label: 'Show percentage', default: true, renderTrigger: true, description: 'Whether to display the percentage value in the tooltip', visibility: ({ formData }) => formData.rich_tooltip !== false && !formData.contributionMode },
  tooltipSortByMetric: { name: 'tooltipSortByMetric', type: 'CheckboxControl', label: 'Tooltip sort by metric', default: false, renderTrigger: true, description: 'Whether to sort tooltip by the selected metric in descending order.', visibility: ({ formData }) => formData.rich_tooltip !== false },
  tooltipTimeFormat: { name: 'tooltipTimeFormat', type: 'TimeFormatControl', label: 'Tooltip time format', freeForm: true, clearable: false, default: SMART_DATE, renderTrigger: true, choices: TIME_FORMAT_OPTIONS, visibility: ({ formData }) => formData.rich_tooltip !== false },
  markerEnabled: { name: 'markerEnabled', type: 'CheckboxControl', label: 'Marker', default: false, renderTrigger: true, description: 'Draw a marker on data points. Only applicable for line types.' },
  markerSize: { name: 'markerSize', type: 'SliderControl', label: 'Marker Size', default: 6, min: 0, max: 20, step: 1, renderTrigger: true, description: 'Size of marker. Also applies to forecast observations.', visibility: ({ formData }) => !!formData.markerEnabled },
  // Superset's 'X Tick Layout' (box plot, waterfall): read with tickLayoutRotate.
  x_ticks_layout: {
    name: 'x_ticks_layout',
    type: 'SelectControl',
    label: 'X Tick Layout',
    default: 'auto',
    clearable: false,
    renderTrigger: true,
    choices: ['auto', 'flat', '45°', '90°', 'staggered'].map((v) => [v, v] as const),
    description: 'The way the ticks are laid out on the X-axis',
  },
  xAxisLabelRotation: { name: 'xAxisLabelRotation', type: 'SelectControl', label: 'Rotate x axis label', default: 0, clearable: false, renderTrigger: true, choices: [[0, '0°'], [45, '45°'], [90, '90°']], description: 'Input field supports custom rotation. e.g. 30 for 30°' },
  logAxis: { name: 'logAxis', type: 'CheckboxControl', label: 'Logarithmic y-axis', default: false, renderTrigger: true, description: 'Logarithmic y-axis' },
  minorSplitLine: { name: 'minorSplitLine', type: 'CheckboxControl', label: 'Minor Split Line', default: false, renderTrigger: true, description: 'Draw split lines for minor y-axis ticks' },
  truncateYAxis: { name: 'truncateYAxis', type: 'CheckboxControl', label: 'Truncate Y Axis', default: false, renderTrigger: true, description: 'Truncate Y Axis. Can be overridden by specifying a min or max bound.' },
  y_axis_bounds: {
    name: 'y_axis_bounds',
    type: 'BoundsControl',
    label: 'Y Axis Bounds',
    default: [null, null],
    renderTrigger: true,
    description: "Bounds for the Y-axis. When left empty, the bounds are dynamically defined based on the min/max of the data. Note that this feature will only expand the axis range. It won't narrow the data's extent.",
    visibility: ({ formData }) => !!formData.truncateYAxis,
  },
  contributionMode: { name: 'contributionMode', type: 'SelectControl', label: 'Contribution Mode', default: null, choices: [[null, 'None'], ['row', 'Row'], ['column', 'Series']], description: 'Calculate contribution per series or row' },
  rich_tooltip: { name: 'rich_tooltip', type: 'CheckboxControl', label: 'Rich tooltip', default: true, renderTrigger: true },
  // Layers change the drawing and are queried on their own, so the chart is not re-run for them.
  annotation_layers: { name: 'annotation_layers', type: 'AnnotationLayerControl', label: 'Annotation layers', default: [], renderTrigger: true, description: 'Annotation layers drawn over the chart: formulas, events, intervals and other time series' },
  subheader: { name: 'subheader', type: 'TextControl', label: 'Subheader', default: '', renderTrigger: true },
};

/** A control panel entry as a full control: a shared name, a shared name with overrides, or a control of its own. */
export function resolveControl(entry: ControlEntry): ControlConfig {
  if (typeof entry === 'string') {
    const shared = SHARED_CONTROLS[entry];
    if (!shared) throw new Error(`Unknown shared control: ${entry}`);
    return shared;
  }
  if ('override' in entry) return { ...SHARED_CONTROLS[entry.name], ...entry.override, name: entry.name };
  return entry;
}
