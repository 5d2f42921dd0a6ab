import { buildPieQuery } from '../pie/index';
import type { EChartsTransformed } from '../shared/echarts-chart';
import type { ChartPlugin } from '../types';
import { transformTreemap } from './transform-props';
import meta from './meta';

const treemap: ChartPlugin<EChartsTransformed> = {
  ...meta,
  controlPanel: {
    sections: [
      { label: 'Query', expanded: true, tab: 'data', controlSetRows: [[{ name: 'groupby', override: { label: 'Dimensions', description: 'Hierarchy of the rectangles, outermost first' } }], ['metric'], ['adhoc_filters'], ['time_range'], ['row_limit'], ['sort_by_metric']] },
      { label: 'Chart options', expanded: true, tab: 'customize', controlSetRows: [
          ['color_scheme'],
          [{ name: 'show_labels', type: 'CheckboxControl', label: 'Show Labels', default: true, renderTrigger: true, description: 'Whether to display the labels.' }],
          [{ name: 'show_upper_labels', type: 'CheckboxControl', label: 'Show Upper Labels', default: true, renderTrigger: true, description: 'Show labels when the node has children.' }],
          [{ name: 'label_type', type: 'SelectControl', label: 'Label Type', default: 'key_value', renderTrigger: true, choices: [['key', 'Key'], ['value', 'Value'], ['key_value', 'Category and Value']], description: 'What should be shown on the label?' }],
          ['number_format'],
          ['currency_format'],
          ['date_format'],
        ],
      },
    ],
  },
  defaultFormData: { row_limit: 1000, sort_by_metric: true, color_scheme: 'supersetColors', label_type: 'key_value' },
  buildQuery: buildPieQuery,
  transformProps: transformTreemap,
  loadChart: () => import('./TreemapChart'),
};

export default treemap;
