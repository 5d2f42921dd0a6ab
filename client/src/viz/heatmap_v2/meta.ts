import { svg } from '../shared/thumbnail';
import type { ChartMeta } from '../types';

const cells = Array.from({ length: 12 }, (_, i) => `<rect x="${6 + (i % 4) * 13}" y="${4 + Math.floor(i / 4) * 11}" width="12" height="10" fill="#1FA8C9" fill-opacity="${0.2 + ((i * 7) % 10) / 12}"/>`).join('');

/** Heatmap (`heatmap_v2`): what lists and the gallery show; the rest of the type loads when it is used. */
export default {
  key: 'heatmap_v2',
  name: 'Heatmap',
  category: 'Correlation',
  description: 'Visualize a related metric across pairs of groups. Heatmaps excel at showcasing the correlation or strength between two groups. Color is used to emphasize the strength of the link between each pair of groups.',
  tags: ['Business', 'Intensity', 'Density', 'Single Metric', 'ECharts'],
  thumbnail: svg(cells),
  behaviors: ['INTERACTIVE_CHART', 'DRILL_TO_DETAIL'],
} satisfies ChartMeta;
