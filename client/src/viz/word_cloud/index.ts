import { queryContextFromFormData } from '@meridian/contracts/chart-data/form-data';
import { svg } from '../shared/timeseries/plugin';
import type { EChartsTransformed } from '../shared/echarts-chart';
import type { ChartPlugin, FormData, QueryContext } from '../types';
import { transformWordCloud } from './transform-props';
import { columnChoices, REQUIRED } from '../shared/controls';

export function buildWordCloudQuery(fd: FormData): QueryContext {
  const context = queryContextFromFormData({ ...fd, groupby: fd.series ? [fd.series] : [] });
  if (fd.metric) context.queries[0]!.orderby = [[fd.metric, false]];
  return context as QueryContext;
}

const wordCloud: ChartPlugin<EChartsTransformed> = {
  key: 'word_cloud',
  name: 'Word Cloud',
  category: 'Ranking',
  description: 'Visualizes the words in a column that appear the most often. Bigger font corresponds to higher frequency.',
  tags: ['Categorical', 'Comparison', 'Density', 'Single Metric'],
  thumbnail: svg('<text x="8" y="18" font-size="12" font-weight="700" fill="#1FA8C9">data</text><text x="34" y="16" font-size="8" fill="#454E7C">sql</text><text x="14" y="32" font-size="9" fill="#5AC189">chart</text><text x="40" y="32" font-size="13" font-weight="700" fill="#FF7F44">bi</text>'),
  behaviors: ['INTERACTIVE_CHART', 'DRILL_TO_DETAIL', 'DRILL_BY', 'CROSS_FILTER'],
  controlPanel: {
    sections: [
      { label: 'Query', expanded: true, tab: 'data', controlSetRows: [[{ name: 'series', type: 'GroupByControl', label: 'Dimension', multi: false, validators: REQUIRED, choices: columnChoices }], ['metric'], ['adhoc_filters'], ['time_range'], [{ name: 'row_limit', override: { default: 100 } }]] },
      {
        label: 'Options',
        expanded: true,
        tab: 'customize',
        controlSetRows: [
          [{ name: 'size_from', type: 'TextControl', label: 'Minimum Font Size', isInt: true, default: 10, renderTrigger: true }, { name: 'size_to', type: 'TextControl', label: 'Maximum Font Size', isInt: true, default: 70, renderTrigger: true }],
          [{ name: 'rotation', type: 'SelectControl', label: 'Word Rotation', default: 'square', renderTrigger: true, choices: [['random', 'random'], ['flat', 'flat'], ['square', 'square']] }],
          ['color_scheme'],
        ],
      },
    ],
  },
  defaultFormData: { row_limit: 100, size_from: 10, size_to: 70, rotation: 'square', color_scheme: 'supersetColors' },
  buildQuery: buildWordCloudQuery,
  transformProps: transformWordCloud,
  loadChart: () => import('./WordCloudChart'),
};

export default wordCloud;
