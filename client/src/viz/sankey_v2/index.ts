import { queryContextFromFormData } from '@meridian/contracts/chart-data/form-data';
import { FLOW_QUERY_ROWS } from '../graph_chart/index';
import type { EChartsTransformed } from '../shared/echarts-chart';
import type { ChartPlugin, FormData, QueryContext } from '../types';
import { transformSankey } from './transform-props';
import meta from './meta';

/**
 * The metric per (source, target) pair, ordered as Superset's Sankey orders it: by the metric, largest first, when
 * 'Sort by metric' is ticked, then by the source and the target, so the row limit keeps the heaviest flows.
 */
export function buildSankeyQuery(fd: FormData): QueryContext {
  const context = queryContextFromFormData({ ...fd, groupby: [fd.source, fd.target].filter(Boolean) });
  const orderby: Array<[unknown, boolean]> = fd.sort_by_metric !== false && fd.metric ? [[fd.metric, false]] : [];
  for (const column of [fd.source, fd.target]) if (column) orderby.push([column, true]);
  context.queries[0]!.orderby = orderby;
  return context as QueryContext;
}

const sankey: ChartPlugin<EChartsTransformed> = {
  ...meta,
  controlPanel: {
    sections: [
      { label: 'Query', expanded: true, tab: 'data', controlSetRows: [...FLOW_QUERY_ROWS, ['sort_by_metric']] },
      { label: 'Chart options', expanded: true, tab: 'customize', controlSetRows: [['color_scheme'], ['number_format']] },
    ],
  },
  defaultFormData: { row_limit: 1000, sort_by_metric: true, color_scheme: 'supersetColors' },
  buildQuery: buildSankeyQuery,
  transformProps: transformSankey,
  loadChart: () => import('./SankeyChart'),
};

export default sankey;
