import type { ControlPanelConfig, ControlPanelSection } from '../../types';
import { ADVANCED_ANALYTICS, yAxisFormatChoices } from './advanced-analytics';

/** The Query section every time-series type shares. */
export const TIMESERIES_QUERY: ControlPanelSection = {
  label: 'Query',
  expanded: true,
  tab: 'data',
  controlSetRows: [['x_axis'], ['xAxisForceCategorical'], ['time_grain_sqla'], ['metrics'], ['groupby'], ['contributionMode'], ['adhoc_filters'], ['time_range'], ['limit', 'timeseries_limit_metric'], ['order_desc'], ['row_limit'], ['truncate_metric']],
};

export function timeseriesControlPanel(extra: ControlPanelSection['controlSetRows'] = []): ControlPanelConfig {
  return {
    sections: [
      TIMESERIES_QUERY,
      ADVANCED_ANALYTICS,
      { label: 'Annotations and Layers', expanded: false, tab: 'data', controlSetRows: [['annotation_layers']] },
      {
        label: 'Chart options',
        expanded: true,
        tab: 'customize',
        controlSetRows: [
          ['sort_series_type'],
          ['sort_series_ascending'],
          ['color_scheme'],
          ['show_legend'],
          ['legendType', 'legendOrientation'],
          ['legendMargin'],
          ['show_value'],
          ...extra,
          ['zoomable'],
          ['minorTicks'],
          ['rich_tooltip'],
          ['showTooltipTotal', 'showTooltipPercentage'],
          ['tooltipSortByMetric'],
          ['tooltipTimeFormat'],
        ],
      },
      {
        label: 'Axes',
        expanded: true,
        tab: 'customize',
        controlSetRows: [['x_axis_title', 'y_axis_title'], ['x_axis_time_format'], ['xAxisLabelRotation'], [{ name: 'y_axis_format', override: { choices: yAxisFormatChoices } }], ['currency_format'], ['logAxis', 'minorSplitLine'], ['truncateXAxis'], ['xAxisBounds'], ['truncateYAxis'], ['y_axis_bounds']],
      },
    ],
  };
}
