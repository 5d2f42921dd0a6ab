import { svg } from '../shared/thumbnail';
import type { ChartMeta } from '../types';

/** Big Number (`big_number_total`): what lists and the gallery show; the rest of the type loads when it is used. */
export default {
  key: 'big_number_total',
  name: 'Big Number',
  category: 'KPI',
  description: 'Showcases a single metric front-and-center. Big number is best used to call attention to a KPI or the one thing you want your audience to focus on.',
  tags: ['Additive', 'Business', 'Legacy', 'Percentages', 'Featured', 'Report', 'Popular'],
  thumbnail: svg('<text x="32" y="27" text-anchor="middle" font-size="18" font-weight="700" fill="#1FA8C9">42</text>'),
  behaviors: ['INTERACTIVE_CHART', 'DRILL_TO_DETAIL'],
} satisfies ChartMeta;
