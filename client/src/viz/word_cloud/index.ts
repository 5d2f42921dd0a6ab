import { queryContextFromFormData } from '@meridian/contracts/chart-data/form-data';
import type { EChartsTransformed } from '../shared/echarts-chart';
import type { ChartPlugin, FormData, QueryContext } from '../types';
import { transformWordCloud } from './transform-props';
import { columnChoices, REQUIRED } from '../shared/controls';
import meta from './meta';

/**
 * The metric per word. 'Sort by metric' (Superset's) orders the words by it, largest first, so the row limit keeps the
 * most frequent; unticked, the database's order stands. A chart that stores no choice is sorted (Superset's leaves
 * it unsorted, keeping whichever words the database returns first).
 */
export function buildWordCloudQuery(fd: FormData): QueryContext {
  const context = queryContextFromFormData({ ...fd, groupby: fd.series ? [fd.series] : [] });
  if (fd.metric && fd.sort_by_metric !== false) context.queries[0]!.orderby = [[fd.metric, false]];
  return context as QueryContext;
}

const wordCloud: ChartPlugin<EChartsTransformed> = {
  ...meta,
  controlPanel: {
    sections: [
      { label: 'Query', expanded: true, tab: 'data', controlSetRows: [[{ name: 'series', type: 'GroupByControl', label: 'Dimension', multi: false, clearable: false, validators: REQUIRED, choices: columnChoices }], ['metric'], ['adhoc_filters'], ['time_range'], [{ name: 'row_limit', override: { default: 100 } }], [{ name: 'sort_by_metric', override: { description: 'Whether to sort results by the selected metric in descending order.' } }]] },
      {
        label: 'Options',
        expanded: true,
        tab: 'customize',
        controlSetRows: [
          [{ name: 'size_from', type: 'TextControl', label: 'Minimum Font Size', isInt: true, default: 10, renderTrigger: true, description: 'Font size for the smallest value in the list' }, { name: 'size_to', type: 'TextControl', label: 'Maximum Font Size', isInt: true, default: 70, renderTrigger: true, description: 'Font size for the biggest value in the list' }],
          [{ name: 'rotation', type: 'SelectControl', label: 'Word Rotation', default: 'square', clearable: false, renderTrigger: true, description: 'Rotation to apply to words in the cloud', choices: [['random', 'random'], ['flat', 'flat'], ['square', 'square']] }],
          ['color_scheme'],
        ],
      },
    ],
  },
  defaultFormData: { row_limit: 100, sort_by_metric: true, size_from: 10, size_to: 70, rotation: 'square', color_scheme: 'supersetColors' },
  buildQuery: buildWordCloudQuery,
  transformProps: transformWordCloud,
  loadChart: () => import('./WordCloudChart'),
};

export default wordCloud;
