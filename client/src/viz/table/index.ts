import { queryContextFromFormData } from '@meridian/contracts/chart-data/form-data';
import { TIME_RANGE_NO_FILTER } from '@meridian/contracts/messages';
import { validateAggControlValues, validateNonEmpty } from '@meridian/contracts/rules/validators';
import { SMART_DATE, TIME_FORMAT_OPTIONS } from '../shared/format';
import { asList, metricLabel, type MetricEntry } from '../shared/metrics';
import type { BuildQueryOptions, ChartPlugin, ControlContext, FormData, QueryContext } from '../types';
import { COMPARISON_CHOICES } from '../shared/timeseries/advanced-analytics';
import { orderTarget, serverPage, serverSearch, tableTimeShift, transformTable, type SortByItem, type TableProps } from './transform-props';
import meta from './meta';

const aggregate = ({ formData }: ControlContext) => formData.query_mode !== 'raw';
const raw = ({ formData }: ControlContext) => formData.query_mode === 'raw';

/**
 * Raw mode's 'Ordering' choices: each column ascending and descending, stored as Superset's order_by_choices are (the
 * JSON of [column, ascending]), by column name.
 */
export const orderByChoices = ({ datasource }: ControlContext): ReadonlyArray<readonly [string, string]> =>
  [...(datasource?.columns ?? [])]
    .map((c) => c.column_name)
    .sort((a, b) => a.localeCompare(b))
    .flatMap((name) => [[JSON.stringify([name, true]), `${name} [asc]`] as const, [JSON.stringify([name, false]), `${name} [desc]`] as const]);

/** Superset's table 'Time shift' choices (its reduced time comparison choices): four shifts, a custom start date, the time range's length. */
const TIME_SHIFTS = [['1 day ago', '1 day ago'], ['1 week ago', '1 week ago'], ['1 month ago', '1 month ago'], ['1 year ago', '1 year ago'], ['custom', 'Custom date'], ['inherit', 'Inherit range from time filter']] as const;

/** A time comparison is set (Superset shows its colour options only then). */
const comparing = (ctx: ControlContext) => aggregate(ctx) && !!asList(ctx.formData.time_compare).length;

/** Superset's PAGE_SIZE_OPTIONS. */
const PAGE_SIZE_OPTIONS = [[0, 'All'], [10, '10'], [20, '20'], [50, '50'], [100, '100'], [200, '200']] as const;

/** A download's query (Superset's isDownloadQuery): a file of every row up to the row limit, never one page. */
const isDownload = (fd: FormData) => ['csv', 'xlsx'].includes(fd.result_format) || (fd.result_format === 'json' && fd.result_type === 'results');

/**
 * Aggregate mode: group-bys and metrics (percent metrics as a share of the total through the
 * `contribution` post-processing); raw mode: the chosen columns as stored, ordered by `order_by_cols`.
 * 'Server pagination' asks for the page of the chart's own state (`currentPage`, `pageSize`, within the row limit)
 * in its order (`sortBy`), then the same query with `is_rowcount` for the total, then the summary's query; the
 * reader's search (`searchText` in `searchColumn`) narrows all of them.
 */
