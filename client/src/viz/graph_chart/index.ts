import { queryContextFromFormData } from '@meridian/contracts/chart-data/form-data';
import type { EChartsTransformed } from '../shared/echarts-chart';
import type { ChartPlugin, ControlConfig, FormData, QueryContext } from '../types';
import { edgeSymbols, transformGraph } from './transform-props';
import { columnChoices, REQUIRED } from '../shared/controls';
import meta from './meta';

/** The force layout's settings show only for it (Superset's visibility: layout 'force', or none, its default). */
const isForce = ({ formData }: { formData: FormData }) => formData.layout !== 'circular';


/** The metric per (source, target) pair: one edge each. Shared by the graph and the Sankey. */
export function buildFlowQuery(fd: FormData): QueryContext {
  // The graph's node categories come with each edge (Superset's source_category, target_category).
  const context = queryContextFromFormData({ ...fd, groupby: [fd.source, fd.target, fd.source_category, fd.target_category].filter(Boolean) });
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
      {
        label: 'Query',
        expanded: true,
        tab: 'data',
        controlSetRows: [
          ...FLOW_QUERY_ROWS.slice(0, 2),
          [
            {
              name: 'source_category',
              type: 'GroupByControl',
              label: 'Source category',
              multi: false,
              clearable: true,
              choices: columnChoices,
              description: 'The category of source nodes used to assign colors. If a node is associated with more than one category, only the first will be used.',
            },
          ],
          [{ name: 'target_category', type: 'GroupByControl', label: 'Target category', multi: false, clearable: true, choices: columnChoices, description: 'Category of target nodes' }],
          ...FLOW_QUERY_ROWS.slice(2),
        ],
      },
      {
        label: 'Chart options',
        expanded: true,
        tab: 'customize',
        controlSetRows: [
          ['color_scheme'],
          // The legend names the node categories, so it shows only when there are some.
          ['show_legend'],
          ['legendType', 'legendOrientation'],
          [{ name: 'layout', type: 'SelectControl', label: 'Graph layout', default: 'force', clearable: false, renderTrigger: true, choices: [['force', 'Force'], ['circular', 'Circular']], description: 'Layout type of graph' }],
          [
            {
              name: 'edgeSymbol',
              type: 'SelectControl',
              label: 'Edge symbols',
              default: 'none,arrow',
              clearable: false,
              renderTrigger: true,
              choices: [['none,none', 'None -> None'], ['none,arrow', 'None -> Arrow'], ['circle,arrow', 'Circle -> Arrow'], ['circle,circle', 'Circle -> Circle']],
              description: 'Symbol of two ends of edge line',
              // An earlier Meridian stored the end's symbol alone.
              fromStored: (v) => (v === 'arrow' || v === 'none' ? edgeSymbols(v).join(',') : v),
            },
          ],
          [{ name: 'draggable', type: 'CheckboxControl', label: 'Enable node dragging', default: false, renderTrigger: true, description: 'Whether to enable node dragging in force layout mode.', visibility: isForce }],
          [
            {
              name: 'roam',
              type: 'SelectControl',
              label: 'Enable graph roaming',
              default: true,
              clearable: false,
              renderTrigger: true,
              choices: [[false, 'Disabled'], ['scale', 'Scale only'], ['move', 'Move only'], [true, 'Scale and Move']],
              description: 'Whether to enable changing graph position and scaling.',
            },
          ],
          [{ name: 'selectedMode', type: 'SelectControl', label: 'Node select mode', default: 'single', clearable: false, renderTrigger: true, choices: [[false, 'Disabled'], ['single', 'Single'], ['multiple', 'Multiple']], description: 'Allow node selections' }],
          [{ name: 'showSymbolThreshold', type: 'TextControl', label: 'Label threshold', isInt: true, default: 0, renderTrigger: true, description: 'Minimum value for label to be displayed on graph.' }],
          [
            { name: 'baseNodeSize', type: 'TextControl', label: 'Node size', isFloat: true, default: 20, renderTrigger: true, description: 'Median node size, the largest node will be 4 times larger than the smallest' },
            { name: 'baseEdgeWidth', type: 'TextControl', label: 'Edge width', isFloat: true, default: 3, renderTrigger: true, description: 'Median edge width, the thickest edge will be 4 times thicker than the thinnest.' },
          ],
          [{ name: 'edgeLength', type: 'SliderControl', label: 'Edge length', default: 400, min: 100, max: 1000, step: 50, renderTrigger: true, description: 'Edge length between nodes', visibility: isForce }],
          [{ name: 'gravity', type: 'SliderControl', label: 'Gravity', default: 0.3, min: 0.1, max: 1, step: 0.1, renderTrigger: true, description: 'Strength to pull the graph toward center', visibility: isForce }],
          [{ name: 'repulsion', type: 'SliderControl', label: 'Repulsion', default: 1000, min: 100, max: 3000, step: 50, renderTrigger: true, description: 'Repulsion strength between nodes', visibility: isForce }],
          [{ name: 'friction', type: 'SliderControl', label: 'Friction', default: 0.2, min: 0.1, max: 1, step: 0.1, renderTrigger: true, description: 'Friction between nodes', visibility: isForce }],
          ['number_format'],
        ],
      },
    ],
  },
  defaultFormData: { row_limit: 1000, layout: 'force', edgeSymbol: 'none,arrow', color_scheme: 'supersetColors' },
  buildQuery: buildFlowQuery,
  transformProps: transformGraph,
  loadChart: () => import('./GraphChart'),
};

export default graph;
