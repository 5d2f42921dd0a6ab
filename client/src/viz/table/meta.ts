import { svg } from '../shared/thumbnail';
import type { ChartMeta } from '../types';

/** Table (`table`): what lists and the gallery show; the rest of the type loads when it is used. */
export default {
  key: 'table',
  name: 'Table',
  category: 'Table',
  description: 'Classic row-by-column spreadsheet like view of a dataset. Use tables to showcase a view into the underlying data or to show aggregated metrics.',
  tags: ['Additive', 'Business', 'Pattern', 'Report', 'Sequential', 'Tabular', 'Description', 'Popular'],
  thumbnail: svg('<rect x="6" y="6" width="52" height="28" rx="2" stroke="#1FA8C9" stroke-width="2"/><path d="M6 14 H58 M6 21 H58 M6 28 H58 M24 6 V34 M42 6 V34" stroke="#1FA8C9" stroke-width="1.5"/>'),
  behaviors: ['INTERACTIVE_CHART', 'DRILL_TO_DETAIL', 'DRILL_BY', 'CROSS_FILTER'],
} satisfies ChartMeta;
