import { svg } from '../shared/thumbnail';
import type { ChartMeta } from '../types';

/** Bar Chart (`echarts_timeseries_bar`): what lists and the gallery show; the rest of the type loads when it is used. */
export default {
  key: 'echarts_timeseries_bar',
  name: 'Bar Chart',
  category: 'Evolution',
  description: 'Bar Charts are used to show metrics as a series of bars.',
  thumbnail: svg('<rect x="6" y="20" width="9" height="16" fill="#1FA8C9"/><rect x="20" y="10" width="9" height="26" fill="#1FA8C9"/><rect x="34" y="16" width="9" height="20" fill="#1FA8C9"/><rect x="48" y="6" width="9" height="30" fill="#1FA8C9"/>'),
  tags: ['ECharts', 'Bar', 'Vertical', 'Horizontal', 'Stacked', 'Popular'],
  behaviors: ['INTERACTIVE_CHART', 'DRILL_TO_DETAIL', 'DRILL_BY', 'CROSS_FILTER'],
} satisfies ChartMeta;
