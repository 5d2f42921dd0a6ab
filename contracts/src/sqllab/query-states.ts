import { QueryState } from './types';

/** In progress: running, started, pending, fetching, scheduled. */
export const IN_PROGRESS_STATES: readonly string[] = [
  QueryState.RUNNING,
  QueryState.STARTED,
  QueryState.PENDING,
  QueryState.FETCHING,
  QueryState.SCHEDULED,
];

/** Finished: stopped, failed, success, timed_out. */
export const FINISHED_STATES: readonly string[] = [
  QueryState.STOPPED,
  QueryState.FAILED,
  QueryState.SUCCESS,
  QueryState.TIMED_OUT,
];

export function isQueryInProgress(state: string): boolean {
  return IN_PROGRESS_STATES.includes(state);
}

export function isQueryFinished(state: string): boolean {
  return FINISHED_STATES.includes(state);
}

export type QueryDisplayStyle = 'danger' | 'info' | 'warning' | 'success';

/** Display styles: offline, failed and stopped are danger; pending and fetching info; running warning; success success. */
export const QUERY_STATE_DISPLAY_STYLE: Readonly<Record<string, QueryDisplayStyle>> = {
  offline: 'danger',
  failed: 'danger',
  stopped: 'danger',
  pending: 'info',
  fetching: 'info',
  running: 'warning',
  success: 'success',
};

/** Style of a state label, or undefined for states without one (started, scheduled, timed_out). */
export function queryDisplayStyle(state: string): QueryDisplayStyle | undefined {
  return QUERY_STATE_DISPLAY_STYLE[state];
}
