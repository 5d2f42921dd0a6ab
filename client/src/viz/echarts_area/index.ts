import { svg, timeseriesPlugin } from '../shared/timeseries/plugin';

/** Area Chart (`echarts_area`): the shared time-series chart drawn as area series. */
export default timeseriesPlugin({
  key: 'echarts_area',
  name: 'Area Chart',
  kind: 'area',
  description: 'Area charts are similar to line charts in that they represent variables with the same scale, but area charts stack the metrics on top of each other.',
  thumbnail: svg('<path d="M4 36 L4 24 L18 14 L32 22 L46 8 L60 14 L60 36 Z" fill="#1FA8C9" fill-opacity="0.35" stroke="#1FA8C9" stroke-width="2"/>'),
  tags: ['ECharts', 'Stacked', 'Time', 'Trend', 'Popular'],
  extraControls: [[{ name: 'stack', type: 'CheckboxControl', label: 'Stacked', default: false, renderTrigger: true }], [{ name: 'opacity', type: 'SliderControl', label: 'Area chart opacity', default: 0.2, min: 0, max: 1, step: 0.1, renderTrigger: true }]],
  defaults: { opacity: 0.2 },
});
