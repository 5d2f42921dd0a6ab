import { buildPieQuery } from '../pie/index';
import type { ChartPlugin } from '../types';
import type { EChartsTransformed } from '../shared/echarts-chart';
import { transformFunnel } from './transform-props';
import meta from './meta';

const LABEL_TYPES = [['key', 'Category Name'], ['value', 'Value'], ['percent', 'Percentage'], ['key_value', 'Category and Value'], ['key_percent', 'Category and Percentage'], ['key_value_percent', 'Category, Value and Percentage']] as const;

const funnel: ChartPlugin<EChartsTransformed> = {
  ...meta,
  controlPanel: {
    sections: [
      { label: 'Query', expanded: true, tab: 'data', controlSetRows: [['groupby'], ['metric'], ['adhoc_filters'], ['time_range'], ['row_limit'], ['sort_by_metric']] },
      {
        label: 'Chart options',
        expanded: true,
        tab: 'customize',
        controlSetRows: [['color_scheme'], ['show_legend'], [{ name: 'show_labels', type: 'CheckboxControl', label: 'Show labels', default: true, renderTrigger: true }], [{ name: 'label_type', type: 'SelectControl', label: 'Label Type', default: 'key', renderTrigger: true, choices: LABEL_TYPES }], ['number_format'], ['currency_format']],
      },
    ],
  },
  defaultFormData: { row_limit: 10, sort_by_metric: true, label_type: 'key', color_scheme: 'supersetColors' },
  buildQuery: buildPieQuery,
  transformProps: transformFunnel,
  loadChart: () => import('./FunnelChart'),
};

export default funnel;
