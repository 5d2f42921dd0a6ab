import { z } from 'zod';

export const CHART_DATA_RESULT_FORMATS = ['json', 'csv', 'xlsx'] as const;
export const CHART_DATA_RESULT_TYPES = ['full', 'query', 'results', 'samples', 'columns', 'drill_detail', 'timegrains', 'post_processed'] as const;

/** Superset's chart data request (spec 01 §3 "Chart data request"); query objects are normalised by the server. */
export const ChartDataRequestSchema = z
  .object({
    datasource: z.object({ id: z.coerce.number().int(), type: z.string() }).nullish(),
    queries: z.array(z.record(z.string(), z.any())).default([]),
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
