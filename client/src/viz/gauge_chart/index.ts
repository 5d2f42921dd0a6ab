import { queryContextFromFormData } from '@meridian/contracts/chart-data/form-data';
import type { EChartsTransformed } from '../shared/echarts-chart';
import type { ChartPlugin, QueryContext } from '../types';
import { transformGauge } from './transform-props';
import meta from './meta';

const gauge: ChartPlugin<EChartsTransformed> = {
  ...meta,
  controlPanel: {
    sections: [
      {
        label: 'Query',
        expanded: true,
        tab: 'data',
        controlSetRows: [
          [{ name: 'groupby', override: { description: 'Columns to group by' } }],
          ['metric'],
          ['adhoc_filters'],
          ['time_range'],
          [{ name: 'row_limit', override: { default: 10, choices: Array.from({ length: 10 }, (_, i) => [i + 1, String(i + 1)] as const) } }],
          [{ name: 'sort_by_metric', override: { default: undefined, description: 'Whether to sort results by the selected metric in descending order.' } }],
        ],
      },
      {
        label: 'Chart Options',
        expanded: true,
        tab: 'customize',
        controlSetRows: [
          [{ name: 'min_val', type: 'TextControl', label: 'Min', isFloat: true, renderTrigger: true, description: 'Minimum value on the gauge axis' }, { name: 'max_val', type: 'TextControl', label: 'Max', isFloat: true, renderTrigger: true, description: 'Maximum value on the gauge axis' }],
          [{ name: 'start_angle', type: 'TextControl', label: 'Start angle', isFloat: true, default: 225, renderTrigger: true, description: 'Angle at which to start progress axis' }, { name: 'end_angle', type: 'TextControl', label: 'End angle', isFloat: true, default: -45, renderTrigger: true, description: 'Angle at which to end progress axis' }],
          ['color_scheme'],
          [{ name: 'font_size', type: 'SliderControl', label: 'Font size', default: 15, min: 10, max: 20, step: 1, renderTrigger: true, description: 'Font size for axis labels, detail value and other text elements' }],
          ['number_format'],
          ['currency_format'],
          [{ name: 'value_formatter', type: 'TextControl', label: 'Value format', default: '{value}', renderTrigger: true, description: 'Additional text to add before or after the value, e.g. unit' }],
          [{ name: 'show_pointer', type: 'CheckboxControl', label: 'Show pointer', default: true, renderTrigger: true, description: 'Whether to show the pointer' }],
          // Axis
          [{ name: 'show_axis_tick', type: 'CheckboxControl', label: 'Show axis line ticks', default: false, renderTrigger: true, description: 'Whether to show minor ticks on the axis' }],
          [{ name: 'show_split_line', type: 'CheckboxControl', label: 'Show split lines', default: false, renderTrigger: true, description: 'Whether to show the split lines on the axis' }],
          [{ name: 'split_number', type: 'SliderControl', label: 'Split number', default: 10, min: 3, max: 30, step: 1, renderTrigger: true, description: 'Number of split segments on the axis' }],
          // Progress
          [{ name: 'show_progress', type: 'CheckboxControl', label: 'Show progress', default: true, renderTrigger: true, description: 'Whether to show the progress of gauge chart' }],
          [{ name: 'overlap', type: 'CheckboxControl', label: 'Overlap', default: true, renderTrigger: true, description: 'Whether the progress bar overlaps when there are multiple groups of data' }],
          [{ name: 'round_cap', type: 'CheckboxControl', label: 'Round cap', default: false, renderTrigger: true, description: 'Style the ends of the progress bar with a round cap' }],
          // Intervals
          [{ name: 'intervals', type: 'TextControl', label: 'Interval bounds', default: '', renderTrigger: true, description: 'Comma-separated interval bounds, e.g. 2,4,5 for intervals 0-2, 2-4 and 4-5. Last number should match the value provided for MAX.' }],
          [
            {
              name: 'interval_color_indices',
              type: 'TextControl',
              label: 'Interval colors',
              default: '',
              renderTrigger: true,
              description: 'Comma-separated color picks for the intervals, e.g. 1,2,4. Integers denote colors from the chosen color scheme and are 1-indexed. Length must be matching that of interval bounds.',
            },
          ],
        ],
      },
    ],
  },
  defaultFormData: { row_limit: 10, start_angle: 225, end_angle: -45, split_number: 10, show_progress: true, color_scheme: 'supersetColors' },
  // 'Sort by metric' orders the groups by the metric, largest first (Superset's gauge buildQuery).
  buildQuery: (fd) => {
    const context = queryContextFromFormData(fd) as QueryContext;
    if (fd.sort_by_metric && fd.metric) context.queries[0]!.orderby = [[fd.metric, false]];
    return context;
  },
  transformProps: transformGauge,
  loadChart: () => import('./GaugeChart'),
};

export default gauge;
