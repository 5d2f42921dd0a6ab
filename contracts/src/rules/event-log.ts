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
}

/** The events of one send, taken off the front of the queue (at most LOG_EVENT_BATCH_MAX), and what stays. */
export function nextBatch<T>(queue: readonly T[]): { batch: T[]; rest: T[] } {
  return { batch: queue.slice(0, LOG_EVENT_BATCH_MAX), rest: queue.slice(LOG_EVENT_BATCH_MAX) };
}