export function buildTableQuery(fd: FormData, options: BuildQueryOptions = {}): QueryContext {
  const context = queryContextFromFormData(fd);
  const query = context.queries[0]!;
  const ownState = options.ownState ?? {};
  const paginated = !!fd.server_pagination && !isDownload(fd);
  const rowLimit = Number(fd.row_limit) || 0;
  if (isDownload(fd)) query.row_offset = 0;
  if (paginated) {
    const page = serverPage(fd, ownState);
    query.row_limit = page.rowLimit;
    query.row_offset = page.rowOffset;
  }
  // 'Time Comparison': the shifted period's metrics beside the main ones (Superset's time_offsets); 'Actual values' are
  // shown as they come, another calculation type as Superset's compare operation gives it.
  const shift = tableTimeShift(fd);
  query.time_offsets = shift ? [shift] : [];
  if (fd.query_mode !== 'raw') {
    const metrics = (query.metrics as unknown[]) ?? [];
    if (fd.timeseries_limit_metric) query.orderby = [[fd.timeseries_limit_metric, !fd.order_desc]];
    else if (metrics.length) query.orderby = [[metrics[0], !(fd.order_desc ?? true)]];
    const percent = Array.isArray(fd.percent_metrics) ? fd.percent_metrics : [];
    if (percent.length) {
      // With a time comparison each percent metric's shifted twin is a share too (Superset's addComparisonPercentMetrics).
      const labels = percent.map((m: any) => (typeof m === 'string' ? m : m.label ?? `${m.aggregate}(${m.column?.column_name})`)).flatMap((l: string) => (shift ? [l, `${l}__${shift}`] : [l]));
      query.post_processing = [{ operation: 'contribution', options: { columns: labels, rename_columns: labels.map((l: string) => `%${l}`) } }];
    }
    const comparison = fd.comparison_type ?? 'values';
    if (shift && comparison !== 'values') {
      const labels = asList<MetricEntry>(fd.metrics).map(metricLabel);
      const compare = { source_columns: labels, compare_columns: labels.map((l) => `${l}__${shift}`), compare_type: comparison, drop_original_columns: true };
      query.post_processing = [...((query.post_processing as unknown[]) ?? []), { operation: 'compare', options: compare }];
    }
  }
  // A header clicked with server pagination on: the server orders the rows (Superset's ownState sortBy).
  const sortBy = asList<SortByItem>(ownState.sortBy as SortByItem[])[0];
  const target = paginated && sortBy?.key ? orderTarget(fd, sortBy.key) : undefined;
  if (target !== undefined) query.orderby = [[target, !sortBy!.desc]];
  // The search box with server pagination: the rows whose column starts with the text, whatever its case (Superset's
  // ILIKE 'text%'), in the page, the count and the summary alike.
  const search = serverSearch(fd, ownState);
  if (search) query.filters = [...((query.filters as unknown[]) ?? []), search];
  const extra: Array<Record<string, unknown>> = [];
  if (paginated) extra.push({ ...query, time_offsets: [], row_limit: rowLimit, row_offset: 0, post_processing: [], is_rowcount: true });
  // 'Show summary' (show_totals): a query of the metrics over every row the filters keep, no group-by, order or row limit
  // (Superset's extra totals query), read as the table's summary row.
  if (fd.query_mode !== 'raw' && fd.show_totals) extra.push({ ...query, columns: [], groupby: [], row_limit: 0, row_offset: 0, post_processing: [], orderby: [] });
  context.queries.push(...extra);
  return context as QueryContext;
}

