import { queryContextFromFormData } from '@meridian/contracts/chart-data/form-data';
import { PRIMARY_RGBA } from '../shared/colors';
import { ADVANCED_ANALYTICS, advancedPostProcessing } from '../shared/timeseries/advanced-analytics';
import { SMART_DATE, TIME_FORMAT_OPTIONS } from '../shared/format';
import type { ChartPlugin, ControlPanelSection, FormData, QueryContext } from '../types';
import { transformBigNumber, type BigNumberProps } from './transform-props';
import meta from './meta';

/** Display controls both big number types share. */
export const BIG_NUMBER_DISPLAY: ControlPanelSection = {
  label: 'Chart Options',
  expanded: true,
  tab: 'customize',
  controlSetRows: [
    [{ name: 'subheader', override: { description: 'Description text that shows up below your Big Number' } }],
    // Values are the share of the chart's height the text takes (Superset's headerFontSize / subheaderFontSize).
    [{ name: 'header_font_size', type: 'SelectControl', label: 'Big Number Font Size', default: 0.4, clearable: false, renderTrigger: true, choices: [[0.2, 'Tiny'], [0.3, 'Small'], [0.4, 'Normal'], [0.5, 'Large'], [0.6, 'Huge']] }],
    [{ name: 'subheader_font_size', type: 'SelectControl', label: 'Subheader Font Size', default: 0.15, clearable: false, renderTrigger: true, choices: [[0.125, 'Tiny'], [0.15, 'Small'], [0.2, 'Normal'], [0.3, 'Large'], [0.4, 'Huge']] }],
    [{ name: 'y_axis_format', override: { label: 'Number format' } }],
    ['currency_format'],
    [{ name: 'time_format', type: 'TimeFormatControl', label: 'Date format', freeForm: true, default: SMART_DATE, renderTrigger: true, choices: TIME_FORMAT_OPTIONS }],
    [{ name: 'force_timestamp_formatting', type: 'CheckboxControl', label: 'Force date format', default: false, renderTrigger: true, description: 'Use date formatting even when metric value is not a timestamp' }],
  ],
};

/**
 * The metric per period of the x-axis (a temporal column at its time grain), oldest first; with Superset's rolling
 * window or resampling (its 'Advanced Analytics' for this chart: no time comparison), the answer pivoted on the
 * x-axis, rolled or resampled and flattened back, as Superset's pivot, rolling window, resample and flatten operators.
 */
export function buildBigNumberQuery(fd: FormData): QueryContext {
  const context = queryContextFromFormData({ ...fd, groupby: [] });
  const query = context.queries[0]!;
  query.orderby = [];
  query.series_limit = 0;
  const ops = advancedPostProcessing({ ...fd, metrics: fd.metric ? [fd.metric] : [], groupby: [], time_compare: [], comparison_type: null, contributionMode: null });
  if (ops.length) query.post_processing = ops;
  return context as QueryContext;
}

/** Superset's 'Advanced Analytics' of the big number with trendline: the rolling window and resampling rows. */
const BIG_NUMBER_ANALYTICS: ControlPanelSection = {
  ...ADVANCED_ANALYTICS,
  label: 'Advanced Analytics',
  controlSetRows: ADVANCED_ANALYTICS.controlSetRows.filter((row) => !row.some((c) => typeof c !== 'string' && (c.name === 'time_compare' || c.name === 'comparison_type'))),
};

const bigNumber: ChartPlugin<BigNumberProps> = {
  ...meta,
  controlPanel: {
    sections: [
      { label: 'Query', expanded: true, tab: 'data', controlSetRows: [['x_axis'], ['time_grain_sqla'], ['metric'], ['adhoc_filters'], ['time_range']] },
      {
        label: 'Options',
        expanded: true,
        tab: 'data',
        controlSetRows: [
          [{ name: 'compare_lag', type: 'TextControl', label: 'Comparison Period Lag', isInt: true, description: 'Based on granularity, number of time periods to compare against' }],
          [{ name: 'compare_suffix', type: 'TextControl', label: 'Comparison suffix', description: 'Suffix to apply after the percentage display' }],
          [{ name: 'show_timestamp', type: 'CheckboxControl', label: 'Show Timestamp', default: false, renderTrigger: true, description: 'Whether to display the timestamp' }],
          [{ name: 'show_trend_line', type: 'CheckboxControl', label: 'Show Trend Line', default: true, renderTrigger: true, description: 'Whether to display the trend line' }],
          [{ name: 'start_y_axis_at_zero', type: 'CheckboxControl', label: 'Start y-axis at 0', default: true, renderTrigger: true, description: 'Start y-axis at zero. Uncheck to start y-axis at minimum value in the data.' }],
          [
            {
              name: 'time_range_fixed',
              type: 'CheckboxControl',
              label: 'Fix to selected Time Range',
              renderTrigger: true,
              description: 'Fix the trend line to the full time range specified in case filtered results do not include the start or end dates',
              // Only with a time range chosen, as Superset's.
              visibility: ({ formData }) => !!formData.time_range && formData.time_range !== 'No filter',
            },
          ],
        ],
      },
      // The trendline's colour first (Superset's 'color_picker'), then the options both big numbers share.
      {
        ...BIG_NUMBER_DISPLAY,
        controlSetRows: [[{ name: 'color_picker', type: 'ColorPickerControl', label: 'Fixed Color', default: PRIMARY_RGBA, renderTrigger: true, description: 'The color of the trend line' }], ...BIG_NUMBER_DISPLAY.controlSetRows],
      },
      BIG_NUMBER_ANALYTICS,
    ],
  },
  defaultFormData: { time_grain_sqla: 'P1D', show_trend_line: true, start_y_axis_at_zero: true, header_font_size: 0.4, subheader_font_size: 0.15 },
  buildQuery: buildBigNumberQuery,
  transformProps: transformBigNumber,
  loadChart: () => import('./BigNumberChart'),
};

export default bigNumber;
