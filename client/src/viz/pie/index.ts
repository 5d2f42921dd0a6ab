import { queryContextFromFormData } from '@meridian/contracts/chart-data/form-data';
import type { ChartPlugin, FormData, QueryContext } from '../types';
import { transformPie, type PieProps } from './transform-props';
import meta from './meta';

/** The pie's query: the metric per group-by value, largest first when sorting by metric. */
export function buildPieQuery(fd: FormData): QueryContext {
  const context = queryContextFromFormData(fd);
  const query = context.queries[0]!;
  if (fd.sort_by_metric !== false && fd.metric) query.orderby = [[fd.metric, false]];
  return context as QueryContext;
}

const pie: ChartPlugin<PieProps> = {
  ...meta,
  // Superset's pie control panel: its query, then its chart options, legend, labels and pie shape.
  controlPanel: {
    sections: [
      {
        label: 'Query',
        expanded: true,
        tab: 'data',
        controlSetRows: [
          ['groupby'],
          ['metric'],
          ['adhoc_filters'],
          ['time_range'],
          [{ name: 'row_limit', override: { default: 100 } }],
          [{ name: 'sort_by_metric', override: { description: 'Whether to sort results by the selected metric in descending order.' } }],
        ],
      },
      {
        label: 'Chart options',
        expanded: true,
        tab: 'customize',
        controlSetRows: [
          ['color_scheme'],
          [
            { name: 'show_labels_threshold', type: 'TextControl', label: 'Percentage threshold', isFloat: true, default: 5, renderTrigger: true, description: 'Minimum threshold in percentage points for showing labels.' },
            { name: 'threshold_for_other', type: 'TextControl', label: 'Threshold for Other', isFloat: true, default: 0, renderTrigger: true, description: 'Values less than this percentage will be grouped into the Other category.' },
          ],
          [{ name: 'roseType', type: 'SelectControl', label: 'Rose Type', default: null, clearable: false, renderTrigger: true, choices: [['area', 'Area'], ['radius', 'Radius'], [null, 'None']], description: 'Whether to show as Nightingale chart.' }],
          ['show_legend'],
          ['legendType', 'legendOrientation'],
          ['legendMargin'],
        ],
      },
      {
        label: 'Labels',
        expanded: true,
        tab: 'customize',
        controlSetRows: [
          [
            {
              name: 'label_type',
              type: 'SelectControl',
              label: 'Label Type',
              default: 'key',
              clearable: false,
              renderTrigger: true,
              choices: [
                ['key', 'Category Name'],
                ['value', 'Value'],
                ['percent', 'Percentage'],
                ['key_value', 'Category and Value'],
                ['key_percent', 'Category and Percentage'],
                ['key_value_percent', 'Category, Value and Percentage'],
                ['value_percent', 'Value and Percentage'],
                ['template', 'Template'],
              ],
              description: 'What should be shown on the label?',
            },
          ],
          [{ name: 'label_template', type: 'TextControl', label: 'Label Template', default: '', renderTrigger: true, description: 'Format data labels. Use variables: {name}, {value}, {percent}. \\n represents a new line. ECharts compatibility: {a} (series), {b} (name), {c} (value), {d} (percentage)', visibility: ({ formData }) => formData.label_type === 'template' }],
          [{ name: 'number_format', override: { description: 'Only applies when "Label Type" is set to show values.' } }],
          ['currency_format'],
          ['date_format'],
          [{ name: 'show_labels', type: 'CheckboxControl', label: 'Show Labels', default: true, renderTrigger: true, description: 'Whether to display the labels.' }],
          [{ name: 'labels_outside', type: 'CheckboxControl', label: 'Put labels outside', default: true, renderTrigger: true, description: 'Put the labels outside of the pie?', visibility: ({ formData }) => formData.show_labels !== false }],
          [{ name: 'label_line', type: 'CheckboxControl', label: 'Label Line', default: false, renderTrigger: true, description: 'Draw line from Pie to label when labels outside?', visibility: ({ formData }) => formData.show_labels !== false }],
          [{ name: 'show_total', type: 'CheckboxControl', label: 'Show Total', default: false, renderTrigger: true, description: 'Whether to display the aggregate count' }],
        ],
      },
      {
        label: 'Pie shape',
        expanded: true,
        tab: 'customize',
        controlSetRows: [
          [{ name: 'outerRadius', type: 'SliderControl', label: 'Outer Radius', default: 70, min: 10, max: 100, step: 1, renderTrigger: true, description: 'Outer edge of Pie chart' }],
          [{ name: 'donut', type: 'CheckboxControl', label: 'Donut', default: false, renderTrigger: true, description: 'Do you want a donut or a pie?' }],
          [{ name: 'innerRadius', type: 'SliderControl', label: 'Inner Radius', default: 30, min: 0, max: 100, step: 1, renderTrigger: true, description: 'Inner radius of donut hole', visibility: ({ formData }) => !!formData.donut }],
        ],
      },
    ],
  },
  defaultFormData: { row_limit: 100, sort_by_metric: true, show_legend: true, show_labels: true, labels_outside: true, label_type: 'key', color_scheme: 'supersetColors', show_labels_threshold: 5 },
  buildQuery: buildPieQuery,
  transformProps: transformPie,
  loadChart: () => import('./PieChart'),
};

export default pie;
