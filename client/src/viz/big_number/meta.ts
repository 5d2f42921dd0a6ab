import { svg } from '../shared/thumbnail';
import type { ChartMeta } from '../types';

/** Big Number with Trendline (`big_number`): what lists and the gallery show; the rest of the type loads when it is used. */
export default {
  key: 'big_number',
  name: 'Big Number with Trendline',
  category: 'KPI',
  description: 'Showcases a single number accompanied by a simple line chart, to call attention to an important metric along with its change over time or other dimension.',
  tags: ['Advanced-Analytics', 'Line', 'Percentages', 'Text', 'Trend', 'Popular'],
  thumbnail: svg('<text x="32" y="18" text-anchor="middle" font-size="14" font-weight="700" fill="#1FA8C9">1.2k</text><path d="M6 36 L18 30 L28 32 L40 24 L58 22" stroke="#1FA8C9" stroke-width="2"/>'),
  behaviors: ['INTERACTIVE_CHART', 'DRILL_TO_DETAIL'],
} satisfies ChartMeta;
