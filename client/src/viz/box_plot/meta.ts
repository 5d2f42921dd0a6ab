import { svg } from '../shared/thumbnail';
import type { ChartMeta } from '../types';

/** Box Plot (`box_plot`): what lists and the gallery show; the rest of the type loads when it is used. */
export default {
  key: 'box_plot',
  name: 'Box Plot',
  category: 'Distribution',
  description: 'Also known as a box and whisker plot, this visualization compares the distributions of a related metric across multiple groups. The box in the middle emphasizes the mean, median, and inner 2 quartiles.',
  tags: ['ECharts', 'Range', 'Statistical'],
  thumbnail: svg('<path d="M16 6 V12 M16 28 V34 M40 10 V16 M40 30 V36" stroke="#454E7C" stroke-width="2"/><rect x="10" y="12" width="12" height="16" fill="#1FA8C9" fill-opacity="0.4" stroke="#1FA8C9" stroke-width="2"/><rect x="34" y="16" width="12" height="14" fill="#1FA8C9" fill-opacity="0.4" stroke="#1FA8C9" stroke-width="2"/><path d="M10 20 H22 M34 22 H46" stroke="#1FA8C9" stroke-width="2"/>'),
  behaviors: ['INTERACTIVE_CHART', 'DRILL_TO_DETAIL', 'DRILL_BY', 'CROSS_FILTER'],
} satisfies ChartMeta;
