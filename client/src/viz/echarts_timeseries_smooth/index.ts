import { MARKER_CONTROLS, timeseriesPlugin } from '../shared/timeseries/plugin';
import meta from './meta';

/** Smooth Line (`echarts_timeseries_smooth`): the shared time-series chart drawn as smooth series. */
export default timeseriesPlugin(meta, {
  kind: 'smooth',
  extraControls: MARKER_CONTROLS,
});
