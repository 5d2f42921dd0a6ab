import { queryContextFromFormData } from '@meridian/contracts/chart-data/form-data';
import { svg } from '../shared/timeseries/plugin';
import type { EChartsTransformed } from '../shared/echarts-chart';
import type { ChartPlugin, QueryContext } from '../types';
import { transformRadar } from './transform-props';

const radar: ChartPlugin<EChartsTransformed> = {
  key: 'radar',
  name: 'Radar Chart',
  category: 'Ranking',
  description: 'Visualize a parallel set of metrics across multiple groups. Each group is visualized using its own line of points and each metric is represented as an edge in the chart.',
  tags: ['ECharts', 'Business', 'Comparison', 'Multi-Variables', 'Report', 'Web'],
  thumbnail: svg('<path d="M32 4 L52 16 L46 36 L18 36 L12 16 Z" stroke="#A1A6BD" stroke-width="1.5"/><path d="M32 10 L46 18 L40 30 L24 32 L18 18 Z" fill="#1FA8C9" fill-opacity="0.4" stroke="#1FA8C9" stroke-width="2"/>'),
  behaviors: ['INTERACTIVE_CHART', 'DRILL_TO_DETAIL', 'DRILL_BY', 'CROSS_FILTER'],
  controlPanel: {
    sections: [
      { label: 'Query', expanded: true, tab: 'data', controlSetRows: [['groupby'], ['metrics'], ['adhoc_filters'], ['time_range'], [{ name: 'row_limit', override: { default: 10 } }]] },
      {
        label: 'Chart options',
        expanded: true,
        tab: 'customize',
        controlSetRows: [['color_scheme'], ['show_legend'], [{ name: 'show_labels', type: 'CheckboxControl', label: 'Show labels', default: false, renderTrigger: true }], ['number_format'], [{ name: 'is_circle', type: 'CheckboxControl', label: 'Circle radar shape', default: false, renderTrigger: true }, { name: 'is_area', type: 'CheckboxControl', label: 'Area', default: true, renderTrigger: true }]],
      },
    ],
  },
  defaultFormData: { row_limit: 10, color_scheme: 'supersetColors', is_area: true },
  buildQuery: (fd) => {
    const context = queryContextFromFormData(fd);
    const metrics = context.queries[0]!.metrics as unknown[];
    if (metrics.length) context.queries[0]!.orderby = [[metrics[0], false]];
    return context as QueryContext;
  },
  transformProps: transformRadar,
  loadChart: () => import('./RadarChart'),
};

export default radar;
