import { svg } from '../shared/thumbnail';
import type { ChartMeta } from '../types';

/** Graph Chart (`graph_chart`): what lists and the gallery show; the rest of the type loads when it is used. */
export default {
  key: 'graph_chart',
  name: 'Graph Chart',
  category: 'Flow',
  description: 'Displays connections between entities in a graph structure. Useful for mapping relationships and showing which nodes are important in a network.',
  tags: ['Circular', 'Comparison', 'Directional', 'ECharts', 'Relational', 'Structural', 'Transformable'],
  thumbnail: svg('<path d="M14 28 L32 10 L50 26 L14 28 M32 10 L34 34" stroke="#A1A6BD" stroke-width="1.5"/><circle cx="14" cy="28" r="5" fill="#1FA8C9"/><circle cx="32" cy="10" r="6" fill="#454E7C"/><circle cx="50" cy="26" r="4" fill="#5AC189"/><circle cx="34" cy="34" r="3" fill="#FF7F44"/>'),
  behaviors: ['INTERACTIVE_CHART', 'DRILL_TO_DETAIL', 'DRILL_BY', 'CROSS_FILTER'],
} satisfies ChartMeta;
