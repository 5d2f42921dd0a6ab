import { buildFlowQuery, FLOW_QUERY_ROWS } from '../graph_chart/index';
import type { EChartsTransformed } from '../shared/echarts-chart';
import type { ChartPlugin } from '../types';
import { transformSankey } from './transform-props';
import meta from './meta';

const sankey: ChartPlugin<EChartsTransformed> = {
  ...meta,
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
