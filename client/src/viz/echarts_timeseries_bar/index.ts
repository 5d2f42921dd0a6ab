import { timeseriesPlugin } from '../shared/timeseries/plugin';
import meta from './meta';

/** Bar Chart (`echarts_timeseries_bar`): the shared time-series chart drawn as bar series. */
export default timeseriesPlugin(meta, {
  kind: 'bar',
  extraControls: [[{ name: 'orientation', type: 'SelectControl', label: 'Bar orientation', default: 'vertical', renderTrigger: true, choices: [['vertical', 'Vertical'], ['horizontal', 'Horizontal']] }], ['stack'], ['only_total']],
  defaults: { orientation: 'vertical' },
});
