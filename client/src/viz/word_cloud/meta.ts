import { svg } from '../shared/thumbnail';
import type { ChartMeta } from '../types';

/** Word Cloud (`word_cloud`): what lists and the gallery show; the rest of the type loads when it is used. */
export default {
  key: 'word_cloud',
  name: 'Word Cloud',
  category: 'Ranking',
  description: 'Visualizes the words in a column that appear the most often. Bigger font corresponds to higher frequency.',
  tags: ['Categorical', 'Comparison', 'Density', 'Single Metric'],
  thumbnail: svg('<text x="8" y="18" font-size="12" font-weight="700" fill="#1FA8C9">data</text><text x="34" y="16" font-size="8" fill="#454E7C">sql</text><text x="14" y="32" font-size="9" fill="#5AC189">chart</text><text x="40" y="32" font-size="13" font-weight="700" fill="#FF7F44">bi</text>'),
  behaviors: ['INTERACTIVE_CHART', 'DRILL_TO_DETAIL', 'DRILL_BY', 'CROSS_FILTER'],
} satisfies ChartMeta;
