import { svg, timeseriesPlugin } from '../shared/timeseries/plugin';

/** Scatter Plot (`echarts_timeseries_scatter`): the shared time-series chart drawn as scatter series. */
export default timeseriesPlugin({
  key: 'echarts_timeseries_scatter',
  name: 'Scatter Plot',
  kind: 'scatter',
  description: 'Scatter Plot has the horizontal axis in linear units, and the points are connected in order. It shows a statistical relationship between two variables.',
  thumbnail: svg('<circle cx="10" cy="28" r="3" fill="#1FA8C9"/><circle cx="20" cy="18" r="3" fill="#1FA8C9"/><circle cx="30" cy="24" r="3" fill="#454E7C"/><circle cx="42" cy="12" r="3" fill="#1FA8C9"/><circle cx="54" cy="8" r="3" fill="#454E7C"/><circle cx="48" cy="22" r="3" fill="#1FA8C9"/>'),
  tags: ['ECharts', 'Scatter', 'Time', 'Trend', 'Correlation'],
  extraControls: [[{ name: 'markerSize', type: 'SliderControl', label: 'Marker size', default: 8, min: 2, max: 30, step: 1, renderTrigger: true }]],
  defaults: { markerSize: 8 },
});
