import { MARKER_CONTROLS, timeseriesPlugin } from '../shared/timeseries/plugin';
import meta from './meta';

/** Area Chart (`echarts_area`): the shared time-series chart drawn as area series. */
export default timeseriesPlugin(meta, {
  kind: 'area',
  extraControls: [[{ name: 'stack', type: 'CheckboxControl', label: 'Stacked', default: false, renderTrigger: true }], [{ name: 'opacity', type: 'SliderControl', label: 'Area chart opacity', default: 0.2, min: 0, max: 1, step: 0.1, renderTrigger: true }], ...MARKER_CONTROLS],
  defaults: { opacity: 0.2 },
});
