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
  const names = ['metrics', 'groupby', 'adhoc_filters', 'limit', 'timeseries_limit_metric', 'order_desc', 'row_limit'];
  return { label, expanded: true, tab: 'data', controlSetRows: names.map((name) => [suffix ? { ...SHARED_CONTROLS[name]!, name: `${name}${suffix}` } : name]) };
}

const SERIES_TYPES = [['line', 'Line'], ['scatter', 'Scatter'], ['smooth', 'Smooth Line'], ['bar', 'Bar'], ['step', 'Step'], ['area', 'Area']] as const;

const mixed: ChartPlugin<TimeseriesProps> = {
  ...meta,
  controlPanel: {
    sections: [
      { label: 'Shared query fields', expanded: true, tab: 'data', controlSetRows: [['x_axis'], ['time_grain_sqla'], ['time_range']] },
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
          [{ name: 'seriesType', type: 'SelectControl', label: 'Series type (Query A)', default: 'line', renderTrigger: true, choices: SERIES_TYPES }, { name: 'seriesTypeB', type: 'SelectControl', label: 'Series type (Query B)', default: 'bar', renderTrigger: true, choices: SERIES_TYPES }],
          [{ name: 'yAxisIndexB', type: 'SelectControl', label: 'Y axis of Query B', default: 1, renderTrigger: true, choices: [[0, 'Primary'], [1, 'Secondary']] }],
          [{ name: 'stack', type: 'CheckboxControl', label: 'Stack series (Query A)', default: false, renderTrigger: true }, { name: 'stackB', type: 'CheckboxControl', label: 'Stack series (Query B)', default: false, renderTrigger: true }],
          ['zoomable'],
          ['x_axis_time_format'],
          ['y_axis_format'],
        ],
      },
    ],
  },
  defaultFormData: { time_grain_sqla: 'P1D', seriesType: 'line', seriesTypeB: 'bar', yAxisIndexB: 1, row_limit: 10000, color_scheme: 'supersetColors', adhoc_filters_b: [] },
  buildQuery: buildMixedQuery,
  transformProps: transformMixed,
  loadChart: () => import('../shared/timeseries/TimeseriesChart'),
};

export default mixed;
