import { queryContextFromFormData } from '@meridian/contracts/chart-data/form-data';
import type { EChartsTransformed } from '../shared/echarts-chart';
import type { ChartPlugin, FormData, QueryContext } from '../types';
import { transformSunburst } from './transform-props';
import meta from './meta';

/** The metric (and secondary metric) per combination of the hierarchy columns. */
export function buildSunburstQuery(fd: FormData): QueryContext {
  const context = queryContextFromFormData({ ...fd, groupby: [], metrics: [], metric: fd.metric, metric_2: fd.secondary_metric ?? undefined });
  const query = context.queries[0]!;
  query.columns = Array.isArray(fd.columns) ? fd.columns : [];
  if (fd.metric) query.orderby = [[fd.metric, false]];
  return context as QueryContext;
}

const sunburst: ChartPlugin<EChartsTransformed> = {
  ...meta,
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
      { label: 'Chart options', expanded: true, tab: 'customize', controlSetRows: [['color_scheme'], ['linear_color_scheme'], [{ name: 'show_labels', type: 'CheckboxControl', label: 'Show labels', default: true, renderTrigger: true }], ['number_format'], ['currency_format']] },
    ],
  },
  defaultFormData: { row_limit: 1000, color_scheme: 'supersetColors' },
  buildQuery: buildSunburstQuery,
  transformProps: transformSunburst,
  loadChart: () => import('./SunburstChart'),
};

export default sunburst;
