import { describe, expect, it } from 'vitest';
import { chartReducer, initialChartState } from './chart-state';

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
    expect(chartReducer(initialChartState, { type: 'CHART_UPDATE_STOPPED', now: 1 })).toMatchObject({ chartStatus: 'stopped', chartAlert: 'Updating chart was stopped' });
    expect(chartReducer(initialChartState, { type: 'CHART_RENDERING_FAILED', error: 'boom', now: 1 }).chartAlert).toBe('An error occurred while rendering the visualization: boom');
  });
});
