import { queryContextFromFormData } from '@meridian/contracts/chart-data/form-data';
import { SHARED_CONTROLS, columnChoices } from '../shared/controls';
import type { ChartPlugin, FormData, QueryContext } from '../types';
import { transformPivot, type PivotProps } from './transform-props';
import meta from './meta';

/** Superset's 'Aggregation function' choices that give numbers ('List Unique Values', which lists text, is not offered). */
const AGGREGATE_CHOICES = (
  [
    'Count',
    'Count Unique Values',
    'Sum',
    'Average',
    'Median',
    'Sample Variance',
    'Sample Standard Deviation',
    'Minimum',
    'Maximum',
    'First',
    'Last',
    'Sum as Fraction of Total',
    'Sum as Fraction of Rows',
    'Sum as Fraction of Columns',
    'Count as Fraction of Total',
    'Count as Fraction of Rows',
    'Count as Fraction of Columns',
  ] as const
).map((a) => [a, a] as const);

/** Superset's 'Sort rows by' / 'Sort columns by' choices. */
const ORDER_CHOICES = [['key_a_to_z', 'key a-z'], ['key_z_to_a', 'key z-a'], ['value_a_to_z', 'value ascending'], ['value_z_to_a', 'value descending']] as const;

export function buildPivotQuery(fd: FormData): QueryContext {
  const rows = Array.isArray(fd.groupbyRows) ? fd.groupbyRows : [];
  const cols = Array.isArray(fd.groupbyColumns) ? fd.groupbyColumns : [];
  const context = queryContextFromFormData({ ...fd, groupby: [...rows, ...cols], columns: [] });
  // Ordered by 'Sort by' (series_limit_metric), else the first metric, descending unless 'Sort Descending' is off.
  const metrics = context.queries[0]!.metrics as unknown[];
  const sortBy = fd.series_limit_metric ?? metrics[0];
  if (sortBy) context.queries[0]!.orderby = [[sortBy, fd.order_desc === false]];
  return context as QueryContext;
}


const pivotTable: ChartPlugin<PivotProps> = {
  ...meta,
  controlPanel: {
    sections: [
      {
        label: 'Query',
        expanded: true,
        tab: 'data',
        controlSetRows: [
          [{ name: 'groupbyRows', type: 'GroupByControl', label: 'Rows', multi: true, choices: columnChoices }],
          [{ name: 'groupbyColumns', type: 'GroupByControl', label: 'Columns', multi: true, choices: columnChoices }],
          ['metrics'],
          [{ name: 'metricsLayout', type: 'SelectControl', label: 'Apply metrics on', default: 'COLUMNS', clearable: false, renderTrigger: true, choices: [['COLUMNS', 'Columns'], ['ROWS', 'Rows']], description: 'Use metrics as a top level group for columns or for rows' }],
          ['adhoc_filters'],
          ['time_range'],
          [{ name: 'row_limit', override: { label: 'Cell limit', description: 'Limits the number of cells that get retrieved.' } }],
          [
            {
              name: 'series_limit_metric',
              type: 'MetricsControl',
              label: 'Sort by',
              multi: false,
              description: 'Metric used to define how the top series are sorted if a series or cell limit is present. If undefined reverts to the first metric (where appropriate).',
            },
          ],
          [{ name: 'order_desc', type: 'CheckboxControl', label: 'Sort Descending', default: true, description: 'Whether to sort descending or ascending' }],
        ],
      },
      {
        label: 'Options',
        expanded: true,
        tab: 'data',
        controlSetRows: [
          [{ name: 'aggregateFunction', type: 'SelectControl', label: 'Aggregation function', default: 'Sum', clearable: false, renderTrigger: true, choices: AGGREGATE_CHOICES, description: 'Aggregate function to apply when pivoting and computing the total rows and columns' }],
          [{ name: 'rowTotals', type: 'CheckboxControl', label: 'Show rows total', default: false, renderTrigger: true, description: 'Display row level total' }],
          [{ name: 'rowSubTotals', type: 'CheckboxControl', label: 'Show rows subtotal', default: false, renderTrigger: true, description: 'Display row level subtotal' }],
          [{ name: 'colTotals', type: 'CheckboxControl', label: 'Show columns total', default: false, renderTrigger: true, description: 'Display column level total' }],
          [{ name: 'colSubTotals', type: 'CheckboxControl', label: 'Show columns subtotal', default: false, renderTrigger: true, description: 'Display column level subtotal' }],
          [{ name: 'transposePivot', type: 'CheckboxControl', label: 'Transpose pivot', default: false, renderTrigger: true, description: 'Swap rows and columns' }],
          [
            {
              name: 'combineMetric',
              type: 'CheckboxControl',
              label: 'Combine metrics',
              default: false,
              renderTrigger: true,
              description: 'Display metrics side by side within each column, as opposed to each column being displayed side by side for each metric.',
            },
          ],
        ],
      },
      {
        label: 'Options',
        expanded: true,
        tab: 'customize',
        controlSetRows: [
          [{ name: 'valueFormat', override: { ...SHARED_CONTROLS.number_format, label: 'Value format' } }],
          ['currency_format'],
          [{ name: 'date_format', override: { ...SHARED_CONTROLS.x_axis_time_format, label: 'Date format', description: 'D3 time format for datetime columns' } }],
          [{ name: 'rowOrder', type: 'SelectControl', label: 'Sort rows by', default: 'key_a_to_z', clearable: false, renderTrigger: true, choices: ORDER_CHOICES, description: 'Change order of rows. By key: use row names as sorting key; by value: use metric values as sorting key.' }],
          [{ name: 'colOrder', type: 'SelectControl', label: 'Sort columns by', default: 'key_a_to_z', clearable: false, renderTrigger: true, choices: ORDER_CHOICES, description: 'Change order of columns. By key: use column names as sorting key; by value: use metric values as sorting key.' }],
          [{ name: 'rowSubtotalPosition', type: 'SelectControl', label: 'Rows subtotal position', default: false, clearable: false, renderTrigger: true, choices: [[true, 'Top'], [false, 'Bottom']], description: 'Position of row level subtotal' }],
          [{ name: 'colSubtotalPosition', type: 'SelectControl', label: 'Columns subtotal position', default: false, clearable: false, renderTrigger: true, choices: [[true, 'Left'], [false, 'Right']], description: 'Position of column level subtotal' }],
          [{ name: 'conditional_formatting', type: 'ConditionalFormattingControl', label: 'Conditional formatting', default: [], renderTrigger: true, description: 'Apply conditional color formatting to metrics' }],
        ],
      },
    ],
  },
  defaultFormData: { aggregateFunction: 'Sum', row_limit: 10000 },
  buildQuery: buildPivotQuery,
  transformProps: transformPivot,
  loadChart: () => import('./PivotTableChart'),
};

export default pivotTable;
