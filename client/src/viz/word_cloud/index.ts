import { queryContextFromFormData } from '@meridian/contracts/chart-data/form-data';
import type { EChartsTransformed } from '../shared/echarts-chart';
import type { ChartPlugin, FormData, QueryContext } from '../types';
import { transformWordCloud } from './transform-props';
import { columnChoices, REQUIRED } from '../shared/controls';
import meta from './meta';

export function buildWordCloudQuery(fd: FormData): QueryContext {
  const context = queryContextFromFormData({ ...fd, groupby: fd.series ? [fd.series] : [] });
  if (fd.metric) context.queries[0]!.orderby = [[fd.metric, false]];
  return context as QueryContext;
}

const wordCloud: ChartPlugin<EChartsTransformed> = {
  ...meta,
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
