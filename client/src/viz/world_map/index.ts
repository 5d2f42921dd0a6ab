import { queryContextFromFormData } from '@meridian/contracts/chart-data/form-data';
import type { EChartsTransformed } from '../shared/echarts-chart';
import type { ChartPlugin, FormData, QueryContext } from '../types';
import { transformWorldMap } from './transform-props';
import { columnChoices, REQUIRED } from '../shared/controls';
import meta from './meta';

export function buildMapQuery(fd: FormData): QueryContext {
  const context = queryContextFromFormData({ ...fd, groupby: fd.entity ? [fd.entity] : [], metric_2: fd.secondary_metric ?? undefined });
  if (fd.metric) context.queries[0]!.orderby = [[fd.metric, false]];
  return context as QueryContext;
}

const worldMap: ChartPlugin<EChartsTransformed & { map: 'world' }> = {
  ...meta,
  controlPanel: {
    sections: [
      {
        label: 'Query',
        expanded: true,
        tab: 'data',
        controlSetRows: [
          [{ name: 'entity', type: 'GroupByControl', label: 'Country Column', multi: false, choices: columnChoices, validators: REQUIRED, description: '3 letter code of the country' }],
          [{ name: 'country_fieldtype', type: 'SelectControl', label: 'Country Field Type', default: 'cca3', choices: [['name', 'Full name'], ['cca2', 'code ISO 3166-1 alpha-2 (cca2)'], ['cca3', 'code ISO 3166-1 alpha-3 (cca3)']], description: 'The country code standard that Meridian should expect to find in the [country] column' }],
          ['metric'],
          [{ name: 'secondary_metric', type: 'MetricsControl', label: 'Secondary Metric', multi: false, description: 'Shown in the tooltip beside the metric' }],
          ['adhoc_filters'],
          ['time_range'],
          [{ name: 'row_limit', override: { default: 10000 } }],
        ],
      },
      { label: 'Options', expanded: true, tab: 'customize', controlSetRows: [['linear_color_scheme'], ['y_axis_format']] },
    ],
  },
  defaultFormData: { country_fieldtype: 'cca3', linear_color_scheme: 'superset_seq_1', row_limit: 10000 },
  buildQuery: buildMapQuery,
  transformProps: transformWorldMap,
  loadChart: () => import('./WorldMapChart'),
};

export default worldMap;
