import { queryContextFromFormData } from '@meridian/contracts/chart-data/form-data';
import type { EChartsTransformed } from '../shared/echarts-chart';
import type { ChartPlugin, QueryContext } from '../types';
import { transformWaterfall } from './transform-props';
import meta from './meta';
import { asList, columnLabel, type ColumnEntry } from '../shared/metrics';

const waterfall: ChartPlugin<EChartsTransformed> = {
  ...meta,
  controlPanel: {
    sections: [
      { label: 'Query', expanded: true, tab: 'data', controlSetRows: [['x_axis'], ['time_grain_sqla'], [{ name: 'groupby', override: { label: 'Breakdowns', multi: false, description: 'Breaks down the series by the category specified in this control. This can help viewers understand how each category affects the overall value.' } }], ['metric'], ['adhoc_filters'], ['time_range'], ['row_limit']] },
      { label: 'Chart Options', expanded: true, tab: 'customize', controlSetRows: [['show_value'], [{ name: 'show_legend', override: { default: false } }]] },
      {
        label: 'Series settings',
        expanded: true,
        tab: 'customize',
        // Each colour on a row of its own: two side by side cut the picker's 'rgba(…)' text.
        controlSetRows: [
          [
            { name: 'increase_color', type: 'ColorPickerControl', label: 'Increase color', default: { r: 90, g: 193, b: 137, a: 1 }, renderTrigger: true, description: 'Select the color used for values that indicate an increase in the chart' },
          ],
          [
            { name: 'increase_label', type: 'TextControl', label: 'Increase label', renderTrigger: true, description: 'Customize the label displayed for increasing values in the chart tooltips and legend.' },
          ],
          [
            { name: 'decrease_color', type: 'ColorPickerControl', label: 'Decrease color', default: { r: 224, g: 67, b: 85, a: 1 }, renderTrigger: true, description: 'Select the color used for values that indicate a decrease in the chart.' },
          ],
          [
            { name: 'decrease_label', type: 'TextControl', label: 'Decrease label', renderTrigger: true, description: 'Customize the label displayed for decreasing values in the chart tooltips and legend.' },
          ],
          [{ name: 'show_total', type: 'CheckboxControl', label: 'Show total', default: true, renderTrigger: true, description: 'Display cumulative total at end' }],
          [
            { name: 'total_color', type: 'ColorPickerControl', label: 'Total color', default: { r: 102, g: 102, b: 102, a: 1 }, renderTrigger: true, description: 'Select the color used for values that represent total bars in the chart' },
          ],
          [
            { name: 'total_label', type: 'TextControl', label: 'Total label', renderTrigger: true, description: 'Customize the label displayed for total values in the chart tooltips, legend, and chart axis.' },
          ],
        ],
      },
      {
        label: 'X Axis',
        expanded: true,
        tab: 'customize',
        controlSetRows: [
          [{ name: 'x_axis_label', type: 'TextControl', label: 'X Axis Label', default: '', renderTrigger: true }],
          ['x_axis_time_format'],
          ['x_ticks_layout'],
        ],
      },
      { label: 'Y Axis', expanded: true, tab: 'customize', controlSetRows: [[{ name: 'y_axis_label', type: 'TextControl', label: 'Y Axis Label', default: '', renderTrigger: true }], ['y_axis_format'], ['currency_format']] },
    ],
  },
  defaultFormData: { time_grain_sqla: 'P1M', row_limit: 10000, show_legend: false },
  buildQuery: (fd) => {
    const context = queryContextFromFormData(fd) as QueryContext;
    // Superset's order: by the x-axis, then the breakdown, ascending; the bars follow the rows. By their labels, which
    // name the selected expressions (an adhoc x-axis at its time grain, as grouped).
    context.queries[0]!.orderby = asList<ColumnEntry>([fd.x_axis, ...asList(fd.groupby)].filter((c) => c !== undefined && c !== null && c !== '')).map((c) => [columnLabel(c), true]);
    return context;
  },
  transformProps: transformWaterfall,
  loadChart: () => import('./WaterfallChart'),
};

export default waterfall;
