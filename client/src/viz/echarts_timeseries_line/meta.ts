import { svg } from '../shared/thumbnail';
import type { ChartMeta } from '../types';

/** Line Chart (`echarts_timeseries_line`): what lists and the gallery show; the rest of the type loads when it is used. */
export default {
  key: 'echarts_timeseries_line',
  name: 'Line Chart',
  category: 'Evolution',
  description: 'Line chart is used to visualize measurements taken over a given category. Line chart is a type of chart which displays information as a series of data points connected by straight line segments.',
  thumbnail: svg('<path d="M4 34 L18 20 L30 26 L44 10 L60 16" stroke="#1FA8C9" stroke-width="3"/><path d="M4 36 L18 30 L30 32 L44 24 L60 28" stroke="#454E7C" stroke-width="3"/>'),
  tags: ['ECharts', 'Line', 'Time', 'Trend', 'Popular'],
  behaviors: ['INTERACTIVE_CHART', 'DRILL_TO_DETAIL', 'DRILL_BY', 'CROSS_FILTER'],
} satisfies ChartMeta;
