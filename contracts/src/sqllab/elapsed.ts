import { isQueryInProgress } from './query-states';
import type { Query } from './types';

/**
 * Milliseconds a query took, from its own start and end: while it runs, the time since its start; once finished,
 * its end minus its start. A finished query without an end time (a record that never got one) has no elapsed time
 * (null), rather than the time since it was loaded.
 *
 * @example queryElapsedMs({ state: 'success', startDttm: 1000, endDttm: 1090 }, 99_999) // 90
 */
export function queryElapsedMs(query: Pick<Query, 'state' | 'startDttm' | 'endDttm'>, now: number): number | null {
  const start = Number(query.startDttm);
  if (!Number.isFinite(start) || start <= 0) return null;
  if (isQueryInProgress(query.state)) return Math.max(0, now - start);
  const end = query.endDttm === undefined || query.endDttm === null ? NaN : Number(query.endDttm);
  return Number.isFinite(end) ? Math.max(0, end - start) : null;
}

/**
 * End time of a query that just succeeded: the end it already holds (its rows fetched later, for a query restored
 * from the server or run asynchronously), else now. Fetching rows never moves a query's end. The server's end time
 * in the answer is not taken for a query the browser started: its start is the browser's clock, not the server's.
 */
export function successEndDttm(current: Pick<Query, 'endDttm'> | undefined, now: number): number {
  const held = current?.endDttm === undefined || current.endDttm === null ? NaN : Number(current.endDttm);
  return Number.isFinite(held) && held > 0 ? held : now;
}

/** Elapsed time as Superset shows it: HH:MM:SS.ss (e.g. 90 ms is "00:00:00.09"). */
export function formatElapsed(ms: number): string {
  const total = Math.max(0, ms);
  const hours = Math.floor(total / 3_600_000);
  const minutes = Math.floor((total % 3_600_000) / 60_000);
  const seconds = (total % 60_000) / 1000;
  return `${String(hours).padStart(2, '0')}:${String(minutes).padStart(2, '0')}:${seconds.toFixed(2).padStart(5, '0')}`;
}
