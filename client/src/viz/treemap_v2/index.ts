import { buildPieQuery } from '../pie/index';
import { svg } from '../shared/timeseries/plugin';
import type { EChartsTransformed } from '../shared/echarts-chart';
import type { ChartPlugin } from '../types';
import { transformTreemap } from './transform-props';

const treemap: ChartPlugin<EChartsTransformed> = {
  key: 'treemap_v2',
  name: 'Treemap',
  category: 'Part of a Whole',
  description: 'Show hierarchical relationships of data, with the value represented by area, showing proportion and contribution to the whole.',
  tags: ['ECharts', 'Categorical', 'Comparison', 'Multi-Levels', 'Percentages', 'Proportional'],
  thumbnail: svg('<rect x="4" y="4" width="32" height="32" fill="#1FA8C9"/><rect x="38" y="4" width="22" height="18" fill="#454E7C"/><rect x="38" y="24" width="10" height="12" fill="#5AC189"/><rect x="50" y="24" width="10" height="12" fill="#FF7F44"/>'),
  behaviors: ['INTERACTIVE_CHART', 'DRILL_TO_DETAIL', 'DRILL_BY', 'CROSS_FILTER'],
  controlPanel: {
    sections: [
      { label: 'Query', expanded: true, tab: 'data', controlSetRows: [[{ name: 'groupby', override: { label: 'Dimensions', description: 'Hierarchy of the rectangles, outermost first' } }], ['metric'], ['adhoc_filters'], ['time_range'], ['row_limit'], ['sort_by_metric']] },
      { label: 'Chart options', expanded: true, tab: 'customize', controlSetRows: [['color_scheme'], [{ name: 'show_labels', type: 'CheckboxControl', label: 'Show labels', default: true, renderTrigger: true }], [{ name: 'label_type', type: 'SelectControl', label: 'Label Type', default: 'key_value', renderTrigger: true, choices: [['key', 'Category Name'], ['key_value', 'Category and Value']] }], ['number_format']] },
    ],
  },
  defaultFormData: { row_limit: 1000, sort_by_metric: true, color_scheme: 'supersetColors', label_type: 'key_value' },
  buildQuery: buildPieQuery,
  transformProps: transformTreemap,
  loadChart: () => import('./TreemapChart'),
};

export default treemap;
