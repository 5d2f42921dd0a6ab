import { svg } from '../shared/thumbnail';
import type { ChartMeta } from '../types';

/** Gauge Chart (`gauge_chart`): what lists and the gallery show; the rest of the type loads when it is used. */
export default {
  key: 'gauge_chart',
  name: 'Gauge Chart',
  category: 'KPI',
  description: 'Uses a gauge to showcase progress of a metric towards a target. The position of the dial represents the progress and the terminal value in the gauge represents the target value.',
  tags: ['ECharts', 'Multi-Variables', 'Business', 'Comparison', 'Report'],
  thumbnail: svg('<path d="M10 32 A22 22 0 1 1 54 32" stroke="#E9ECEF" stroke-width="6"/><path d="M10 32 A22 22 0 0 1 40 12" stroke="#1FA8C9" stroke-width="6"/><path d="M32 30 L42 16" stroke="#454E7C" stroke-width="3"/>'),
  behaviors: ['INTERACTIVE_CHART', 'DRILL_TO_DETAIL', 'DRILL_BY', 'CROSS_FILTER'],
} satisfies ChartMeta;
