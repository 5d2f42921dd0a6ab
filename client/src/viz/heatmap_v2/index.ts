import { queryContextFromFormData } from '@meridian/contracts/chart-data/form-data';
import type { EChartsTransformed } from '../shared/echarts-chart';
import type { ChartPlugin, QueryContext } from '../types';
import { transformHeatmap } from './transform-props';
import meta from './meta';

const heatmap: ChartPlugin<EChartsTransformed> = {
  ...meta,
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
          ['currency_format'],
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
