import { svg } from '../shared/thumbnail';
import type { ChartMeta } from '../types';

/** Country Map (`country_map`): what lists and the gallery show; the rest of the type loads when it is used. */
export default {
  key: 'country_map',
  name: 'Country Map',
  category: 'Map',
  description: "Visualizes how a single metric varies across a country's principal subdivisions (states, provinces, etc) on a choropleth map. Each subdivision's value is elevated when you hover over its corresponding geographic boundary.",
  tags: ['2D', 'Comparison', 'Geo', 'Range', 'Report', 'Stacked'],
  thumbnail: svg('<path d="M6 10 H24 V18 H30 V10 H46 L58 14 V30 L46 34 H30 V26 H18 V34 H6 Z" fill="#1FA8C9" fill-opacity="0.5" stroke="#1FA8C9" stroke-width="1.5"/><path d="M24 10 V34 M46 10 V34 M6 22 H58" stroke="#ffffff" stroke-width="1"/>'),
  behaviors: ['INTERACTIVE_CHART', 'DRILL_TO_DETAIL', 'DRILL_BY', 'CROSS_FILTER'],
} satisfies ChartMeta;
