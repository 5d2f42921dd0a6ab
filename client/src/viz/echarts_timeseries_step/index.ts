import { MARKER_CONTROLS, timeseriesPlugin } from '../shared/timeseries/plugin';
import meta from './meta';

/** Stepped Line (`echarts_timeseries_step`): the shared time-series chart drawn as step series. */
export default timeseriesPlugin(meta, {
  kind: 'step',
  extraControls: [[{ name: 'seriesType', type: 'SelectControl', label: 'Step type', default: 'start', renderTrigger: true, choices: [['start', 'Start'], ['middle', 'Middle'], ['end', 'End']] }], ...MARKER_CONTROLS],
  defaults: { seriesType: 'start' },
});
