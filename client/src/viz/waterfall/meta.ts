import { svg } from '../shared/thumbnail';
import type { ChartMeta } from '../types';

/** Waterfall Chart (`waterfall`): what lists and the gallery show; the rest of the type loads when it is used. */
export default {
  key: 'waterfall',
  name: 'Waterfall Chart',
  category: 'Evolution',
  description: 'A waterfall chart is a form of data visualization that helps in understanding the cumulative effect of sequentially introduced positive or negative values. These intermediate values can either be time based or category based.',
  tags: ['ECharts', 'Categorical', 'Comparison', 'Description', 'Sequential', 'Trend'],
  thumbnail: svg('<rect x="6" y="18" width="9" height="18" fill="#5AC189"/><rect x="18" y="10" width="9" height="8" fill="#5AC189"/><rect x="30" y="10" width="9" height="12" fill="#E04355"/><rect x="42" y="6" width="9" height="16" fill="#5AC189"/><rect x="54" y="6" width="6" height="30" fill="#666666"/>'),
  behaviors: ['INTERACTIVE_CHART', 'DRILL_TO_DETAIL', 'DRILL_BY'],
} satisfies ChartMeta;
