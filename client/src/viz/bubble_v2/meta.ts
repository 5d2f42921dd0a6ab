import { svg } from '../shared/thumbnail';
import type { ChartMeta } from '../types';

/** Bubble Chart (`bubble_v2`): what lists and the gallery show; the rest of the type loads when it is used. */
export default {
  key: 'bubble_v2',
  name: 'Bubble Chart',
  category: 'Correlation',
  description: 'Visualizes a metric across three dimensions of data in a single chart (X axis, Y axis, and bubble size). Bubbles from the same group can be showcased using bubble color.',
  tags: ['Multi-Dimensions', 'Comparison', 'Scatter', 'Time', 'Trend', 'ECharts'],
  thumbnail: svg('<circle cx="16" cy="26" r="6" fill="#1FA8C9" fill-opacity="0.6"/><circle cx="32" cy="16" r="10" fill="#454E7C" fill-opacity="0.6"/><circle cx="50" cy="24" r="4" fill="#5AC189" fill-opacity="0.6"/>'),
  behaviors: ['INTERACTIVE_CHART', 'DRILL_TO_DETAIL', 'DRILL_BY'],
} satisfies ChartMeta;
