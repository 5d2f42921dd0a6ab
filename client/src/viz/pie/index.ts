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
  controlPanel: {
    sections: [
      { label: 'Query', expanded: true, tab: 'data', controlSetRows: [['groupby'], ['metric'], ['adhoc_filters'], ['time_range'], ['row_limit'], ['sort_by_metric']] },
      {
        label: 'Chart options',
        expanded: true,
        tab: 'customize',
        controlSetRows: [
          ['color_scheme'],
          ['show_legend'],
          [{ name: 'show_labels', type: 'CheckboxControl', label: 'Show labels', default: true, renderTrigger: true }, { name: 'labels_outside', type: 'CheckboxControl', label: 'Put labels outside', default: true, renderTrigger: true }],
          [
            {
              name: 'label_type',
              type: 'SelectControl',
              label: 'Label Type',
              default: 'key',
              renderTrigger: true,
              choices: [
                ['key', 'Category Name'],
                ['value', 'Value'],
                ['percent', 'Percentage'],
                ['key_value', 'Category and Value'],
                ['key_percent', 'Category and Percentage'],
                ['key_value_percent', 'Category, Value and Percentage'],
              ],
            },
          ],
          ['number_format'],
          ['currency_format'],
          [{ name: 'show_total', type: 'CheckboxControl', label: 'Show Total', default: false, renderTrigger: true }],
          [{ name: 'donut', type: 'CheckboxControl', label: 'Donut', default: false, renderTrigger: true }],
          [{ name: 'innerRadius', type: 'SliderControl', label: 'Inner Radius', default: 30, min: 0, max: 100, step: 1, renderTrigger: true, visibility: ({ formData }) => !!formData.donut }],
          [{ name: 'outerRadius', type: 'SliderControl', label: 'Outer Radius', default: 70, min: 10, max: 100, step: 1, renderTrigger: true }],
        ],
      },
    ],
  },
  defaultFormData: { row_limit: 100, sort_by_metric: true, show_legend: true, show_labels: true, labels_outside: true, label_type: 'key', color_scheme: 'supersetColors' },
  buildQuery: buildPieQuery,
  transformProps: transformPie,
  loadChart: () => import('./PieChart'),
};

export default pie;
