import { svg, timeseriesPlugin } from '../shared/timeseries/plugin';

/** Smooth Line (`echarts_timeseries_smooth`): the shared time-series chart drawn as smooth series. */
export default timeseriesPlugin({
  key: 'echarts_timeseries_smooth',
  name: 'Smooth Line',
  kind: 'smooth',
  description: 'Smooth-line is a variation of the line chart. Without angles and hard edges, Smooth-line sometimes looks smarter and more professional.',
  thumbnail: svg('<path d="M4 32 C14 10, 24 36, 34 20 S 52 6, 60 14" stroke="#1FA8C9" stroke-width="3"/>'),
  tags: ['ECharts', 'Line', 'Time', 'Trend'],
});
