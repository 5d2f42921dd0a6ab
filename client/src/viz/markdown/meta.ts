import { svg } from '../shared/thumbnail';
import type { ChartMeta } from '../types';

/** Markdown (`markdown`): what lists and the gallery show; the rest of the type loads when it is used. */
export default {
  key: 'markdown',
  name: 'Markdown',
  category: 'Text',
  description: 'Formatted text written in Markdown: notes, headings and links beside other charts.',
  tags: ['Text', 'Description'],
  thumbnail: svg('<path d="M8 10 H40 M8 18 H56 M8 26 H50 M8 32 H30" stroke="#1FA8C9" stroke-width="3"/>'),
  behaviors: [],
  needsQuery: false,
} satisfies ChartMeta;
