import type { ChartPlugin, FormData, QueryContext } from '../types';
import type { TimeseriesProps } from '../shared/timeseries/transform-props';
import { buildTimeseriesQuery } from '../shared/timeseries/build-query';
import { advancedAnalyticsSection } from '../shared/timeseries/advanced-analytics';
import { queryFormData, transformMixed } from './transform-props';
import { columnChoices } from '../shared/controls';
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

const SERIES_TYPES = [['line', 'Line'], ['scatter', 'Scatter'], ['smooth', 'Smooth Line'], ['bar', 'Bar'], ['step', 'Step'], ['area', 'Area']] as const;

const mixed: ChartPlugin<TimeseriesProps> = {
  ...meta,
  controlPanel: {
    sections: [
      { label: 'Shared query fields', expanded: true, tab: 'data', controlSetRows: [['x_axis'], ['time_grain_sqla'], ['time_range']] },
      { label: 'Query A', expanded: true, tab: 'data', controlSetRows: [['metrics'], ['groupby'], ['adhoc_filters'], ['limit'], ['row_limit']] },
      advancedAnalyticsSection('Advanced analytics Query A'),
      {
        label: 'Query B',
        expanded: true,
        tab: 'data',
        controlSetRows: [
          [{ name: 'metrics_b', type: 'MetricsControl', label: 'Metrics', multi: true, validators: [(v) => (Array.isArray(v) && v.length ? false : 'cannot be empty')] }],
          [{ name: 'groupby_b', type: 'GroupByControl', label: 'Dimensions', multi: true, choices: columnChoices }],
          [{ name: 'adhoc_filters_b', type: 'AdhocFilterControl', label: 'Filters', default: [] }],
          [{ name: 'limit_b', type: 'SelectControl', label: 'Series limit', freeForm: true, clearable: true, choices: [5, 10, 25, 50, 100, 500].map((n) => [n, String(n)] as const) }],
        ],
      },
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
