import { queryContextFromFormData } from '@meridian/contracts/chart-data/form-data';
import type { ChartPlugin, ControlPanelSection, FormData, QueryContext } from '../types';
import { transformBigNumber, type BigNumberProps } from './transform-props';
import meta from './meta';

/** Display controls both big number types share. */
export const BIG_NUMBER_DISPLAY: ControlPanelSection = {
  label: 'Chart options',
  expanded: true,
  tab: 'customize',
  controlSetRows: [
    ['subheader'],
    [{ name: 'header_font_size', type: 'SelectControl', label: 'Big Number Font Size', default: 0.4, renderTrigger: true, choices: [[0.2, 'Tiny'], [0.3, 'Small'], [0.4, 'Normal'], [0.5, 'Large'], [0.6, 'Huge']] }],
    [{ name: 'subheader_font_size', type: 'SelectControl', label: 'Subheader Font Size', default: 0.15, renderTrigger: true, choices: [[0.125, 'Tiny'], [0.15, 'Small'], [0.2, 'Normal'], [0.3, 'Large']] }],
    ['y_axis_format'],
    ['currency_format'],
  ],
};

/** The metric per period of the x-axis (a temporal column at its time grain), oldest first. */
export function buildBigNumberQuery(fd: FormData): QueryContext {
  const context = queryContextFromFormData({ ...fd, groupby: [] });
  const query = context.queries[0]!;
  query.orderby = [];
  query.series_limit = 0;
  return context as QueryContext;
}

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
          [{ name: 'compare_lag', type: 'TextControl', label: 'Comparison Period Lag', isInt: true, description: 'Based on granularity, number of time periods to compare against' }, { name: 'compare_suffix', type: 'TextControl', label: 'Comparison suffix', description: 'Suffix to apply after the percentage display' }],
          [{ name: 'show_trend_line', type: 'CheckboxControl', label: 'Show Trend Line', default: true, renderTrigger: true }],
          [{ name: 'start_y_axis_at_zero', type: 'CheckboxControl', label: 'Start y-axis at 0', default: true, renderTrigger: true }],
        ],
      },
      BIG_NUMBER_DISPLAY,
      { label: 'Axes', tab: 'customize', controlSetRows: [['x_axis_time_format']] },
    ],
  },
  defaultFormData: { time_grain_sqla: 'P1D', show_trend_line: true, start_y_axis_at_zero: true, header_font_size: 0.4, subheader_font_size: 0.15 },
  buildQuery: buildBigNumberQuery,
  transformProps: transformBigNumber,
  loadChart: () => import('./BigNumberChart'),
};

export default bigNumber;
