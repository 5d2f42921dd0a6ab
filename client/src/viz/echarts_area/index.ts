import { MARKER_CONTROLS, timeseriesPlugin } from '../shared/timeseries/plugin';
import { SHARED_CONTROLS } from '../shared/controls';
import meta from './meta';

/** Area Chart (`echarts_area`): the shared time-series chart drawn as area series. */
export default timeseriesPlugin(meta, {
  kind: 'area',
  extraControls: [[{ name: 'stack', override: { choices: [...SHARED_CONTROLS.stack!.choices as ReadonlyArray<readonly [unknown, string]>, ['Expand', 'Expand']] } }], ['only_total'], [{ name: 'opacity', type: 'SliderControl', label: 'Area chart opacity', default: 0.2, min: 0, max: 1, step: 0.1, renderTrigger: true }], ...MARKER_CONTROLS],
  defaults: { opacity: 0.2 },
});
