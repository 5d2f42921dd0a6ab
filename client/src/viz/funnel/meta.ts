import { svg } from '../shared/thumbnail';
import type { ChartMeta } from '../types';

/** Funnel Chart (`funnel`): what lists and the gallery show; the rest of the type loads when it is used. */
export default {
  key: 'funnel',
  name: 'Funnel Chart',
  category: 'Part of a Whole',
  description: 'Showcases how a metric changes as the funnel progresses. This classic chart is useful for visualizing drop-off between stages in a pipeline or lifecycle.',
  tags: ['ECharts', 'Business', 'Progressive', 'Sequential'],
  thumbnail: svg('<path d="M8 6 H56 L48 16 H16 Z" fill="#1FA8C9"/><path d="M17 18 H47 L40 28 H24 Z" fill="#454E7C"/><path d="M25 30 H39 L35 38 H29 Z" fill="#5AC189"/>'),
  behaviors: ['INTERACTIVE_CHART', 'DRILL_TO_DETAIL', 'DRILL_BY', 'CROSS_FILTER'],
} satisfies ChartMeta;
