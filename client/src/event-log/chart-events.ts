import { LOG_ACTIONS, loadChartEvents, renderChartEvent, type ChartLoadOutcome, type ChartLoadRequest, type LogEvent } from '@meridian/contracts/rules/event-log';
import { useCallback, useRef } from 'react';
import { ApiError } from '../api';
import { logEvent } from './event-logger';

/** Where a chart event happened: the dashboard or Explore (and its id), as Superset's logger middleware adds it. */
export type ChartEventSource = Pick<LogEvent, 'source'> & Partial<Pick<LogEvent, 'source_id' | 'target_id'>>;

/** How a chart request failed, for its load_chart event: aborted, timed out (Superset's statusText 'timeout'), or its error's text. */
export function chartLoadFailure(error: unknown): ChartLoadOutcome {
  const aborted = (error instanceof DOMException || error instanceof Error) && error.name === 'AbortError';
  const timedOut = error instanceof ApiError && error.clientError.statusText === 'timeout';
  const isCached = error instanceof ApiError && typeof error.clientError.is_cached === 'boolean' ? error.clientError.is_cached : undefined;
  return { ok: false, aborted, timedOut, error: error instanceof Error ? error.message : String(error), ...(isCached !== undefined ? { isCached } : {}) };
}

/**
 * Runs a chart's data request and logs its load_chart events (spec 01 §4: a failure with has_err and its error type),
 * passing the answer or the error through.
 */
export async function loggedChartLoad<T extends ReadonlyArray<Record<string, any>>>(source: ChartEventSource, request: Omit<ChartLoadRequest, 'startOffset' | 'endOffset'>, load: () => Promise<T>): Promise<T> {
  const startOffset = performance.now();
  const log = (outcome: ChartLoadOutcome) => {
    for (const fields of loadChartEvents({ ...request, startOffset, endOffset: performance.now() }, outcome)) logEvent(LOG_ACTIONS.LOAD_CHART, { ...source, ...fields });
  };
  try {
    const answer = await load();
    log({ ok: true, results: answer, now: Date.now() });
    return answer;
  } catch (error) {
    log(chartLoadFailure(error));
    throw error;
  }
}

/**
 * The render_chart logger of a chart showing `answer` (answered at `answeredAt`, epoch ms): call it when the chart is
 * drawn or fails to draw. It logs once per answer, as Superset's chart renderer: a redraw of the same answer (a
 * resize) is not logged. No answer, nothing logged.
 */
export function useRenderChartLog(source: ChartEventSource, answer: unknown, chart: { sliceId?: number; vizType?: string; answeredAt?: number | null }): (error?: string) => void {
  const logged = useRef<unknown>(null);
  // Read when the drawing is reported: the function stays the same across renders, so the callbacks a dashboard cell
  // builds on it (handed to a memoised chart) do not change at each step of its query.
  const latest = useRef({ source, answer, chart });
  latest.current = { source, answer, chart };
  return useCallback((error?: string) => {
    const { source, answer, chart } = latest.current;
    if (!answer || logged.current === answer) return;
    logged.current = answer;
    const endOffset = performance.now();
    const sinceAnswerMs = Date.now() - (chart.answeredAt ?? Date.now());
    logEvent(LOG_ACTIONS.RENDER_CHART, { ...source, ...renderChartEvent({ sliceId: chart.sliceId, vizType: chart.vizType, startOffset: Math.max(0, endOffset - sinceAnswerMs), endOffset, error }) });
  }, []);
}
