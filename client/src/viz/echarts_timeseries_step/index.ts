import { svg, timeseriesPlugin } from '../shared/timeseries/plugin';

/** Stepped Line (`echarts_timeseries_step`): the shared time-series chart drawn as step series. */
export default timeseriesPlugin({
  key: 'echarts_timeseries_step',
  name: 'Stepped Line',
  kind: 'step',
  description: 'Stepped-line graph (also called step chart) is a variation of line chart but with the line forming a series of steps between data points.',
  thumbnail: svg('<path d="M4 32 H16 V22 H30 V26 H42 V10 H60" stroke="#1FA8C9" stroke-width="3"/>'),
  tags: ['ECharts', 'Line', 'Step', 'Time', 'Trend'],
  extraControls: [[{ name: 'seriesType', type: 'SelectControl', label: 'Step type', default: 'start', renderTrigger: true, choices: [['start', 'Start'], ['middle', 'Middle'], ['end', 'End']] }]],
  defaults: { seriesType: 'start' },
});
