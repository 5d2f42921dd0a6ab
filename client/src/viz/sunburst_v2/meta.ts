import { svg } from '../shared/thumbnail';
import type { ChartMeta } from '../types';

/** Sunburst Chart (`sunburst_v2`): what lists and the gallery show; the rest of the type loads when it is used. */
export default {
  key: 'sunburst_v2',
  name: 'Sunburst Chart',
  category: 'Part of a Whole',
  description: 'Uses circles to visualize the flow of data through different stages of a system. Hover over individual paths in the visualization to understand the stages a value took.',
  tags: ['ECharts', 'Aesthetic', 'Circular', 'Comparison', 'Multi-Levels', 'Proportional'],
  thumbnail: svg('<circle cx="32" cy="20" r="7" fill="#1FA8C9"/><path d="M32 8 A12 12 0 0 1 44 20 L39 20 A7 7 0 0 0 32 13 Z" fill="#454E7C"/><path d="M44 20 A12 12 0 0 1 20 20 L25 20 A7 7 0 0 0 39 20 Z" fill="#5AC189"/><path d="M20 20 A12 12 0 0 1 32 8 L32 13 A7 7 0 0 0 25 20 Z" fill="#FF7F44"/><circle cx="32" cy="20" r="17" stroke="#A1A6BD" stroke-width="3"/>'),
  behaviors: ['INTERACTIVE_CHART', 'DRILL_TO_DETAIL', 'DRILL_BY', 'CROSS_FILTER'],
} satisfies ChartMeta;
