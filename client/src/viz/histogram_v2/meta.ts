import { svg } from '../shared/thumbnail';
import type { ChartMeta } from '../types';

/** Histogram (`histogram_v2`): what lists and the gallery show; the rest of the type loads when it is used. */
export default {
  key: 'histogram_v2',
  name: 'Histogram',
  category: 'Distribution',
  description: 'Take your data points, and group them into "bins" to see where the densest areas of information lie',
  tags: ['Comparison', 'ECharts', 'Pattern', 'Popular', 'Statistical'],
  thumbnail: svg('<rect x="6" y="26" width="10" height="10" fill="#1FA8C9"/><rect x="17" y="14" width="10" height="22" fill="#1FA8C9"/><rect x="28" y="6" width="10" height="30" fill="#1FA8C9"/><rect x="39" y="16" width="10" height="20" fill="#1FA8C9"/><rect x="50" y="28" width="10" height="8" fill="#1FA8C9"/>'),
  behaviors: ['INTERACTIVE_CHART', 'DRILL_TO_DETAIL'],
} satisfies ChartMeta;
