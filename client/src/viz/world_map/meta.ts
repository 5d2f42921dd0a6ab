import { svg } from '../shared/thumbnail';
import type { ChartMeta } from '../types';

/** World Map (`world_map`): what lists and the gallery show; the rest of the type loads when it is used. */
export default {
  key: 'world_map',
  name: 'World Map',
  category: 'Map',
  description: 'A map of the world, that can indicate values in different countries.',
  tags: ['2D', 'Comparison', 'Intensity', 'Multi-Dimensions', 'Multi-Layers', 'Report'],
  thumbnail: svg('<path d="M6 14 C10 8 18 8 22 12 C24 18 18 22 16 28 C12 26 8 22 6 14 Z" fill="#1FA8C9"/><path d="M28 8 C36 6 44 8 46 12 C42 16 36 16 32 20 C30 16 28 12 28 8 Z" fill="#454E7C"/><path d="M34 22 C40 20 44 24 42 30 C38 34 34 30 34 22 Z" fill="#5AC189"/><path d="M48 26 C52 24 58 26 56 32 C52 34 48 32 48 26 Z" fill="#8FD3E4"/>'),
  behaviors: ['INTERACTIVE_CHART', 'DRILL_TO_DETAIL', 'DRILL_BY', 'CROSS_FILTER'],
} satisfies ChartMeta;
