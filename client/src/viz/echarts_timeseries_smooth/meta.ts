import { svg } from '../shared/thumbnail';
import type { ChartMeta } from '../types';

/** Smooth Line (`echarts_timeseries_smooth`): what lists and the gallery show; the rest of the type loads when it is used. */
export default {
  key: 'echarts_timeseries_smooth',
  name: 'Smooth Line',
  category: 'Evolution',
  description: 'Smooth-line is a variation of the line chart. Without angles and hard edges, Smooth-line sometimes looks smarter and more professional.',
  thumbnail: svg('<path d="M4 32 C14 10, 24 36, 34 20 S 52 6, 60 14" stroke="#1FA8C9" stroke-width="3"/>'),
  tags: ['ECharts', 'Line', 'Time', 'Trend'],
  behaviors: ['INTERACTIVE_CHART', 'DRILL_TO_DETAIL', 'DRILL_BY', 'CROSS_FILTER'],
} satisfies ChartMeta;
