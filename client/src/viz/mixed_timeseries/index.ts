import type { ChartPlugin, ControlPanelSection, FormData, QueryContext } from '../types';
import type { TimeseriesProps } from '../shared/timeseries/transform-props';
import { buildTimeseriesQuery } from '../shared/timeseries/build-query';
import { advancedAnalyticsSection } from '../shared/timeseries/advanced-analytics';
import { queryFormData, transformMixed } from './transform-props';
import { SHARED_CONTROLS } from '../shared/controls';
import meta from './meta';

/**
 * Two queries over the same x-axis and time grain: A's and B's metrics, group-bys and filters, each a time-series
 * query with its own advanced analytics (time shifts and post-processing), as Superset's mixed buildQuery.
 */
export function buildMixedQuery(fd: FormData): QueryContext {
  const a = buildTimeseriesQuery(queryFormData(fd, 'a'));
  const b = buildTimeseriesQuery(queryFormData(fd, 'b'));
  return { ...a, queries: [a.queries[0]!, b.queries[0]!], result_format: 'json', result_type: 'full' } as QueryContext;
}

/** A query's section, as Superset's mixed chart builds one per query: B's controls are A's, named with `_b`. */
function querySection(label: string, suffix: '' | '_b'): ControlPanelSection {
  const names = ['metrics', 'groupby', 'adhoc_filters', 'limit', 'timeseries_limit_metric', 'order_desc', 'row_limit', 'truncate_metric'];
  return { label, expanded: true, tab: 'data', controlSetRows: names.map((name) => [suffix ? { ...SHARED_CONTROLS[name]!, name: `${name}${suffix}` } : name]) };
}

/** Superset's series types of a mixed chart's query (its three step variants are where the step falls). */
const SERIES_TYPES = [['line', 'Line'], ['scatter', 'Scatter'], ['smooth', 'Smooth Line'], ['bar', 'Bar'], ['start', 'Step - start'], ['middle', 'Step - middle'], ['end', 'Step - end']] as const;

/**
 * How a query's series are drawn, as Superset's createCustomizeSection: A's controls, and B's named with a `B`
 * (`seriesTypeB`, `areaB`…), Superset's own stored names.
 */
function seriesSection(label: string, suffix: '' | 'B'): ControlPanelSection {
  const name = (n: string) => `${n}${suffix}`;
  return {
    label,
    expanded: true,
    tab: 'customize',
    controlSetRows: [
      [{ name: name('seriesType'), type: 'SelectControl', label: 'Series type', default: suffix ? 'bar' : 'line', renderTrigger: true, choices: SERIES_TYPES, description: 'Series chart type (line, bar etc)' }],
      [{ name: name('stack'), type: 'CheckboxControl', label: 'Stack series', default: false, renderTrigger: true, description: 'Stack series on top of each other' }],
      [{ name: name('area'), type: 'CheckboxControl', label: 'Area chart', default: false, renderTrigger: true, description: 'Draw area under curves. Only applicable for line types.' }],
      [{ name: name('show_value'), type: 'CheckboxControl', label: 'Show Values', default: false, renderTrigger: true }],
      [{ name: name('opacity'), type: 'SliderControl', label: 'Opacity', default: 0.2, min: 0, max: 1, step: 0.1, renderTrigger: true, description: 'Opacity of area chart.' }],
      [{ name: name('markerEnabled'), type: 'CheckboxControl', label: 'Marker', default: false, renderTrigger: true, description: 'Draw a marker on data points. Only applicable for line types.' }],
      [{ name: name('markerSize'), type: 'SliderControl', label: 'Marker size', default: 6, min: 0, max: 100, step: 1, renderTrigger: true, description: 'Size of marker. Also applies to forecast observations.' }],
      [{ name: name('yAxisIndex'), type: 'SelectControl', label: 'Y Axis', default: suffix ? 1 : 0, clearable: false, renderTrigger: true, choices: [[0, 'Primary'], [1, 'Secondary']], description: 'Primary or secondary y-axis' }],
      // Superset's 'Series Order' of each query: A's keys are the time-series' own, B's end in `B`.
      [{ ...SHARED_CONTROLS.sort_series_type!, name: name('sort_series_type') }],
      [{ ...SHARED_CONTROLS.sort_series_ascending!, name: name('sort_series_ascending') }],
    ],
  };
}

const mixed: ChartPlugin<TimeseriesProps> = {
  ...meta,
  controlPanel: {
    sections: [
      { label: 'Shared query fields', expanded: true, tab: 'data', controlSetRows: [['x_axis'], ['xAxisForceCategorical'], ['time_grain_sqla'], ['time_range']] },
      querySection('Query A', ''),
      advancedAnalyticsSection('Advanced analytics Query A'),
      querySection('Query B', '_b'),
      advancedAnalyticsSection('Advanced analytics Query B', '_b'),
      {
        label: 'Chart options',
        expanded: true,
        tab: 'customize',
        controlSetRows: [
          ['color_scheme'],
          ['show_legend'],
          ['legendType', 'legendOrientation'],
          ['legendMargin'],
          ['zoomable'],
          ['minorTicks'],
          ['x_axis_time_format'],
          ['truncateXAxis'],
          ['xAxisBounds'],
          [
            {
              name: 'show_query_identifiers',
              type: 'CheckboxControl',
              label: 'Show query identifiers',
              default: false,
              renderTrigger: true,
              description: 'Add Query A and Query B identifiers to tooltips to help differentiate series',
            },
          ],
        ],
      },
      seriesSection('Query A series', ''),
      seriesSection('Query B series', 'B'),
      {
        label: 'Y Axis',
        expanded: true,
        tab: 'customize',
        controlSetRows: [
          [{ name: 'y_axis_format', override: { label: 'Primary y-axis format' } }],
          ['currency_format'],
          [{ ...SHARED_CONTROLS.y_axis_format!, name: 'y_axis_format_secondary', label: 'Secondary y-axis format' }],
          [{ name: 'currency_format_secondary', override: { label: 'Secondary currency format' } }],
          [{ name: 'yAxisTitleSecondary', type: 'TextControl', label: 'Secondary y-axis title', default: '', renderTrigger: true }],
        ],
      },
    ],
  },
  defaultFormData: { time_grain_sqla: 'P1D', seriesType: 'line', seriesTypeB: 'bar', yAxisIndex: 0, yAxisIndexB: 1, row_limit: 10000, color_scheme: 'supersetColors', adhoc_filters_b: [] },
  buildQuery: buildMixedQuery,
  transformProps: transformMixed,
  loadChart: () => import('../shared/timeseries/TimeseriesChart'),
};

export default mixed;
