import { queryContextFromFormData } from '@meridian/contracts/chart-data/form-data';
import { svg } from '../shared/timeseries/plugin';
import type { EChartsTransformed } from '../shared/echarts-chart';
import type { ChartPlugin, QueryContext } from '../types';
import { transformWaterfall } from './transform-props';

const waterfall: ChartPlugin<EChartsTransformed> = {
  key: 'waterfall',
  name: 'Waterfall Chart',
  category: 'Evolution',
  description: 'A waterfall chart is a form of data visualization that helps in understanding the cumulative effect of sequentially introduced positive or negative values. These intermediate values can either be time based or category based.',
  tags: ['ECharts', 'Categorical', 'Comparison', 'Description', 'Sequential', 'Trend'],
  thumbnail: svg('<rect x="6" y="18" width="9" height="18" fill="#5AC189"/><rect x="18" y="10" width="9" height="8" fill="#5AC189"/><rect x="30" y="10" width="9" height="12" fill="#E04355"/><rect x="42" y="6" width="9" height="16" fill="#5AC189"/><rect x="54" y="6" width="6" height="30" fill="#666666"/>'),
  behaviors: ['INTERACTIVE_CHART', 'DRILL_TO_DETAIL', 'DRILL_BY'],
  controlPanel: {
    sections: [
      { label: 'Query', expanded: true, tab: 'data', controlSetRows: [['x_axis'], ['time_grain_sqla'], [{ name: 'groupby', override: { label: 'Breakdowns', description: 'Breaks each step down by these columns (their values add up to the step)' } }], ['metric'], ['adhoc_filters'], ['time_range'], ['row_limit']] },
      { label: 'Chart options', expanded: true, tab: 'customize', controlSetRows: [['show_legend'], ['show_value'], [{ name: 'total_label', type: 'TextControl', label: 'Total label', default: 'Total', renderTrigger: true }], ['x_axis_title'], ['x_axis_time_format'], ['y_axis_format']] },
    ],
  },
  defaultFormData: { time_grain_sqla: 'P1M', row_limit: 10000, show_legend: true },
  buildQuery: (fd) => queryContextFromFormData(fd) as QueryContext,
  transformProps: transformWaterfall,
  loadChart: () => import('./WaterfallChart'),
};

export default waterfall;
