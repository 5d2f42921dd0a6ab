/**
 * The chart state machine of spec 01 §4: loading → success → rendered, or failed / stopped.
 * Shared by Explore and dashboards so both show the same states and messages.
 */
import { CHART_RENDER_FAILED, CHART_UPDATE_STOPPED, NETWORK_ERROR_DOT } from '../messages';

export type ChartStatus = 'idle' | 'loading' | 'success' | 'rendered' | 'failed' | 'stopped';

export interface ChartState {
  chartStatus: ChartStatus;
  chartAlert: string | null;
  chartStackTrace: string | null;
  chartUpdateStartTime: number | null;
  chartUpdateEndTime: number | null;
  queriesResponse: unknown[] | null;
  lastRendered: number | null;
}

export type ChartAction =
  | { type: 'CHART_UPDATE_STARTED'; now: number }
  | { type: 'CHART_UPDATE_SUCCEEDED'; queriesResponse: unknown[]; now: number }
  | { type: 'CHART_UPDATE_FAILED'; errors?: ReadonlyArray<{ message?: string; error?: string; stacktrace?: string }> | null; now: number }
  | { type: 'CHART_UPDATE_STOPPED'; now: number }
  | { type: 'CHART_RENDERING_SUCCEEDED'; now: number }
  | { type: 'CHART_RENDERING_FAILED'; error: string; now: number };

export const initialChartState: ChartState = { chartStatus: 'idle', chartAlert: null, chartStackTrace: null, chartUpdateStartTime: null, chartUpdateEndTime: null, queriesResponse: null, lastRendered: null };

export function chartReducer(state: ChartState, action: ChartAction): ChartState {
  switch (action.type) {
    case 'CHART_UPDATE_STARTED':
      return { ...state, chartStatus: 'loading', chartAlert: null, chartStackTrace: null, chartUpdateStartTime: action.now, chartUpdateEndTime: null };
    case 'CHART_UPDATE_SUCCEEDED':
      return { ...state, chartStatus: 'success', chartAlert: null, queriesResponse: action.queriesResponse, chartUpdateEndTime: action.now };
    case 'CHART_UPDATE_FAILED': {
      const first = action.errors?.[0];
      return { ...state, chartStatus: 'failed', chartAlert: first?.message ?? first?.error ?? NETWORK_ERROR_DOT, chartStackTrace: first?.stacktrace ?? null, chartUpdateEndTime: action.now, queriesResponse: null };
    }
    case 'CHART_UPDATE_STOPPED':
      return { ...state, chartStatus: 'stopped', chartAlert: CHART_UPDATE_STOPPED, chartUpdateEndTime: action.now };
    case 'CHART_RENDERING_SUCCEEDED':
      return state.chartStatus === 'success' ? { ...state, chartStatus: 'rendered', lastRendered: action.now } : state;
    case 'CHART_RENDERING_FAILED':
      return { ...state, chartStatus: 'failed', chartAlert: CHART_RENDER_FAILED.replace('%s', action.error) };
    default:
      return state;
  }
}
