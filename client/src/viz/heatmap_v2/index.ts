import { queryContextFromFormData } from '@meridian/contracts/chart-data/form-data';
import { svg } from '../shared/timeseries/plugin';
import type { EChartsTransformed } from '../shared/echarts-chart';
import type { ChartPlugin, QueryContext } from '../types';
import { transformHeatmap } from './transform-props';

const cells = Array.from({ length: 12 }, (_, i) => `<rect x="${6 + (i % 4) * 13}" y="${4 + Math.floor(i / 4) * 11}" width="12" height="10" fill="#1FA8C9" fill-opacity="${0.2 + ((i * 7) % 10) / 12}"/>`).join('');

const heatmap: ChartPlugin<EChartsTransformed> = {
  key: 'heatmap_v2',
  name: 'Heatmap',
  category: 'Correlation',
  description: 'Visualize a related metric across pairs of groups. Heatmaps excel at showcasing the correlation or strength between two groups. Color is used to emphasize the strength of the link between each pair of groups.',
  tags: ['Business', 'Intensity', 'Density', 'Single Metric', 'ECharts'],
  thumbnail: svg(cells),
  behaviors: ['INTERACTIVE_CHART', 'DRILL_TO_DETAIL'],
  controlPanel: {
    sections: [
      {
        label: 'Query',
        expanded: true,
        tab: 'data',
        controlSetRows: [['x_axis'], ['time_grain_sqla'], [{ name: 'groupby', override: { label: 'Y-axis', multi: false, validators: [(v) => (v && (!Array.isArray(v) || v.length) ? false : 'cannot be empty')] } }], ['metric'], ['adhoc_filters'], ['time_range'], ['row_limit']],
      },
      {
        label: 'Heatmap Options',
        expanded: true,
        tab: 'customize',
        controlSetRows: [
          ['linear_color_scheme'],
          [{ name: 'normalize_across', type: 'SelectControl', label: 'Normalize across', default: 'heatmap', renderTrigger: true, choices: [['heatmap', 'heatmap'], ['x', 'x'], ['y', 'y']], visibility: ({ formData }) => !!formData.normalized }],
          [{ name: 'normalized', type: 'CheckboxControl', label: 'Normalized', default: false, renderTrigger: true }, { name: 'show_values', type: 'CheckboxControl', label: 'Show Values', default: false, renderTrigger: true }],
          ['y_axis_format'],
          ['x_axis_time_format'],
        ],
      },
    ],
  },
  defaultFormData: { row_limit: 10000, linear_color_scheme: 'superset_seq_1', normalize_across: 'heatmap' },
  buildQuery: (fd) => {
    const groupby = Array.isArray(fd.groupby) ? fd.groupby.slice(0, 1) : fd.groupby ? [fd.groupby] : [];
    return queryContextFromFormData({ ...fd, groupby }) as QueryContext;
  },
  transformProps: transformHeatmap,
  loadChart: () => import('./HeatmapChart'),
};

export default heatmap;
