import { queryContextFromFormData } from '@meridian/contracts/chart-data/form-data';
import { RADAR_CONFIG_FORM_LAYOUT } from '../shared/column-config';
import type { EChartsTransformed } from '../shared/echarts-chart';
import type { ChartPlugin, QueryContext } from '../types';
import { transformRadar } from './transform-props';
import meta from './meta';

/** Superset's label positions (its LABEL_POSITION). */
const LABEL_POSITIONS = [
  ['top', 'Top'],
  ['left', 'Left'],
  ['right', 'Right'],
  ['bottom', 'Bottom'],
  ['inside', 'Inside'],
  ['insideLeft', 'Inside left'],
  ['insideRight', 'Inside right'],
  ['insideTop', 'Inside top'],
  ['insideBottom', 'Inside bottom'],
  ['insideTopLeft', 'Inside top left'],
  ['insideBottomLeft', 'Inside bottom left'],
  ['insideTopRight', 'Inside top right'],
  ['insideBottomRight', 'Inside bottom right'],
] as const;

const radar: ChartPlugin<EChartsTransformed> = {
  ...meta,
  controlPanel: {
    sections: [
      { label: 'Query', expanded: true, tab: 'data', controlSetRows: [['groupby'], ['metrics'], ['timeseries_limit_metric'], ['adhoc_filters'], ['time_range'], [{ name: 'row_limit', override: { default: 10 } }],
        [{ name: 'is_normalized', type: 'CheckboxControl', label: 'Normalize Values', default: false, renderTrigger: true, description: 'Normalize the radar chart values between 0 & 1 to get consistent plotting.' }]] },
      {
        label: 'Chart options',
        expanded: true,
        tab: 'customize',
        controlSetRows: [['color_scheme'], ['show_legend'], ['legendType'], ['legendOrientation'], ['legendMargin'], [{ name: 'show_labels', type: 'CheckboxControl', label: 'Show Labels', default: false, renderTrigger: true, description: 'Whether to display the labels.' }],
          [{ name: 'label_type', type: 'SelectControl', label: 'Label Type', default: 'value', renderTrigger: true, choices: [['value', 'Value'], ['key_value', 'Category and Value']], description: 'What should be shown on the label?'}],
          [{ name: 'label_position', type: 'SelectControl', label: 'Label position', default: 'top', clearable: false, renderTrigger: true, choices: LABEL_POSITIONS}],
          ['number_format'],
          ['date_format'],
          // Normalised axes all run from 0 to 1: no metric's own bounds (Superset hides them).
          [{ name: 'column_config', type: 'ColumnConfigControl', label: 'Customize Metrics', description: 'Further customize how to display each metric', renderTrigger: true, configColumns: 'metrics', configFormLayout: RADAR_CONFIG_FORM_LAYOUT, visibility: ({ formData }) => formData.is_normalized !== true }], [{ name: 'is_circle', type: 'CheckboxControl', label: 'Circle radar shape', default: false, renderTrigger: true, description: "Radar render type, whether to display 'circle' shape." }, { name: 'is_area', type: 'CheckboxControl', label: 'Area', default: true, renderTrigger: true }]],
      },
    ],
  },
  defaultFormData: { row_limit: 10, color_scheme: 'supersetColors', is_area: true },
  // Ordered by 'Sort by' (Superset's timeseries_limit_metric), else by the first metric, largest first.
  buildQuery: (fd) => {
    const context = queryContextFromFormData(fd);
    const metrics = context.queries[0]!.metrics as unknown[];
    const sortBy = fd.timeseries_limit_metric ?? metrics[0];
    if (sortBy) context.queries[0]!.orderby = [[sortBy, false]];
    return context as QueryContext;
  },
  transformProps: transformRadar,
  loadChart: () => import('./RadarChart'),
};

export default radar;
