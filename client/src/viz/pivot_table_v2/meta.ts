import { svg } from '../shared/thumbnail';
import type { ChartMeta } from '../types';

/** Pivot Table (`pivot_table_v2`): what lists and the gallery show; the rest of the type loads when it is used. */
export default {
  key: 'pivot_table_v2',
  name: 'Pivot Table',
  category: 'Table',
  description: 'Used to summarize a set of data by grouping together multiple statistics along two axes. Examples: Sales numbers by region and month, tasks by status and assignee, active users by age and location.',
  tags: ['Additive', 'Report', 'Tabular', 'Popular'],
  thumbnail: svg('<rect x="6" y="6" width="52" height="28" rx="2" stroke="#454E7C" stroke-width="2"/><rect x="6" y="6" width="52" height="7" fill="#454E7C" fill-opacity="0.35"/><rect x="6" y="6" width="14" height="28" fill="#454E7C" fill-opacity="0.35"/><path d="M6 20 H58 M6 27 H58 M32 6 V34 M45 6 V34" stroke="#454E7C" stroke-width="1"/>'),
  behaviors: ['INTERACTIVE_CHART', 'DRILL_TO_DETAIL'],
} satisfies ChartMeta;
