import { queryContextFromFormData } from '@meridian/contracts/chart-data/form-data';
import type { EChartsTransformed } from '../shared/echarts-chart';
import type { ChartPlugin, ControlConfig, FormData, QueryContext } from '../types';
import { transformGraph } from './transform-props';
import { columnChoices, REQUIRED } from '../shared/controls';
import meta from './meta';


/** The metric per (source, target) pair: one edge each. Shared by the graph and the Sankey. */
export function buildFlowQuery(fd: FormData): QueryContext {
  const context = queryContextFromFormData({ ...fd, groupby: [fd.source, fd.target].filter(Boolean) });
  if (fd.metric) context.queries[0]!.orderby = [[fd.metric, false]];
  return context as QueryContext;
}

export const FLOW_QUERY_ROWS = [
  [{ name: 'source', type: 'GroupByControl', label: 'Source', multi: false, choices: columnChoices, validators: REQUIRED }, { name: 'target', type: 'GroupByControl', label: 'Target', multi: false, choices: columnChoices, validators: REQUIRED }],
  ['metric'],
  ['adhoc_filters'],
  ['time_range'],
  ['row_limit'],
] as const satisfies ReadonlyArray<ReadonlyArray<string | ControlConfig>>;

const graph: ChartPlugin<EChartsTransformed> = {
  ...meta,
  controlPanel: {
    sections: [
      { label: 'Query', expanded: true, tab: 'data', controlSetRows: FLOW_QUERY_ROWS },
      {
        label: 'Chart options',
        expanded: true,
        tab: 'customize',
        controlSetRows: [
          ['color_scheme'],
          [{ name: 'layout', type: 'SelectControl', label: 'Graph layout', default: 'force', renderTrigger: true, choices: [['force', 'Force'], ['circular', 'Circular']] }],
          [{ name: 'edgeSymbol', type: 'SelectControl', label: 'Edge symbols', default: 'none', renderTrigger: true, choices: [['none', 'None'], ['arrow', 'Arrow']] }],
          [{ name: 'draggable', type: 'CheckboxControl', label: 'Enable node dragging', default: true, renderTrigger: true }, { name: 'roam', type: 'CheckboxControl', label: 'Enable graph roaming', default: true, renderTrigger: true }],
          ['number_format'],
        ],
      },
    ],
  },
  defaultFormData: { row_limit: 1000, layout: 'force', color_scheme: 'supersetColors' },
  buildQuery: buildFlowQuery,
  transformProps: transformGraph,
  loadChart: () => import('./GraphChart'),
};

export default graph;
