/**
 * Spec 02 §3 Log event and §4 'Log events are batched: at most 1024 per send, delayed 1 second' — the
 * client's event log, sent to `POST /superset/log/?explode=events` (a beacon when the page is left).
 */
export const LOG_EVENT_BATCH_MAX = 1024;
export const LOG_EVENT_DELAY_MS = 1000;
export const LOG_EVENT_ENDPOINT = '/superset/log/?explode=events';

/** Superset's event names (its LOG_ACTIONS_*) that Meridian logs. */
export const LOG_ACTIONS = {
  MOUNT_DASHBOARD: 'mount_dashboard',
  MOUNT_EXPLORER: 'mount_explorer',
  LOAD_CHART: 'load_chart',
  RENDER_CHART: 'render_chart',
  SPA_NAVIGATION: 'spa_navigation',
  FORCE_REFRESH_CHART: 'force_refresh_chart',
  TOGGLE_EDIT_DASHBOARD: 'toggle_edit_dashboard',
} as const;

/** spec 02 §3 Log event. */
export interface LogEvent {
  source: 'dashboard' | 'explore' | 'sqlLab' | 'slice' | 'spa';
  source_id?: number;
  impression_id: string;
  version: string;
  ts: number;
  event_name: string;
  event_type: 'timing' | 'user';
  event_id: string;
  visibility: 'visible' | 'hidden';
  target_id?: number | string;
  target_name?: string;
  db_id?: number;
  schema?: string;
  trigger_event?: string;
  slice_id?: number;
  duration?: number;
  path?: string;
  /** Fields of Superset's chart events (load_chart, render_chart, force_refresh_chart). */
  has_err?: boolean;
  error_details?: string;
  is_cached?: boolean;
  force_refresh?: boolean;
  row_count?: number;
  datasource?: string;
  viz_type?: string;
  has_extra_filters?: boolean;
  applied_filters?: unknown;
  start_offset?: number;
  data_age?: number | null;
  /** toggle_edit_dashboard: the mode entered. */
  edit_mode?: boolean;
}

/**
 * Superset's LOG_EVENT_TYPE_TIMING: events that measure (event_type 'timing'); every other event is a user's
 * ('user').
 */
export const TIMING_EVENTS: ReadonlySet<string> = new Set([LOG_ACTIONS.LOAD_CHART, LOG_ACTIONS.RENDER_CHART]);

/** What a chart's query asked, for its load_chart events. */
export interface ChartLoadRequest {
  sliceId?: number;
  formData: { datasource?: unknown; viz_type?: unknown; extra_filters?: unknown };
  force: boolean;
  /** Milliseconds since the page opened when the query started (Superset's start_offset), and when it ended. */
  startOffset: number;
  endOffset: number;
}

/** How a chart's query ended: its results, or a failure (an abort, a timeout, or an answer's error text). */
export type ChartLoadOutcome =
  | { ok: true; results: ReadonlyArray<{ is_cached?: boolean; rowcount?: number; cached_dttm?: string | null; applied_filters?: unknown }>; now: number }
  | { ok: false; aborted: boolean; timedOut: boolean; error?: string; isCached?: boolean };

/**
 * The load_chart events of one chart query, as Superset's chart actions log them: one per result on success
 * (cached or not, rows, age of a cached answer), and one with has_err and its error type on failure (spec 01 §4
 * 'failed events are logged with error types': 'abort', 'timeout', else the error's text).
 *
 * @example loadChartEvents(request, { ok: false, aborted: false, timedOut: true }) // [{ has_err: true, error_details: 'timeout', ... }]
 */
export function loadChartEvents(request: ChartLoadRequest, outcome: ChartLoadOutcome): Array<Partial<LogEvent>> {
  const common = {
    ...(request.sliceId !== undefined ? { slice_id: request.sliceId } : {}),
    ...(typeof request.formData.datasource === 'string' ? { datasource: request.formData.datasource } : {}),
    start_offset: Math.round(request.startOffset),
    duration: Math.round(request.endOffset - request.startOffset),
  };
  if (!outcome.ok) {
    const details = outcome.aborted ? 'abort' : outcome.timedOut ? 'timeout' : (outcome.error ?? 'Error');
    return [{ ...common, has_err: true, error_details: details, ...(outcome.isCached !== undefined && !outcome.aborted && !outcome.timedOut ? { is_cached: outcome.isCached } : {}) }];
  }
  const extraFilters = request.formData.extra_filters;
  return outcome.results.map((result) => ({
    ...common,
    ...(result.applied_filters !== undefined ? { applied_filters: result.applied_filters } : {}),
    is_cached: !!result.is_cached,
    force_refresh: request.force,
    ...(typeof result.rowcount === 'number' ? { row_count: result.rowcount } : {}),
    has_extra_filters: Array.isArray(extraFilters) && extraFilters.length > 0,
    ...(typeof request.formData.viz_type === 'string' ? { viz_type: request.formData.viz_type } : {}),
    data_age: result.is_cached && result.cached_dttm ? Math.max(0, outcome.now - Date.parse(cachedUtc(result.cached_dttm))) : null,
  }));
}

/** A cached_dttm is UTC without a zone ('2024-01-02T03:04:05'): read as UTC, as Superset's moment.utc does. */
const cachedUtc = (text: string) => (/(?:[zZ]|[+-]\d\d:?\d\d)$/.test(text) ? text : `${text}Z`);

/**
 * The render_chart event of a chart drawn for a new answer (Superset logs no redraw of the same answer, a resize):
 * how long the drawing took, and on failure has_err with the error's text.
 */
export function renderChartEvent(input: { sliceId?: number; vizType?: string; startOffset: number; endOffset: number; error?: string }): Partial<LogEvent> {
  return {
    ...(input.sliceId !== undefined ? { slice_id: input.sliceId } : {}),
    ...(input.vizType && input.error === undefined ? { viz_type: input.vizType } : {}),
    ...(input.error !== undefined ? { has_err: true, error_details: input.error } : {}),
    start_offset: Math.round(input.startOffset),
    duration: Math.round(input.endOffset - input.startOffset),
  };
}

/** The events of one send, taken off the front of the queue (at most LOG_EVENT_BATCH_MAX), and what stays. */
export function nextBatch<T>(queue: readonly T[]): { batch: T[]; rest: T[] } {
  return { batch: queue.slice(0, LOG_EVENT_BATCH_MAX), rest: queue.slice(LOG_EVENT_BATCH_MAX) };
}
