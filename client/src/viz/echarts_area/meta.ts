import { svg } from '../shared/thumbnail';
import type { ChartMeta } from '../types';

/** Area Chart (`echarts_area`): what lists and the gallery show; the rest of the type loads when it is used. */
export default {
  key: 'echarts_area',
  name: 'Area Chart',
  category: 'Evolution',
  description: 'Area charts are similar to line charts in that they represent variables with the same scale, but area charts stack the metrics on top of each other.',
  thumbnail: svg('<path d="M4 36 L4 24 L18 14 L32 22 L46 8 L60 14 L60 36 Z" fill="#1FA8C9" fill-opacity="0.35" stroke="#1FA8C9" stroke-width="2"/>'),
  tags: ['ECharts', 'Stacked', 'Time', 'Trend', 'Popular'],
  behaviors: ['INTERACTIVE_CHART', 'DRILL_TO_DETAIL', 'DRILL_BY', 'CROSS_FILTER'],
} satisfies ChartMeta;
