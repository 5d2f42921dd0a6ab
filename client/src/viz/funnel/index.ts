import { buildPieQuery } from '../pie/index';
import { svg } from '../shared/timeseries/plugin';
import type { ChartPlugin } from '../types';
import type { EChartsTransformed } from '../shared/echarts-chart';
import { transformFunnel } from './transform-props';

const LABEL_TYPES = [['key', 'Category Name'], ['value', 'Value'], ['percent', 'Percentage'], ['key_value', 'Category and Value'], ['key_percent', 'Category and Percentage'], ['key_value_percent', 'Category, Value and Percentage']] as const;

const funnel: ChartPlugin<EChartsTransformed> = {
  key: 'funnel',
  name: 'Funnel Chart',
  category: 'Part of a Whole',
  description: 'Showcases how a metric changes as the funnel progresses. This classic chart is useful for visualizing drop-off between stages in a pipeline or lifecycle.',
  tags: ['ECharts', 'Business', 'Progressive', 'Sequential'],
  thumbnail: svg('<path d="M8 6 H56 L48 16 H16 Z" fill="#1FA8C9"/><path d="M17 18 H47 L40 28 H24 Z" fill="#454E7C"/><path d="M25 30 H39 L35 38 H29 Z" fill="#5AC189"/>'),
  behaviors: ['INTERACTIVE_CHART', 'DRILL_TO_DETAIL', 'DRILL_BY', 'CROSS_FILTER'],
  controlPanel: {
    sections: [
      { label: 'Query', expanded: true, tab: 'data', controlSetRows: [['groupby'], ['metric'], ['adhoc_filters'], ['time_range'], ['row_limit'], ['sort_by_metric']] },
      {
        label: 'Chart options',
        expanded: true,
        tab: 'customize',
        controlSetRows: [['color_scheme'], ['show_legend'], [{ name: 'show_labels', type: 'CheckboxControl', label: 'Show labels', default: true, renderTrigger: true }], [{ name: 'label_type', type: 'SelectControl', label: 'Label Type', default: 'key', renderTrigger: true, choices: LABEL_TYPES }], ['number_format']],
      },
    ],
  },
  defaultFormData: { row_limit: 10, sort_by_metric: true, label_type: 'key', color_scheme: 'supersetColors' },
  buildQuery: buildPieQuery,
  transformProps: transformFunnel,
  loadChart: () => import('./FunnelChart'),
};

export default funnel;
