import { queryContextFromFormData } from '@meridian/contracts/chart-data/form-data';
import { svg } from '../shared/timeseries/plugin';
import type { EChartsTransformed } from '../shared/echarts-chart';
import type { ChartPlugin, FormData, QueryContext } from '../types';
import { transformWorldMap } from './transform-props';
import { columnChoices, REQUIRED } from '../shared/controls';

export function buildMapQuery(fd: FormData): QueryContext {
  const context = queryContextFromFormData({ ...fd, groupby: fd.entity ? [fd.entity] : [], metric_2: fd.secondary_metric ?? undefined });
  if (fd.metric) context.queries[0]!.orderby = [[fd.metric, false]];
  return context as QueryContext;
}

const worldMap: ChartPlugin<EChartsTransformed & { map: 'world' }> = {
  key: 'world_map',
  name: 'World Map',
  category: 'Map',
  description: 'A map of the world, that can indicate values in different countries.',
  tags: ['2D', 'Comparison', 'Intensity', 'Multi-Dimensions', 'Multi-Layers', 'Report'],
  thumbnail: svg('<path d="M6 14 C10 8 18 8 22 12 C24 18 18 22 16 28 C12 26 8 22 6 14 Z" fill="#1FA8C9"/><path d="M28 8 C36 6 44 8 46 12 C42 16 36 16 32 20 C30 16 28 12 28 8 Z" fill="#454E7C"/><path d="M34 22 C40 20 44 24 42 30 C38 34 34 30 34 22 Z" fill="#5AC189"/><path d="M48 26 C52 24 58 26 56 32 C52 34 48 32 48 26 Z" fill="#8FD3E4"/>'),
  behaviors: ['INTERACTIVE_CHART', 'DRILL_TO_DETAIL', 'DRILL_BY', 'CROSS_FILTER'],
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
