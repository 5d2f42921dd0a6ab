import { svg } from '../shared/thumbnail';
import type { ChartMeta } from '../types';

/** Stepped Line (`echarts_timeseries_step`): what lists and the gallery show; the rest of the type loads when it is used. */
export default {
  key: 'echarts_timeseries_step',
  name: 'Stepped Line',
  category: 'Evolution',
  description: 'Stepped-line graph (also called step chart) is a variation of line chart but with the line forming a series of steps between data points.',
  thumbnail: svg('<path d="M4 32 H16 V22 H30 V26 H42 V10 H60" stroke="#1FA8C9" stroke-width="3"/>'),
  tags: ['ECharts', 'Line', 'Step', 'Time', 'Trend'],
  behaviors: ['INTERACTIVE_CHART', 'DRILL_TO_DETAIL', 'DRILL_BY', 'CROSS_FILTER'],
} satisfies ChartMeta;
