import { timeseriesPlugin } from '../shared/timeseries/plugin';
import meta from './meta';

/** Scatter Plot (`echarts_timeseries_scatter`): the shared time-series chart drawn as scatter series. */
export default timeseriesPlugin(meta, {
  kind: 'scatter',
  extraControls: [[{ name: 'markerSize', type: 'SliderControl', label: 'Marker size', default: 8, min: 2, max: 30, step: 1, renderTrigger: true }]],
  defaults: { markerSize: 8 },
});
