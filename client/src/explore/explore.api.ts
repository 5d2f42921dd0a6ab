/** The calls the Explore screen makes (spec 01 §7 Charts), typed. */
import rison from 'rison';
import type { AsyncJobMetadata } from '@meridian/contracts';
import type { ChartError } from '@meridian/contracts/explore/chart-state';
import { normaliseError } from '@meridian/contracts/rules/error-normalisation';
import { api, ApiError, getCsrfToken } from '../api';
import { takePageExplore } from '../page-data';
import { preloadChart } from '../viz/shared/SuperChart';
import { asyncEvents } from '../async-events/async-event-client';
import type { DatasourceMeta, FormData, QueryContext } from '../viz/types';
import { chartUrlParamEntries } from '@meridian/contracts/rules/permalink-params';

export interface ExploreDataset extends DatasourceMeta {
  table_name: string;
  datasource_name: string;
  sql: string | null;
  kind: 'physical' | 'virtual';
  schema: string | null;
  database: { id: number; database_name: string; backend: string };
  owners?: Array<{ id: number }>;
}

export interface ExploreSlice {
  slice_id: number;
  slice_name: string;
  description: string | null;
  /** Owner ids, as Superset's Slice.data gives them (the properties modal reads the chart itself for names). */
  owners: number[];
  form_data: FormData;
  certified_by?: string | null;
  cache_timeout?: number | null;
  /** The stored chart data request (JSON), null for a chart saved without one (by a script, or imported). */
  query_context?: string | null;
}

/** `GET /api/v1/explore/`. */
export interface ExploreBootstrap {
  form_data: FormData;
  dataset: ExploreDataset | null;
  slice: ExploreSlice | null;
  message: string | null;
  can_add: boolean;
  can_download: boolean;
  can_overwrite: boolean;
}

export interface ExploreParams {
  slice_id?: number;
  datasource_id?: number;
  datasource_type?: string;
  form_data_key?: string;
  permalink_key?: string;
  /** Opened from this dashboard (its chart title or "Edit chart"): Explore draws the chart in the dashboard's colours. */
  dashboard_id?: number;
}

/** Explore's bootstrap; the chart data POST follows it at once, so its CSRF token and the chart type's component are fetched alongside. */
export async function fetchBootstrap(params: ExploreParams): Promise<ExploreBootstrap> {
  void getCsrfToken();
  return withChartCode((await api<{ result: ExploreBootstrap }>('/api/v1/explore/', { query: bootstrapQueryOf(params) })).result);
}

/** Explore's bootstrap as the page was served for these parameters (once), its chart type's code fetched at once. */
export function pageBootstrap(params: ExploreParams): ExploreBootstrap | undefined {
  return withChartCode(takePageExplore(bootstrapQueryOf(params)) as ExploreBootstrap | undefined);
}

/** Starts fetching the code of the bootstrap's chart type, which draws as soon as its data comes. */
function withChartCode<T extends ExploreBootstrap | undefined>(boot: T): T {
  if (boot?.form_data?.viz_type) void preloadChart(boot.form_data.viz_type);
  return boot;
}

// The dashboard is the screen's to read (its colours): the bootstrap does not take it, as in Superset.
const bootstrapQueryOf = ({ dashboard_id: _dashboard, ...query }: ExploreParams) => query;

const formDataBody = (formData: FormData, sliceId: number | null) => {
  const [id, type] = String(formData.datasource ?? '').split('__');
  return { datasource_id: Number(id), datasource_type: type || 'table', chart_id: sliceId, form_data: JSON.stringify(formData) };
};

/** Keeps unsaved form data on the server so the address (`form_data_key`) restores it on reload. */
export async function createFormDataKey(formData: FormData, sliceId: number | null): Promise<string> {
  return (await api<{ key: string }>('/api/v1/explore/form_data', { method: 'POST', body: formDataBody(formData, sliceId) })).key;
}

export async function updateFormDataKey(key: string, formData: FormData, sliceId: number | null, opts: { keepalive?: boolean } = {}): Promise<void> {
  await api(`/api/v1/explore/form_data/${encodeURIComponent(key)}`, { method: 'PUT', body: formDataBody(formData, sliceId), keepalive: opts.keepalive });
}

/** `POST /api/v1/chart/data`: the answer's `result` (one entry per query). */
/** Spec 01 §9: a chart request (and an annotation query) gives up after the web server timeout, in seconds × 1000. */
export const chartRequestTimeoutMs = (conf: { SUPERSET_WEBSERVER_TIMEOUT?: unknown }): number => (Number(conf.SUPERSET_WEBSERVER_TIMEOUT) || 60) * 1000;

export async function fetchChartData(context: QueryContext, opts: { sliceId?: number | null; signal?: AbortSignal; resultType?: string; force?: boolean; timeoutMs?: number }): Promise<any[]> {
  const answer = await api<{ result: any[] }>('/api/v1/chart/data', {
    method: 'POST',
    body: { ...context, result_type: opts.resultType ?? 'full', force: !!opts.force },
    query: opts.sliceId ? { form_data: JSON.stringify({ slice_id: opts.sliceId }) } : undefined,
    signal: opts.signal,
    timeoutMs: opts.timeoutMs,
    lossless: true,
  });
  if (isAsyncJob(answer)) return (await asyncJobResult<{ result: any[] }>(answer, opts.signal)).result;
  return answer.result;
}

