import { svg } from '../shared/thumbnail';
import type { ChartMeta } from '../types';

/** Radar Chart (`radar`): what lists and the gallery show; the rest of the type loads when it is used. */
export default {
  key: 'radar',
  name: 'Radar Chart',
  category: 'Ranking',
  description: 'Visualize a parallel set of metrics across multiple groups. Each group is visualized using its own line of points and each metric is represented as an edge in the chart.',
  tags: ['ECharts', 'Business', 'Comparison', 'Multi-Variables', 'Report', 'Web'],
  thumbnail: svg('<path d="M32 4 L52 16 L46 36 L18 36 L12 16 Z" stroke="#A1A6BD" stroke-width="1.5"/><path d="M32 10 L46 18 L40 30 L24 32 L18 18 Z" fill="#1FA8C9" fill-opacity="0.4" stroke="#1FA8C9" stroke-width="2"/>'),
  behaviors: ['INTERACTIVE_CHART', 'DRILL_TO_DETAIL', 'DRILL_BY', 'CROSS_FILTER'],
} satisfies ChartMeta;
