import { describe, expect, it } from 'vitest';
import { LOG_ACTIONS, LOG_EVENT_BATCH_MAX, LOG_EVENT_DELAY_MS, loadChartEvents, nextBatch, renderChartEvent, TIMING_EVENTS } from './event-log';

describe("spec 02 §4: 'Log events are batched: at most 1024 per send, delayed 1 second'", () => {
  it('sends at most 1024 events at once, oldest first, keeping the rest for the next send', () => {
    expect(LOG_EVENT_BATCH_MAX).toBe(1024);
    expect(LOG_EVENT_DELAY_MS).toBe(1000);
    const queue = Array.from({ length: 2500 }, (_, i) => i);
    const first = nextBatch(queue);
    expect(first.batch).toHaveLength(1024);
    expect(first.batch[0]).toBe(0);
    expect(first.rest[0]).toBe(1024);
    const third = nextBatch(nextBatch(first.rest).rest);
    expect(third.batch).toEqual(queue.slice(2048));
    expect(third.rest).toEqual([]);
    expect(nextBatch([])).toEqual({ batch: [], rest: [] });
  });
});

describe("spec 01 §4: 'aborts are ignored; failed events are logged with error types' (load_chart, render_chart)", () => {
  const request = { sliceId: 7, formData: { datasource: '3__table', viz_type: 'pie', extra_filters: [] }, force: false, startOffset: 1000.4, endOffset: 1250.9 };

  it('logs a failed load with has_err and its error type: abort, timeout, or the error text with is_cached', () => {
    expect(loadChartEvents(request, { ok: false, aborted: true, timedOut: false })).toEqual([{ slice_id: 7, datasource: '3__table', start_offset: 1000, duration: 251, has_err: true, error_details: 'abort' }]);
    expect(loadChartEvents(request, { ok: false, aborted: false, timedOut: true })[0]).toMatchObject({ has_err: true, error_details: 'timeout' });
    const failed = loadChartEvents(request, { ok: false, aborted: false, timedOut: false, error: 'Binder Error: no_such_column', isCached: false });
    expect(failed).toEqual([{ slice_id: 7, datasource: '3__table', start_offset: 1000, duration: 251, has_err: true, error_details: 'Binder Error: no_such_column', is_cached: false }]);
    // A failure without a text still says it failed.
    expect(loadChartEvents(request, { ok: false, aborted: false, timedOut: false })[0]!.error_details).toBe('Error');
  });

  it("logs one success per result: cached or not, rows, whether forced, the chart's type, and a cached answer's age", () => {
    const now = Date.parse('2026-01-02T03:04:15Z');
    const events = loadChartEvents({ ...request, force: true, formData: { ...request.formData, extra_filters: [{ col: 'a', op: '==', val: 1 }] } }, { ok: true, now, results: [{ is_cached: false, rowcount: 12 }, { is_cached: true, rowcount: 3, cached_dttm: '2026-01-02T03:04:05' }] });
    expect(events).toEqual([
      { slice_id: 7, datasource: '3__table', start_offset: 1000, duration: 251, is_cached: false, force_refresh: true, row_count: 12, has_extra_filters: true, viz_type: 'pie', data_age: null },
      { slice_id: 7, datasource: '3__table', start_offset: 1000, duration: 251, is_cached: true, force_refresh: true, row_count: 3, has_extra_filters: true, viz_type: 'pie', data_age: 10_000 },
    ]);
    expect(events.some((e) => 'has_err' in e)).toBe(false);
  });

  it('times a drawing; a failed one carries has_err and the error text instead of the type', () => {
    expect(renderChartEvent({ sliceId: 7, vizType: 'pie', startOffset: 10, endOffset: 42 })).toEqual({ slice_id: 7, viz_type: 'pie', start_offset: 10, duration: 32 });
    expect(renderChartEvent({ sliceId: 7, vizType: 'pie', startOffset: 10, endOffset: 12, error: 'Error: bad data' })).toEqual({ slice_id: 7, has_err: true, error_details: 'Error: bad data', start_offset: 10, duration: 2 });
  });

  it("load and render are timing events, a user's actions are user events (Superset's LOG_EVENT_TYPE_TIMING)", () => {
    expect([LOG_ACTIONS.LOAD_CHART, LOG_ACTIONS.RENDER_CHART].every((e) => TIMING_EVENTS.has(e))).toBe(true);
    expect([LOG_ACTIONS.FORCE_REFRESH_CHART, LOG_ACTIONS.TOGGLE_EDIT_DASHBOARD].some((e) => TIMING_EVENTS.has(e))).toBe(false);
  });
});
