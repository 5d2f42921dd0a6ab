import type { ChartMeta, ChartPlugin, ControlPanelSection } from '../../types';
import { buildTimeseriesQuery } from './build-query';
import { loadPart } from './optional-parts';
import { timeseriesControlPanel } from './control-panel';
import { transformTimeseries, type SeriesKind, type TimeseriesProps } from './transform-props';

/** Superset's 'Marker' and 'Marker Size' of the line types: a dot on each point. */
export const MARKER_CONTROLS: ControlPanelSection['controlSetRows'] = [['markerEnabled'], ['markerSize']];

/** A time-series chart type: the shared query, transform and component, with its own series kind and options. */
export function timeseriesPlugin(
  meta: ChartMeta,
  def: {
    kind: SeriesKind;
    extraControls?: ControlPanelSection['controlSetRows'];
    defaults?: Record<string, unknown>;
  },
): ChartPlugin<TimeseriesProps> {
  return {
    ...meta,
    controlPanel: timeseriesControlPanel(def.extraControls),
    defaultFormData: { time_grain_sqla: 'P1D', row_limit: 10000, show_legend: true, rich_tooltip: true, color_scheme: 'supersetColors', ...def.defaults },
    buildQuery: buildTimeseriesQuery,
    transformProps: (input) => transformTimeseries(input, def.kind),
    // Bars and scatter points load beside the component, not after the first answer.
    loadChart: () => Promise.all([import('./TimeseriesChart'), def.kind === 'bar' || def.kind === 'scatter' ? loadPart(def.kind) : null]).then(([component]) => component),
  };
}
