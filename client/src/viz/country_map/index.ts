import { buildMapQuery } from '../world_map/index';
import { svg } from '../shared/timeseries/plugin';
import type { EChartsTransformed } from '../shared/echarts-chart';
import type { ChartPlugin } from '../types';
import { COUNTRY_MAP_COUNTRIES, transformCountryMap } from './transform-props';
import { columnChoices, REQUIRED } from '../shared/controls';

const countryMap: ChartPlugin<EChartsTransformed & { map: 'usa' | null }> = {
  key: 'country_map',
  name: 'Country Map',
  category: 'Map',
  description: "Visualizes how a single metric varies across a country's principal subdivisions (states, provinces, etc) on a choropleth map. Each subdivision's value is elevated when you hover over its corresponding geographic boundary.",
  tags: ['2D', 'Comparison', 'Geo', 'Range', 'Report', 'Stacked'],
  thumbnail: svg('<path d="M6 10 H24 V18 H30 V10 H46 L58 14 V30 L46 34 H30 V26 H18 V34 H6 Z" fill="#1FA8C9" fill-opacity="0.5" stroke="#1FA8C9" stroke-width="1.5"/><path d="M24 10 V34 M46 10 V34 M6 22 H58" stroke="#ffffff" stroke-width="1"/>'),
  behaviors: ['INTERACTIVE_CHART', 'DRILL_TO_DETAIL', 'DRILL_BY', 'CROSS_FILTER'],
  controlPanel: {
    sections: [
      {
        label: 'Query',
        expanded: true,
        tab: 'data',
        controlSetRows: [
          [{ name: 'select_country', type: 'SelectControl', label: 'Country', default: 'usa', choices: COUNTRY_MAP_COUNTRIES, description: 'Which country to plot the map for?' }],
          [{ name: 'entity', type: 'GroupByControl', label: 'ISO 3166-2 Codes', multi: false, choices: columnChoices, validators: REQUIRED, description: 'Column containing ISO 3166-2 codes of region/province/department in your table.' }],
          ['metric'],
          ['adhoc_filters'],
          ['time_range'],
          [{ name: 'row_limit', override: { default: 10000 } }],
        ],
      },
      { label: 'Options', expanded: true, tab: 'customize', controlSetRows: [['linear_color_scheme'], ['number_format']] },
    ],
  },
  defaultFormData: { select_country: 'usa', linear_color_scheme: 'superset_seq_1', row_limit: 10000 },
  buildQuery: buildMapQuery,
  transformProps: transformCountryMap,
  loadChart: () => import('./CountryMapChart'),
};

export default countryMap;
