import { buildMapQuery } from '../world_map/index';
import type { EChartsTransformed } from '../shared/echarts-chart';
import type { ChartPlugin } from '../types';
import { transformCountryMap } from './transform-props';
import { COUNTRY_MAP_COUNTRIES, countryKey } from './countries';
import { columnChoices, REQUIRED } from '../shared/controls';
import meta from './meta';

const countryMap: ChartPlugin<EChartsTransformed & { map: string | null }> = {
  ...meta,
  controlPanel: {
    sections: [
      {
        label: 'Query',
        expanded: true,
        tab: 'data',
        controlSetRows: [
          [{ name: 'select_country', type: 'SelectControl', label: 'Country', default: 'usa', choices: COUNTRY_MAP_COUNTRIES, fromStored: (v) => countryKey(v) ?? v, description: 'Which country to plot the map for?' }],
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
