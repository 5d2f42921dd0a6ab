import { svg } from '../shared/thumbnail';
import type { ChartMeta } from '../types';

/** Pie Chart (`pie`): what lists and the gallery show; the rest of the type loads when it is used. */
export default {
  key: 'pie',
  name: 'Pie Chart',
  category: 'Part of a Whole',
  description: 'The classic. Great for showing how much of a company each investor gets, what demographics follow your blog, or what portion of the budget goes to the military industrial complex.',
  tags: ['ECharts', 'Categorical', 'Circular', 'Percentages', 'Proportional', 'Popular'],
  thumbnail: svg('<circle cx="32" cy="20" r="16" fill="#454E7C"/><path d="M32 20 L32 4 A16 16 0 0 1 47 25 Z" fill="#1FA8C9"/><path d="M32 20 L47 25 A16 16 0 0 1 22 33 Z" fill="#5AC189"/>'),
  behaviors: ['INTERACTIVE_CHART', 'DRILL_TO_DETAIL', 'DRILL_BY', 'CROSS_FILTER'],
} satisfies ChartMeta;
