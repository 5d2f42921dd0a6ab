import { svg } from '../shared/thumbnail';
import type { ChartMeta } from '../types';

/** Sankey Chart (`sankey_v2`): what lists and the gallery show; the rest of the type loads when it is used. */
export default {
  key: 'sankey_v2',
  name: 'Sankey Chart',
  category: 'Flow',
  description: 'The Sankey chart visually tracks the movement and transformation of values across system stages. Nodes represent stages, connected by links depicting value flow.',
  tags: ['Directional', 'ECharts', 'Distribution', 'Flow'],
  thumbnail: svg('<rect x="6" y="6" width="5" height="28" fill="#1FA8C9"/><rect x="53" y="4" width="5" height="14" fill="#454E7C"/><rect x="53" y="22" width="5" height="14" fill="#5AC189"/><path d="M11 8 C32 8 32 6 53 6 L53 16 C32 16 32 20 11 20 Z" fill="#1FA8C9" fill-opacity="0.35"/><path d="M11 20 C32 20 32 24 53 24 L53 34 C32 34 32 32 11 32 Z" fill="#5AC189" fill-opacity="0.35"/>'),
  behaviors: ['INTERACTIVE_CHART', 'DRILL_TO_DETAIL', 'DRILL_BY', 'CROSS_FILTER'],
} satisfies ChartMeta;