/**
 * A failed chart request's errors for the chart state: the answer's errors whole (their types pick the error box),
 * else its message; none when no answer came (a network failure reads 'Network error.', spec 01 §4).
 */
export function chartErrorsOf(error: unknown): ChartError[] | null {
  if (!(error instanceof ApiError)) return null;
  if (error.clientError.errors?.length) return error.clientError.errors as ChartError[];
  return error.status ? [{ message: error.message, stacktrace: error.clientError.stacktrace }] : null;
}

const isAsyncJob = (answer: unknown): answer is AsyncJobMetadata => !!answer && typeof answer === 'object' && 'job_id' in answer && !('result' in answer);

/** A 202 job (GLOBAL_ASYNC_QUERIES): waits for its event, then reads the answer at its result url; an error event throws its errors. */
export async function asyncJobResult<T>(job: AsyncJobMetadata, signal?: AbortSignal): Promise<T> {
  const event = await asyncEvents().waitForJob(job.job_id, signal);
  if (event.status === 'error' || !event.result_url) {
    throw new ApiError(500, normaliseError({ status: 500, statusText: 'error', json: { errors: event.errors?.length ? event.errors : [{ message: 'Error', error_type: 'GENERIC_BACKEND_ERROR', level: 'error' }] } }));
  }
  return api<T>(event.result_url, { signal, lossless: true });
}

export interface ChartSaveAnswer {
  id: number;
  result: Record<string, unknown>;
}

/** `POST /api/v1/chart/` (save as) or `PUT /api/v1/chart/{id}` (overwrite), with the chart save payload of spec 01 §3. */
export async function saveChart(input: { id: number | null; sliceName: string; formData: FormData; queryContext: QueryContext; dashboards?: number[] }): Promise<ChartSaveAnswer> {
  const [datasourceId, datasourceType] = String(input.formData.datasource ?? '').split('__');
  const { slice_id: _drop, ...params } = input.formData;
  const body = {
    slice_name: input.sliceName,
    viz_type: input.formData.viz_type,
    params: JSON.stringify(params),
    query_context: JSON.stringify(input.queryContext),
    datasource_id: Number(datasourceId),
    datasource_type: datasourceType || 'table',
    ...(input.dashboards ? { dashboards: input.dashboards } : {}),
  };
  return input.id ? api<ChartSaveAnswer>(`/api/v1/chart/${input.id}`, { method: 'PUT', body }) : api<ChartSaveAnswer>('/api/v1/chart/', { method: 'POST', body });
}

/**
 * `PUT /api/v1/chart/{id}` with only a generated query context: what Superset's Explore writes for a saved chart that
 * has none, for whoever opens it; reports, cache warm-ups and the page's early query start read it.
 */
export async function storeQueryContext(id: number, queryContext: QueryContext): Promise<void> {
  await api(`/api/v1/chart/${id}`, { method: 'PUT', body: { query_context: JSON.stringify(queryContext), query_context_generation: true } });
}

/** `GET /api/v1/time_range/`: the actual since and until of a time range text. */
export async function fetchTimeRange(timeRange: string): Promise<{ since: string; until: string }> {
  const answer = await api<{ result: Array<{ since: string; until: string }> }>('/api/v1/time_range/', { query: { q: rison.encode(timeRange) } });
  return answer.result[0]!;
}

/** `GET /api/v1/datasource/{type}/{id}/column/{column}/values/`: distinct values for filter pickers. */
export async function fetchColumnValues(datasource: string, column: string): Promise<unknown[]> {
  const [id, type] = datasource.split('__');
  return (await api<{ result: unknown[] }>(`/api/v1/datasource/${type || 'table'}/${id}/column/${encodeURIComponent(column)}/values/`)).result;
}

/** `GET /superset/fetch_datasource_metadata`: a dataset as its charts read it (its verbose names), for a chart drawn outside Explore. */
export async function fetchDatasourceMetadata(datasource: string): Promise<DatasourceMeta> {
  return api<DatasourceMeta>('/superset/fetch_datasource_metadata', { query: { datasourceKey: datasource } });
}

/** `POST /datasource/samples`: the dataset's first rows, as many as Superset's Samples pane asks for (SAMPLES_ROW_LIMIT, 1000). */
export async function fetchSamples(datasource: string): Promise<{ data: Record<string, unknown>[]; colnames: string[]; coltypes?: number[]; rowcount?: number; total_count?: number }> {
  const [id, type] = datasource.split('__');
  return (await api<{ result: any }>('/datasource/samples', { method: 'POST', query: { datasource_id: id, datasource_type: type || 'table', per_page: 1000, page: 1 }, body: {}, lossless: true })).result;
}

/**
 * `POST /api/v1/explore/permalink` (spec 01 §7 'formData and urlParams'): the form data and the address's extra query
 * parameters, as Superset's getChartPermalink sends them; the link opens with them as the form data's url_params.
 */
export async function createPermalink(formData: FormData): Promise<string> {
  return (await api<{ url: string }>('/api/v1/explore/permalink', { method: 'POST', body: { formData, urlParams: chartUrlParamEntries(window.location.search) } })).url;
}
