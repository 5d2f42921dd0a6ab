import { svg } from '../shared/thumbnail';
import type { ChartMeta } from '../types';

/** Scatter Plot (`echarts_timeseries_scatter`): what lists and the gallery show; the rest of the type loads when it is used. */
export default {
  key: 'echarts_timeseries_scatter',
  name: 'Scatter Plot',
  category: 'Evolution',
  description: 'Scatter Plot has the horizontal axis in linear units, and the points are connected in order. It shows a statistical relationship between two variables.',
  thumbnail: svg('<circle cx="10" cy="28" r="3" fill="#1FA8C9"/><circle cx="20" cy="18" r="3" fill="#1FA8C9"/><circle cx="30" cy="24" r="3" fill="#454E7C"/><circle cx="42" cy="12" r="3" fill="#1FA8C9"/><circle cx="54" cy="8" r="3" fill="#454E7C"/><circle cx="48" cy="22" r="3" fill="#1FA8C9"/>'),
  tags: ['ECharts', 'Scatter', 'Time', 'Trend', 'Correlation'],
  behaviors: ['INTERACTIVE_CHART', 'DRILL_TO_DETAIL', 'DRILL_BY', 'CROSS_FILTER'],
} satisfies ChartMeta;
