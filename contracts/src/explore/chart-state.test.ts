import { describe, expect, it } from 'vitest';
import { chartReducer, initialChartState, isNewChart } from './chart-state';

describe('chart state (spec 01 §4)', () => {
  it('goes loading → success → rendered, clearing the alert when an update starts', () => {
    let s = chartReducer({ ...initialChartState, chartAlert: 'old', chartStatus: 'failed' }, { type: 'CHART_UPDATE_STARTED', now: 1 });
    expect(s).toMatchObject({ chartStatus: 'loading', chartAlert: null, chartUpdateStartTime: 1 });
    s = chartReducer(s, { type: 'CHART_UPDATE_SUCCEEDED', queriesResponse: [{ data: [] }], now: 2 });
    expect(s.chartStatus).toBe('success');
    s = chartReducer(s, { type: 'CHART_RENDERING_SUCCEEDED', now: 3 });
    expect(s).toMatchObject({ chartStatus: 'rendered', lastRendered: 3 });
  });

  it("fails with the first error, or 'Network error.'; stops with 'Updating chart was stopped'", () => {
    expect(chartReducer(initialChartState, { type: 'CHART_UPDATE_FAILED', errors: [{ message: 'bad column' }, { message: 'second' }], now: 1 }).chartAlert).toBe('bad column');
    expect(chartReducer(initialChartState, { type: 'CHART_UPDATE_FAILED', now: 1 }).chartAlert).toBe('Network error.');
    // The first error is kept whole: its type and issue codes decide how the error box draws it.
    const timeout = { message: 'Request timed out', error_type: 'FRONTEND_TIMEOUT_ERROR', level: 'error', extra: { timeout: 60 } };
    expect(chartReducer(initialChartState, { type: 'CHART_UPDATE_FAILED', errors: [timeout], now: 1 }).chartError).toEqual(timeout);
    expect(chartReducer({ ...initialChartState, chartError: timeout }, { type: 'CHART_UPDATE_STARTED', now: 2 }).chartError).toBeNull();
    expect(chartReducer(initialChartState, { type: 'CHART_UPDATE_STOPPED', now: 1 })).toMatchObject({ chartStatus: 'stopped', chartAlert: 'Updating chart was stopped' });
    expect(chartReducer(initialChartState, { type: 'CHART_RENDERING_FAILED', error: 'boom', now: 1 }).chartAlert).toBe('An error occurred while rendering the visualization: boom');
  });

  it('keeps each annotation layer in its own state: success stores data and clears the error, failure removes the data', () => {
    let s = chartReducer(initialChartState, { type: 'ANNOTATION_QUERY_STARTED', name: 'releases' });
    s = chartReducer(s, { type: 'ANNOTATION_QUERY_STARTED', name: 'holidays' });
    expect(s.annotationQuery).toEqual({ releases: true, holidays: true });
    s = chartReducer(s, { type: 'ANNOTATION_QUERY_FAILED', name: 'releases', error: 'Annotation layer not found.' });
    s = chartReducer(s, { type: 'ANNOTATION_QUERY_SUCCESS', name: 'holidays', data: { records: [1] } });
    expect(s).toMatchObject({ annotationQuery: {}, annotationData: { holidays: { records: [1] } }, annotationError: { releases: 'Annotation layer not found.' } });
    s = chartReducer(s, { type: 'ANNOTATION_QUERY_SUCCESS', name: 'releases', data: { records: [] } });
    expect(s.annotationError).toEqual({});
    s = chartReducer(s, { type: 'ANNOTATION_QUERY_FAILED', name: 'holidays' });
    expect(s.annotationData).toEqual({ releases: { records: [] } });
    expect(s.annotationError).toEqual({ holidays: 'Network error.' });
    expect(chartReducer(s, { type: 'ANNOTATION_QUERY_FAILED', name: 'releases', timeout: true }).annotationError.releases).toBe('Query timeout');
    expect(chartReducer(s, { type: 'ANNOTATION_QUERY_CLEARED', name: 'holidays' }).annotationError).toEqual({});
    // The chart's own updates leave the layers' state alone.
    expect(chartReducer(s, { type: 'CHART_UPDATE_STARTED', now: 5 }).annotationData).toEqual({ releases: { records: [] } });
  });
  it("reads as a new chart ('Create chart') until saved or first run; a saved chart whose run failed is not new", () => {
    expect(isNewChart(initialChartState, false)).toBe(true);
    expect(isNewChart(initialChartState, true)).toBe(false);
    const failed = chartReducer(chartReducer(initialChartState, { type: 'CHART_UPDATE_STARTED', now: 1 }), { type: 'CHART_UPDATE_FAILED', errors: [{ message: 'bad column' }], now: 2 });
    expect(failed.queriesResponse).toBeNull();
    expect(isNewChart(failed, true)).toBe(false);
    // An unsaved chart that has run is updated from then on, as Superset's, whose failed runs keep their errors as the answer.
    expect(isNewChart(failed, false)).toBe(false);
    expect(isNewChart(chartReducer(failed, { type: 'CHART_UPDATE_STARTED', now: 3 }), false)).toBe(false);
  });
});
