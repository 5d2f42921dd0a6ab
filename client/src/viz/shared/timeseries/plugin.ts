import type { ChartPlugin, ControlPanelSection, VizCategory } from '../../types';
import { buildTimeseriesQuery } from './build-query';
import { timeseriesControlPanel } from './control-panel';
import { transformTimeseries, type SeriesKind, type TimeseriesProps } from './transform-props';

/** A time-series chart type: the shared query, transform and component, with its own series kind and options. */
export function timeseriesPlugin(def: {
  key: string;
  name: string;
  kind: SeriesKind;
  description: string;
  thumbnail: string;
  tags?: string[];
  category?: VizCategory;
  extraControls?: ControlPanelSection['controlSetRows'];
  defaults?: Record<string, unknown>;
}): ChartPlugin<TimeseriesProps> {
  return {
    key: def.key,
    name: def.name,
    category: def.category ?? 'Evolution',
    description: def.description,
    tags: def.tags ?? ['ECharts', 'Time', 'Trend'],
    thumbnail: def.thumbnail,
    behaviors: ['INTERACTIVE_CHART', 'DRILL_TO_DETAIL', 'DRILL_BY', 'CROSS_FILTER'],
    controlPanel: timeseriesControlPanel(def.extraControls),
    defaultFormData: { time_grain_sqla: 'P1D', row_limit: 10000, show_legend: true, rich_tooltip: true, color_scheme: 'supersetColors', ...def.defaults },
    buildQuery: buildTimeseriesQuery,
    transformProps: (input) => transformTimeseries(input, def.kind),
    loadChart: () => import('./TimeseriesChart'),
  };
}

/** Thumbnails drawn as small inline SVGs. */
export const svg = (body: string) => `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 40" fill="none" stroke-linecap="round" stroke-linejoin="round">${body}</svg>`;
