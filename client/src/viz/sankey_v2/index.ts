import { buildFlowQuery, FLOW_QUERY_ROWS } from '../graph_chart/index';
import { svg } from '../shared/timeseries/plugin';
import type { EChartsTransformed } from '../shared/echarts-chart';
import type { ChartPlugin } from '../types';
import { transformSankey } from './transform-props';

const sankey: ChartPlugin<EChartsTransformed> = {
  key: 'sankey_v2',
  name: 'Sankey Chart',
  category: 'Flow',
  description: 'The Sankey chart visually tracks the movement and transformation of values across system stages. Nodes represent stages, connected by links depicting value flow.',
  tags: ['Directional', 'ECharts', 'Distribution', 'Flow'],
  thumbnail: svg('<rect x="6" y="6" width="5" height="28" fill="#1FA8C9"/><rect x="53" y="4" width="5" height="14" fill="#454E7C"/><rect x="53" y="22" width="5" height="14" fill="#5AC189"/><path d="M11 8 C32 8 32 6 53 6 L53 16 C32 16 32 20 11 20 Z" fill="#1FA8C9" fill-opacity="0.35"/><path d="M11 20 C32 20 32 24 53 24 L53 34 C32 34 32 32 11 32 Z" fill="#5AC189" fill-opacity="0.35"/>'),
  behaviors: ['INTERACTIVE_CHART', 'DRILL_TO_DETAIL', 'DRILL_BY', 'CROSS_FILTER'],
  controlPanel: {
    sections: [
      { label: 'Query', expanded: true, tab: 'data', controlSetRows: FLOW_QUERY_ROWS },
      { label: 'Chart options', expanded: true, tab: 'customize', controlSetRows: [['color_scheme'], ['number_format']] },
    ],
  },
  defaultFormData: { row_limit: 1000, color_scheme: 'supersetColors' },
  buildQuery: buildFlowQuery,
  transformProps: transformSankey,
  loadChart: () => import('./SankeyChart'),
};

export default sankey;