const table: ChartPlugin<TableProps> = {
  ...meta,
  controlPanel: {
    sections: [
      {
        label: 'Query',
        expanded: true,
        tab: 'data',
        controlSetRows: [
          [{ name: 'query_mode', type: 'SelectControl', label: 'Query mode', default: 'aggregate', choices: [['aggregate', 'Aggregate'], ['raw', 'Raw records']] }],
          [{ name: 'groupby', override: { visibility: aggregate } }],
          [{ name: 'metrics', override: { visibility: aggregate, validators: [(_value, { formData }) => validateAggControlValues([formData.groupby, formData.metrics, formData.percent_metrics])] } }],
          [{ name: 'percent_metrics', type: 'MetricsControl', label: 'Percentage metrics', multi: true, visibility: aggregate }],
          [{ name: 'all_columns', override: { visibility: raw, validators: [validateNonEmpty] } }],
          [{ name: 'timeseries_limit_metric', override: { visibility: aggregate } }],
          [{ name: 'order_by_cols', type: 'SelectControl', label: 'Ordering', multi: true, default: [], choices: orderByChoices, description: 'Order results by selected columns', visibility: raw }],
          [{ name: 'order_desc', override: { visibility: aggregate, description: 'If enabled, this control sorts the results/values descending, otherwise it sorts the results ascending.' } }],
          ['adhoc_filters'],
          ['time_range'],
          [
            {
              name: 'server_pagination',
              type: 'CheckboxControl',
              label: 'Server pagination',
              default: false,
              description: 'Enable server side pagination of results (experimental feature)',
            },
          ],
          ['row_limit'],
          [
            {
              name: 'server_page_length',
              type: 'SelectControl',
              label: 'Server Page Length',
              freeForm: true,
              default: 10,
              choices: PAGE_SIZE_OPTIONS,
              description: 'Rows per page, 0 means no pagination',
              visibility: ({ formData }) => !!formData.server_pagination,
            },
          ],
          [
            {
              name: 'show_totals',
              type: 'CheckboxControl',
              label: 'Show summary',
              default: false,
              description: 'Show total aggregations of selected metrics. Note that row limit does not apply to the result.',
              visibility: aggregate,
            },
          ],
        ],
      },
      {
        label: 'Time Comparison',
        tab: 'data',
        description: 'Compare results with other time periods.',
        controlSetRows: [
          [
            {
              name: 'time_compare',
              type: 'SelectControl',
              label: 'Time shift',
              freeForm: true,
              clearable: true,
              choices: TIME_SHIFTS,
              description:
                'Overlay results from a relative time period. Expects relative time deltas in natural language (example:  24 hours, 7 days, 52 weeks, 365 days). Free text is supported. Use "Inherit range from time filters" to shift the comparison time range by the same length as your time range and use "Custom" to set a custom comparison range.',
              visibility: aggregate,
            },
          ],
          [
            {
              name: 'start_date_offset',
              type: 'TimeOffsetControl',
              label: 'Shift start date',
              visibility: (ctx) => aggregate(ctx) && ctx.formData.time_compare === 'custom',
              validators: [(value, { formData }) => formData.time_compare === 'custom' && !value && 'A date is required when using custom date shift'],
            },
          ],
          [
            {
              name: 'comparison_type',
              type: 'SelectControl',
              label: 'Calculation type',
              default: 'values',
              choices: COMPARISON_CHOICES,
              description: 'How to display time shifts: as individual lines; as the difference between the main time series and each time shift; as the percentage change; or as the ratio between series and time shifts.',
              visibility: aggregate,
            },
          ],
          [{ name: 'comparison_range_label', type: 'ComparisonRangeLabel', label: 'Actual range for comparison', visibility: (ctx) => !!tableTimeShift(ctx.formData) && !!ctx.formData.time_range && ctx.formData.time_range !== TIME_RANGE_NO_FILTER }],
        ],
      },
      {
        label: 'Options',
        expanded: true,
        tab: 'customize',
        controlSetRows: [
          [{ name: 'table_timestamp_format', type: 'TimeFormatControl', label: 'Timestamp format', freeForm: true, clearable: false, default: SMART_DATE, renderTrigger: true, choices: TIME_FORMAT_OPTIONS, description: 'D3 time format for datetime columns' }],
          ['number_format'],
          [{ name: 'page_length', type: 'SelectControl', label: 'Page length', freeForm: true, default: 0, renderTrigger: true, choices: PAGE_SIZE_OPTIONS, description: 'Rows per page, 0 means no pagination', visibility: ({ formData }) => !formData.server_pagination }],
          [{ name: 'include_search', type: 'CheckboxControl', label: 'Search box', default: false, renderTrigger: true, description: 'Whether to include a client-side search box' }],
          [
            {
              name: 'allow_rearrange_columns',
              type: 'CheckboxControl',
              label: 'Allow columns to be rearranged',
              default: false,
              renderTrigger: true,
              description: "Allow end user to drag-and-drop column headers to rearrange them. Note their changes won't persist for the next time they open the chart.",
              // Superset hides it while a time comparison is set (its comparison columns come in fixed groups).
              visibility: ({ formData }) => !asList(formData.time_compare).length,
            },
          ],
          [{ name: 'allow_render_html', type: 'CheckboxControl', label: 'Render columns in HTML format', default: true, renderTrigger: true, description: 'Render data in HTML format if applicable.' }],
          [{ name: 'column_config', type: 'ColumnConfigControl', label: 'Customize columns', description: 'Further customize how to display each column', renderTrigger: true }],
        ],
      },
      {
        label: 'Visual formatting',
        expanded: true,
        tab: 'customize',
        controlSetRows: [
          [{ name: 'show_cell_bars', type: 'CheckboxControl', label: 'Show Cell bars', default: true, renderTrigger: true, description: 'Whether to display a bar chart background in table columns' }],
          [{ name: 'align_pn', type: 'CheckboxControl', label: 'Align +/-', default: false, renderTrigger: true, description: 'Whether to align background charts with both positive and negative values at 0' }],
          [{ name: 'color_pn', type: 'CheckboxControl', label: 'Add colors to cell bars for +/-', default: true, renderTrigger: true, description: 'Whether to colorize numeric values by whether they are positive or negative' }],
          [
            {
              name: 'comparison_color_enabled',
              type: 'CheckboxControl',
              label: 'Basic conditional formatting',
              default: false,
              renderTrigger: true,
              description: 'This will be applied to the whole table. Arrows (↑ and ↓) will be added to main columns for increase and decrease. Basic conditional formatting can be overwritten by conditional formatting below.',
              visibility: comparing,
            },
          ],
          [
            {
              name: 'comparison_color_scheme',
              type: 'SelectControl',
              label: 'color type',
              default: 'Green',
              renderTrigger: true,
              choices: [['Green', 'Green for increase, red for decrease'], ['Red', 'Red for increase, green for decrease']],
              description: 'Adds color to the chart symbols based on the positive or negative change from the comparison value.',
              visibility: (ctx) => comparing(ctx) && !!ctx.formData.comparison_color_enabled,
            },
          ],
          [{ name: 'conditional_formatting', type: 'ConditionalFormattingControl', label: 'Custom Conditional Formatting', default: [], renderTrigger: true, description: 'Apply conditional color formatting to numeric columns' }],
        ],
      },
    ],
  },
  defaultFormData: { query_mode: 'aggregate', row_limit: 1000, order_desc: true, show_cell_bars: true, color_pn: true },
  // Its 'Time Comparison' needs an enclosed time range; the time-series types' 'Time shift' does not: a type switch keeps the two apart (spec 01 §4, Chart).
  ownControls: ['time_compare', 'comparison_type'],
  buildQuery: buildTableQuery,
  transformProps: transformTable,
  loadChart: () => import('./TableChart'),
};

export default table;
