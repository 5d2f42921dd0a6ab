import { queryContextFromFormData } from '@meridian/contracts/chart-data/form-data';
import { RADAR_CONFIG_FORM_LAYOUT } from '../shared/column-config';
import type { EChartsTransformed } from '../shared/echarts-chart';
import type { ChartPlugin, QueryContext } from '../types';
import { transformRadar } from './transform-props';
import meta from './meta';

const radar: ChartPlugin<EChartsTransformed> = {
  ...meta,
  controlPanel: {
    sections: [
      { label: 'Query', expanded: true, tab: 'data', controlSetRows: [['groupby'], ['metrics'], ['adhoc_filters'], ['time_range'], [{ name: 'row_limit', override: { default: 10 } }]] },
      {
        label: 'Chart options',
        expanded: true,
        tab: 'customize',
        controlSetRows: [['color_scheme'], ['show_legend'], [{ name: 'show_labels', type: 'CheckboxControl', label: 'Show labels', default: false, renderTrigger: true }], ['number_format'], [{ name: 'column_config', type: 'ColumnConfigControl', label: 'Customize Metrics', description: 'Further customize how to display each metric', renderTrigger: true, configColumns: 'metrics', configFormLayout: RADAR_CONFIG_FORM_LAYOUT }], [{ name: 'is_circle', type: 'CheckboxControl', label: 'Circle radar shape', default: false, renderTrigger: true }, { name: 'is_area', type: 'CheckboxControl', label: 'Area', default: true, renderTrigger: true }]],
      },
    ],
  },
  defaultFormData: { row_limit: 10, color_scheme: 'supersetColors', is_area: true },
  buildQuery: (fd) => {
    const context = queryContextFromFormData(fd);
    const metrics = context.queries[0]!.metrics as unknown[];
    if (metrics.length) context.queries[0]!.orderby = [[metrics[0], false]];
    return context as QueryContext;
  },
  transformProps: transformRadar,
  loadChart: () => import('./RadarChart'),
};

export default radar;
