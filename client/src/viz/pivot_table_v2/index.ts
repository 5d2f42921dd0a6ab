import { queryContextFromFormData } from '@meridian/contracts/chart-data/form-data';
import { SHARED_CONTROLS, columnChoices } from '../shared/controls';
import { asList, type ColumnEntry } from '../shared/metrics';
import type { ChartPlugin, ControlContext, FormData, QueryContext } from '../types';
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

/**
 * A grouping column at the time grain: a dataset column known as temporal (the form data's temporal_columns_lookup,
 * as Superset stores it, or the legacy time column) becomes a time axis column at 'Time grain'; others stay as they are.
 */
export function withTimeGrain(column: unknown, fd: FormData): unknown {
  const grain = fd.extra_form_data?.time_grain_sqla ?? fd.time_grain_sqla;
  if (typeof column !== 'string' || !grain) return column;
  const lookup = fd.temporal_columns_lookup && typeof fd.temporal_columns_lookup === 'object' ? (fd.temporal_columns_lookup as Record<string, unknown>) : {};
  if (!lookup[column] && fd.granularity_sqla !== column) return column;
  return { timeGrain: grain, columnType: 'BASE_AXIS', sqlExpression: column, label: column, expressionType: 'SQL' };
}

/** Whether any grouping column is temporal or adhoc (Superset shows 'Time grain' then). */
const hasTemporalGrouping = ({ formData, datasource }: ControlContext) =>
  [...asList<ColumnEntry>(formData.groupbyRows), ...asList<ColumnEntry>(formData.groupbyColumns)].some((c) => typeof c !== 'string' || !!datasource?.columns.find((d) => d.column_name === c)?.is_dttm);

export function buildPivotQuery(fd: FormData): QueryContext {
  const rows = Array.isArray(fd.groupbyRows) ? fd.groupbyRows : [];
  const cols = Array.isArray(fd.groupbyColumns) ? fd.groupbyColumns : [];
  const context = queryContextFromFormData({ ...fd, groupby: [...rows, ...cols].map((c) => withTimeGrain(c, fd)), columns: [] });
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
          [{ name: 'groupbyRows', type: 'GroupByControl', label: 'Rows', multi: true, choices: columnChoices, description: 'Columns to group by on the rows' }],
          [
            { name: 'time_grain_sqla', override: { visibility: hasTemporalGrouping } },
            // The dataset's temporal columns, stored as Superset stores them, for the query to put at the time grain.
            { name: 'temporal_columns_lookup', type: 'HiddenControl', label: 'Temporal columns', initialValue: ({ datasource }) => Object.fromEntries((datasource?.columns ?? []).filter((c) => c.is_dttm).map((c) => [c.column_name, true])) },
          ],
          [{ name: 'groupbyColumns', type: 'GroupByControl', label: 'Columns', multi: true, choices: columnChoices, description: 'Columns to group by on the columns' }],
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
