import { queryContextFromFormData } from '@meridian/contracts/chart-data/form-data';
import { REQUIRED, SHARED_CONTROLS, columnChoices } from '../shared/controls';
import type { EChartsTransformed } from '../shared/echarts-chart';
import type { ChartPlugin, FormData, QueryContext } from '../types';
import { transformBubble } from './transform-props';
import meta from './meta';


/** x, y and size per entity (and series), largest bubbles first within the row limit. */
export function buildBubbleQuery(fd: FormData): QueryContext {
  const context = queryContextFromFormData({ ...fd, groupby: [fd.entity, fd.series].filter(Boolean), metrics: [fd.x, fd.y, fd.size].filter(Boolean), metric: undefined });
  if (fd.size) context.queries[0]!.orderby = [[fd.size, false]];
  return context as QueryContext;
}

const bubble: ChartPlugin<EChartsTransformed> = {
  ...meta,
  controlPanel: {
    sections: [
      {
        label: 'Query',
        expanded: true,
        tab: 'data',
        controlSetRows: [
          [{ name: 'series', type: 'GroupByControl', label: 'Dimension', multi: false, choices: columnChoices, description: 'Bubbles of the same value share a colour' }, { name: 'entity', type: 'GroupByControl', label: 'Entity', multi: false, choices: columnChoices, validators: REQUIRED, description: 'This defines the element to be plotted on the chart' }],
          [{ name: 'x', type: 'MetricsControl', label: 'X Axis', multi: false, validators: REQUIRED }],
          [{ name: 'y', type: 'MetricsControl', label: 'Y Axis', multi: false, validators: REQUIRED }],
          [{ name: 'size', type: 'MetricsControl', label: 'Bubble Size', multi: false, validators: REQUIRED }],
          ['adhoc_filters'],
          ['time_range'],
          [{ name: 'row_limit', override: { default: 100 } }],
        ],
      },
      {
        label: 'Chart Options',
        expanded: true,
        tab: 'customize',
        controlSetRows: [
          ['color_scheme'],
          ['show_legend'],
          [{ name: 'max_bubble_size', type: 'SelectControl', label: 'Max Bubble Size', freeForm: true, default: 25, renderTrigger: true, choices: [5, 10, 15, 25, 50, 75, 100].map((n) => [n, String(n)] as const) }],
          [{ name: 'tooltipSizeFormat', override: { ...SHARED_CONTROLS.y_axis_format, label: 'Bubble size number format' } }],
          [{ name: 'opacity', type: 'SliderControl', label: 'Bubble Opacity', default: 0.6, min: 0, max: 1, step: 0.1, renderTrigger: true, description: 'Opacity of bubbles, 0 means completely transparent, 1 means opaque' }],
        ],
      },
      {
        label: 'X Axis',
        expanded: true,
        tab: 'customize',
        controlSetRows: [
          [{ name: 'x_axis_label', type: 'TextControl', label: 'X Axis Title', default: '', renderTrigger: true }],
          [{ name: 'xAxisLabelRotation', override: { freeForm: true } }],
          // Superset's key; an earlier Meridian panel stored x_axis_format, which the chart still reads.
          [{ name: 'xAxisFormat', override: { ...SHARED_CONTROLS.y_axis_format, label: 'X Axis Format' } }],
          [{ name: 'logXAxis', type: 'CheckboxControl', label: 'Logarithmic x-axis', default: false, renderTrigger: true, description: 'Logarithmic x-axis' }],
        ],
      },
      {
        label: 'Y Axis',
        expanded: true,
        tab: 'customize',
        controlSetRows: [
          [{ name: 'y_axis_label', type: 'TextControl', label: 'Y Axis Title', default: '', renderTrigger: true }],
          [{ name: 'yAxisLabelRotation', type: 'SelectControl', label: 'Rotate y axis label', freeForm: true, clearable: false, default: 0, renderTrigger: true, choices: [[0, '0°'], [45, '45°']], description: 'Input field supports custom rotation. e.g. 30 for 30°' }],
          ['y_axis_format'],
          [{ name: 'logYAxis', type: 'CheckboxControl', label: 'Logarithmic y-axis', default: false, renderTrigger: true, description: 'Logarithmic y-axis' }],
          // The x-axis is a metric here, always numbers: its bounds show whenever it is truncated.
          ['truncateXAxis'],
          [{ name: 'xAxisBounds', override: { visibility: ({ formData }) => formData.truncateXAxis !== false } }],
          ['truncateYAxis'],
          ['y_axis_bounds'],
        ],
      },
    ],
  },
  defaultFormData: { row_limit: 100, max_bubble_size: 25, opacity: 0.6, color_scheme: 'supersetColors' },
  buildQuery: buildBubbleQuery,
  transformProps: transformBubble,
  loadChart: () => import('./BubbleChart'),
};

export default bubble;
