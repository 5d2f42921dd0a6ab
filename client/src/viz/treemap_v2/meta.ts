import { svg } from '../shared/thumbnail';
import type { ChartMeta } from '../types';

/** Treemap (`treemap_v2`): what lists and the gallery show; the rest of the type loads when it is used. */
export default {
  key: 'treemap_v2',
  name: 'Treemap',
  category: 'Part of a Whole',
  description: 'Show hierarchical relationships of data, with the value represented by area, showing proportion and contribution to the whole.',
  tags: ['ECharts', 'Categorical', 'Comparison', 'Multi-Levels', 'Percentages', 'Proportional'],
  thumbnail: svg('<rect x="4" y="4" width="32" height="32" fill="#1FA8C9"/><rect x="38" y="4" width="22" height="18" fill="#454E7C"/><rect x="38" y="24" width="10" height="12" fill="#5AC189"/><rect x="50" y="24" width="10" height="12" fill="#FF7F44"/>'),
  behaviors: ['INTERACTIVE_CHART', 'DRILL_TO_DETAIL', 'DRILL_BY', 'CROSS_FILTER'],
} satisfies ChartMeta;
