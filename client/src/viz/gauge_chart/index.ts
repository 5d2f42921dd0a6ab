import { queryContextFromFormData } from '@meridian/contracts/chart-data/form-data';
import type { EChartsTransformed } from '../shared/echarts-chart';
import type { ChartPlugin, QueryContext } from '../types';
import { transformGauge } from './transform-props';
import meta from './meta';

const gauge: ChartPlugin<EChartsTransformed> = {
  ...meta,
  controlPanel: {
    sections: [
      { label: 'Query', expanded: true, tab: 'data', controlSetRows: [['groupby'], ['metric'], ['adhoc_filters'], ['time_range'], [{ name: 'row_limit', override: { default: 10 } }]] },
      {
        label: 'Chart options',
        expanded: true,
        tab: 'customize',
        controlSetRows: [
          [{ name: 'min_val', type: 'TextControl', label: 'Min', isFloat: true, renderTrigger: true, description: 'Minimum value on the gauge axis' }, { name: 'max_val', type: 'TextControl', label: 'Max', isFloat: true, renderTrigger: true, description: 'Maximum value on the gauge axis' }],
          [{ name: 'start_angle', type: 'TextControl', label: 'Start angle', isFloat: true, default: 225, renderTrigger: true }, { name: 'end_angle', type: 'TextControl', label: 'End angle', isFloat: true, default: -45, renderTrigger: true }],
          ['color_scheme'],
          ['number_format'],
          ['currency_format'],
          [{ name: 'split_number', type: 'SliderControl', label: 'Split number', default: 10, min: 3, max: 30, step: 1, renderTrigger: true }],
          [{ name: 'show_progress', type: 'CheckboxControl', label: 'Show progress', default: true, renderTrigger: true }, { name: 'overlap', type: 'CheckboxControl', label: 'Overlap', default: true, renderTrigger: true }],
          [{ name: 'show_pointer', type: 'CheckboxControl', label: 'Show pointer', default: true, renderTrigger: true }, { name: 'show_split_line', type: 'CheckboxControl', label: 'Show split lines', default: true, renderTrigger: true }],
        ],
      },
    ],
  },
  defaultFormData: { row_limit: 10, start_angle: 225, end_angle: -45, split_number: 10, show_progress: true, color_scheme: 'supersetColors' },
  buildQuery: (fd) => queryContextFromFormData(fd) as QueryContext,
  transformProps: transformGauge,
  loadChart: () => import('./GaugeChart'),
};

export default gauge;
