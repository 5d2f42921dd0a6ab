import { queryContextFromFormData } from '@meridian/contracts/chart-data/form-data';
import { svg } from '../shared/timeseries/plugin';
import type { EChartsTransformed } from '../shared/echarts-chart';
import type { ChartPlugin, QueryContext } from '../types';
import { transformGauge } from './transform-props';

const gauge: ChartPlugin<EChartsTransformed> = {
  key: 'gauge_chart',
  name: 'Gauge Chart',
  category: 'KPI',
  description: 'Uses a gauge to showcase progress of a metric towards a target. The position of the dial represents the progress and the terminal value in the gauge represents the target value.',
  tags: ['ECharts', 'Multi-Variables', 'Business', 'Comparison', 'Report'],
  thumbnail: svg('<path d="M10 32 A22 22 0 1 1 54 32" stroke="#E9ECEF" stroke-width="6"/><path d="M10 32 A22 22 0 0 1 40 12" stroke="#1FA8C9" stroke-width="6"/><path d="M32 30 L42 16" stroke="#454E7C" stroke-width="3"/>'),
  behaviors: ['INTERACTIVE_CHART', 'DRILL_TO_DETAIL', 'DRILL_BY', 'CROSS_FILTER'],
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
