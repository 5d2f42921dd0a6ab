import { MARKER_CONTROLS, timeseriesPlugin } from '../shared/timeseries/plugin';
import meta from './meta';

/** Line Chart (`echarts_timeseries_line`): the shared time-series chart drawn as line series. */
export default timeseriesPlugin(meta, {
  kind: 'line',
  extraControls: MARKER_CONTROLS,
});
