import { queryContextFromFormData } from '@meridian/contracts/chart-data/form-data';
import type { EChartsTransformed } from '../shared/echarts-chart';
import type { ChartPlugin, QueryContext } from '../types';
import { transformWaterfall } from './transform-props';
import meta from './meta';

const waterfall: ChartPlugin<EChartsTransformed> = {
  ...meta,
  controlPanel: {
    sections: [
      { label: 'Query', expanded: true, tab: 'data', controlSetRows: [['x_axis'], ['time_grain_sqla'], [{ name: 'groupby', override: { label: 'Breakdowns', description: 'Breaks each step down by these columns (their values add up to the step)' } }], ['metric'], ['adhoc_filters'], ['time_range'], ['row_limit']] },
      { label: 'Chart options', expanded: true, tab: 'customize', controlSetRows: [['show_legend'], ['show_value'], [{ name: 'total_label', type: 'TextControl', label: 'Total label', default: 'Total', renderTrigger: true }], ['x_axis_title'], ['x_axis_time_format'], ['y_axis_format'], ['currency_format']] },
    ],
  },
  defaultFormData: { time_grain_sqla: 'P1M', row_limit: 10000, show_legend: true },
  buildQuery: (fd) => queryContextFromFormData(fd) as QueryContext,
  transformProps: transformWaterfall,
  loadChart: () => import('./WaterfallChart'),
};

export default waterfall;
