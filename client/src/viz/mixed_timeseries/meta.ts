import { svg } from '../shared/thumbnail';
import type { ChartMeta } from '../types';

/** Mixed Chart (`mixed_timeseries`): what lists and the gallery show; the rest of the type loads when it is used. */
export default {
  key: 'mixed_timeseries',
  name: 'Mixed Chart',
  category: 'Evolution',
  description: 'Visualize two different series using the same x-axis. Note that both series can be visualized with a different chart type (e.g. 1 using bars and 1 using a line).',
  tags: ['Advanced-Analytics', 'ECharts', 'Line', 'Multi-Variables', 'Time', 'Transformable'],
  thumbnail: svg('<rect x="8" y="22" width="8" height="14" fill="#454E7C"/><rect x="22" y="16" width="8" height="20" fill="#454E7C"/><rect x="36" y="20" width="8" height="16" fill="#454E7C"/><rect x="50" y="12" width="8" height="24" fill="#454E7C"/><path d="M6 18 L20 8 L34 14 L48 6 L60 10" stroke="#1FA8C9" stroke-width="3"/>'),
  behaviors: ['INTERACTIVE_CHART', 'DRILL_TO_DETAIL', 'DRILL_BY', 'CROSS_FILTER'],
  // Query A and query B: the chart is empty only when both are.
  queryObjectCount: 2,
} satisfies ChartMeta;
