import { z } from 'zod';

export const CHART_DATA_RESULT_FORMATS = ['json', 'csv', 'xlsx'] as const;
export const CHART_DATA_RESULT_TYPES = ['full', 'query', 'results', 'samples', 'columns', 'drill_detail', 'timegrains', 'post_processed'] as const;

const count = z.coerce.number().int().min(0).nullish();

/** An adhoc column (Superset's AdhocColumn: an SQL expression with its label), or a column's name. */
export const ColumnRefSchema = z.union(
  [z.string(), z.object({ label: z.string().nullish(), sqlExpression: z.string().nullish(), expressionType: z.string().nullish(), columnType: z.string().nullish(), timeGrain: z.string().nullish() }).passthrough()],
  { error: 'Not a valid column: a column name or an adhoc column.' },
);

/** An adhoc metric (Superset's AdhocMetricSchema: SIMPLE column and aggregate, or SQL), or a saved metric's name. */
export const MetricRefSchema = z.union(
  [
    z.string(),
    z
      .object({
        expressionType: z.string().nullish(),
        aggregate: z.string().nullish(),
        column: z.object({ column_name: z.string().nullish() }).passthrough().nullish(),
        sqlExpression: z.string().nullish(),
        label: z.string().nullish(),
        hasCustomLabel: z.boolean().nullish(),
        optionName: z.string().nullish(),
      })
      .passthrough(),
  ],
  { error: 'Not a valid metric: a saved metric name or an adhoc metric.' },
);

/**
 * One query object, with the types of Superset's ChartDataQueryObjectSchema for the fields it names (a value of
 * another type is a 400 with the field's path, not an error deep in the query's building); other keys pass, and
 * the server normalises the whole.
 */
export const ChartDataQueryObjectSchema = z
  .object({
    columns: z.array(ColumnRefSchema).nullish(),
    groupby: z.array(ColumnRefSchema).nullish(),
    metrics: z.array(MetricRefSchema).nullish(),
    series_columns: z.array(ColumnRefSchema).nullish(),
    filters: z.array(z.object({ col: ColumnRefSchema, op: z.string(), val: z.any().optional(), grain: z.string().nullish(), isExtra: z.boolean().nullish() }).passthrough()).nullish(),
    orderby: z.array(z.tuple([z.any(), z.boolean()])).nullish(),
    extras: z.object({ where: z.string().nullish(), having: z.string().nullish(), time_grain_sqla: z.string().nullish(), relative_start: z.string().nullish(), relative_end: z.string().nullish() }).passthrough().nullish(),
    time_range: z.string().nullish(),
    time_shift: z.string().nullish(),
    time_offsets: z.array(z.string()).nullish(),
    granularity: z.string().nullish(),
    granularity_sqla: z.string().nullish(),
    row_limit: count,
    row_offset: count,
    series_limit: count,
    timeseries_limit: count,
    order_desc: z.boolean().nullish(),
    is_timeseries: z.boolean().nullish(),
    is_rowcount: z.boolean().nullish(),
    apply_fetch_values_predicate: z.boolean().nullish(),
    annotation_layers: z.array(z.any()).nullish(),
    post_processing: z.array(z.any()).nullish(),
    applied_time_extras: z.record(z.string(), z.any()).nullish(),
    url_params: z.record(z.string(), z.any()).nullish(),
  })
  .passthrough();

/** Superset's chart data request (spec 01 §3 "Chart data request"); query objects are normalised by the server. */
export const ChartDataRequestSchema = z
  .object({
    datasource: z.object({ id: z.coerce.number().int(), type: z.string() }).nullish(),
    queries: z.array(ChartDataQueryObjectSchema).default([]),
    form_data: z.record(z.string(), z.any()).nullish(),
    result_format: z.enum(CHART_DATA_RESULT_FORMATS).default('json'),
    result_type: z.enum(CHART_DATA_RESULT_TYPES).default('full'),
    force: z.boolean().default(false),
    custom_cache_timeout: z.number().int().nullish(),
  })
  .passthrough();
export type ChartDataRequest = z.infer<typeof ChartDataRequestSchema>;

/** One query's answer in `{result: [...]}`. */
export interface ChartDataQueryResult {
  cache_key: string | null;
  cached_dttm: string | null;
  cache_timeout: number | null;
  applied_filters: Array<{ column: string }>;
  rejected_filters: Array<{ column: string; reason: string }>;
  annotation_data: Record<string, unknown>;
  error: string | null;
  is_cached: boolean;
  query: string;
  status: 'success' | 'failed';
  stacktrace: string | null;
  rowcount: number;
  sql_rowcount: number;
  from_dttm: number | null;
  to_dttm: number | null;
  label_map: Record<string, string[]>;
  colnames: string[];
  indexnames: number[];
  coltypes: number[];
  data: Array<Record<string, unknown>>;
  total_count?: number;
}

/** The 202 answer of the asynchronous path (GLOBAL_ASYNC_QUERIES). */
export interface AsyncJobMetadata {
  channel_id: string;
  job_id: string;
  user_id: number | null;
  status: 'pending' | 'running' | 'done' | 'error';
  errors: unknown[];
  result_url: string | null;
}

/** One event of `GET /api/v1/async_event/`. */
export interface AsyncEvent extends AsyncJobMetadata {
  id: string;
}
