import { queryContextFromFormData } from '@meridian/contracts/chart-data/form-data';
import type { EChartsTransformed } from '../shared/echarts-chart';
import type { ChartPlugin, FormData, QueryContext } from '../types';
import { transformSunburst } from './transform-props';
import meta from './meta';

/** The metric (and secondary metric) per combination of the hierarchy columns. */
export function buildSunburstQuery(fd: FormData): QueryContext {
  const context = queryContextFromFormData({ ...fd, groupby: [], metrics: [], metric: fd.metric, metric_2: fd.secondary_metric ?? undefined });
  const query = context.queries[0]!;
  query.columns = Array.isArray(fd.columns) ? fd.columns : [];
  // 'Sort by metric': the largest arcs first, so the row limit keeps them (a chart that stores no choice is sorted).
  if (fd.metric && fd.sort_by_metric !== false) query.orderby = [[fd.metric, false]];
  return context as QueryContext;
}

/** Whether the arcs are coloured by the secondary metric's ratio: one is set, and it is not the primary metric. */
const byRatio = (fd: FormData) => !!fd.secondary_metric && JSON.stringify(fd.secondary_metric) !== JSON.stringify(fd.metric);

const sunburst: ChartPlugin<EChartsTransformed> = {
  ...meta,
  controlPanel: {
    sections: [
      {
        label: 'Query',
        expanded: true,
        tab: 'data',
        controlSetRows: [
          [{ name: 'columns', override: { label: 'Hierarchy', description: 'Sets the hierarchy levels of the chart. Each level is represented by one ring with the innermost circle as the top of the hierarchy.', validators: [(v) => (Array.isArray(v) && v.length ? false : 'cannot be empty')] } }],
          [{ name: 'metric', override: { label: 'Primary Metric', description: 'The primary metric is used to define the arc segment sizes' } }],
          [
            {
              name: 'secondary_metric',
              type: 'MetricsControl',
              label: 'Secondary Metric',
              multi: false,
              description: '[optional] this secondary metric is used to define the color as a ratio against the primary metric. When omitted, the color is categorical and based on labels',
            },
          ],
          ['adhoc_filters'],
          ['time_range'],
          ['row_limit'],
          [{ name: 'sort_by_metric', override: { description: 'Whether to sort results by the selected metric in descending order.' } }],
        ],
      },
      {
        label: 'Chart Options',
        expanded: true,
        tab: 'customize',
        controlSetRows: [
          // A secondary metric other than the primary colours by the ratio (a linear scale), else by the categories.
          [{ name: 'color_scheme', override: { description: 'When only a primary metric is provided, a categorical color scale is used.', visibility: ({ formData }) => !byRatio(formData) } }],
          [{ name: 'linear_color_scheme', override: { description: 'When a secondary metric is provided, a linear color scale is used.', visibility: ({ formData }) => byRatio(formData) } }],
          [{ name: 'show_labels', type: 'CheckboxControl', label: 'Show Labels', default: true, renderTrigger: true, description: 'Whether to display the labels.' }],
          [{ name: 'show_labels_threshold', type: 'TextControl', label: 'Percentage threshold', isFloat: true, default: 5, renderTrigger: true, description: 'Minimum threshold in percentage points for showing labels.' }],
          [{ name: 'show_total', type: 'CheckboxControl', label: 'Show Total', default: false, renderTrigger: true, description: 'Whether to display the aggregate count' }],
          [{ name: 'label_type', type: 'SelectControl', label: 'Label Type', default: 'key', renderTrigger: true, choices: [['key', 'Category Name'], ['value', 'Value'], ['key_value', 'Category and Value']], description: 'What should be shown on the label?' }],
          ['number_format'],
          ['currency_format'],
          ['date_format'],
        ],
      },
    ],
  },
  defaultFormData: { row_limit: 1000, sort_by_metric: true, color_scheme: 'supersetColors' },
  buildQuery: buildSunburstQuery,
  transformProps: transformSunburst,
  loadChart: () => import('./SunburstChart'),
};

export default sunburst;
