import { queryContextFromFormData } from '@meridian/contracts/chart-data/form-data';
import { svg } from '../shared/timeseries/plugin';
import type { EChartsTransformed } from '../shared/echarts-chart';
import type { ChartPlugin, FormData, QueryContext } from '../types';
import { transformSunburst } from './transform-props';

/** The metric (and secondary metric) per combination of the hierarchy columns. */
export function buildSunburstQuery(fd: FormData): QueryContext {
  const context = queryContextFromFormData({ ...fd, groupby: [], metrics: [], metric: fd.metric, metric_2: fd.secondary_metric ?? undefined });
  const query = context.queries[0]!;
  query.columns = Array.isArray(fd.columns) ? fd.columns : [];
  if (fd.metric) query.orderby = [[fd.metric, false]];
  return context as QueryContext;
}

const sunburst: ChartPlugin<EChartsTransformed> = {
  key: 'sunburst_v2',
  name: 'Sunburst Chart',
  category: 'Part of a Whole',
  description: 'Uses circles to visualize the flow of data through different stages of a system. Hover over individual paths in the visualization to understand the stages a value took.',
  tags: ['ECharts', 'Aesthetic', 'Circular', 'Comparison', 'Multi-Levels', 'Proportional'],
  thumbnail: svg('<circle cx="32" cy="20" r="7" fill="#1FA8C9"/><path d="M32 8 A12 12 0 0 1 44 20 L39 20 A7 7 0 0 0 32 13 Z" fill="#454E7C"/><path d="M44 20 A12 12 0 0 1 20 20 L25 20 A7 7 0 0 0 39 20 Z" fill="#5AC189"/><path d="M20 20 A12 12 0 0 1 32 8 L32 13 A7 7 0 0 0 25 20 Z" fill="#FF7F44"/><circle cx="32" cy="20" r="17" stroke="#A1A6BD" stroke-width="3"/>'),
  behaviors: ['INTERACTIVE_CHART', 'DRILL_TO_DETAIL', 'DRILL_BY', 'CROSS_FILTER'],
  controlPanel: {
    sections: [
      {
        label: 'Query',
        expanded: true,
        tab: 'data',
        controlSetRows: [
          [{ name: 'columns', override: { label: 'Hierarchy', description: 'Sets the hierarchy levels of the chart. Each level is represented by one ring with the innermost circle as the top of the hierarchy.', validators: [(v) => (Array.isArray(v) && v.length ? false : 'cannot be empty')] } }],
          [{ name: 'metric', override: { label: 'Primary Metric', description: 'The primary metric is used to define the arc segment sizes' } }],
          [{ name: 'secondary_metric', type: 'MetricsControl', label: 'Secondary Metric', multi: false, description: 'When set, the colours show the ratio against the primary metric' }],
          ['adhoc_filters'],
          ['time_range'],
          ['row_limit'],
        ],
      },
      { label: 'Chart options', expanded: true, tab: 'customize', controlSetRows: [['color_scheme'], ['linear_color_scheme'], [{ name: 'show_labels', type: 'CheckboxControl', label: 'Show labels', default: true, renderTrigger: true }], ['number_format']] },
    ],
  },
  defaultFormData: { row_limit: 1000, color_scheme: 'supersetColors' },
  buildQuery: buildSunburstQuery,
  transformProps: transformSunburst,
  loadChart: () => import('./SunburstChart'),
};

export default sunburst;
