import { svg, timeseriesPlugin } from '../shared/timeseries/plugin';

/** Bar Chart (`echarts_timeseries_bar`): the shared time-series chart drawn as bar series. */
export default timeseriesPlugin({
  key: 'echarts_timeseries_bar',
  name: 'Bar Chart',
  kind: 'bar',
  description: 'Bar Charts are used to show metrics as a series of bars.',
  thumbnail: svg('<rect x="6" y="20" width="9" height="16" fill="#1FA8C9"/><rect x="20" y="10" width="9" height="26" fill="#1FA8C9"/><rect x="34" y="16" width="9" height="20" fill="#1FA8C9"/><rect x="48" y="6" width="9" height="30" fill="#1FA8C9"/>'),
  tags: ['ECharts', 'Bar', 'Vertical', 'Horizontal', 'Stacked', 'Popular'],
  extraControls: [[{ name: 'orientation', type: 'SelectControl', label: 'Bar orientation', default: 'vertical', renderTrigger: true, choices: [['vertical', 'Vertical'], ['horizontal', 'Horizontal']] }], [{ name: 'stack', type: 'CheckboxControl', label: 'Stacked bars', default: false, renderTrigger: true }]],
  defaults: { orientation: 'vertical' },
});
