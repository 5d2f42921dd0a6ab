/**
 * The chart state machine of spec 01 §4: loading → success → rendered, or failed / stopped.
 * Shared by Explore and dashboards so both show the same states and messages.
 */
import { ANNOTATION_QUERY_TIMEOUT, CHART_RENDER_FAILED, CHART_UPDATE_STOPPED, NETWORK_ERROR_DOT } from '../messages';

export type ChartStatus = 'idle' | 'loading' | 'success' | 'rendered' | 'failed' | 'stopped';

/** A chart query's error as the server's envelope gives it: its type and extra pick how the error box draws it. */
export interface ChartError {
  message?: string;
  error?: string;
  error_type?: string;
  level?: string;
  extra?: Record<string, unknown> | null;
  stacktrace?: string;
}

export interface ChartState {
  chartStatus: ChartStatus;
  chartAlert: string | null;
  /** The failed update's first error, whole (null for a render failure or a network error). */
  chartError: ChartError | null;
  chartStackTrace: string | null;
  chartUpdateStartTime: number | null;
  chartUpdateEndTime: number | null;
  queriesResponse: unknown[] | null;
  lastRendered: number | null;
  /** Annotation layers each have their own state, by layer name: running, answered data, or error. */
  annotationQuery: Record<string, true>;
  annotationData: Record<string, unknown>;
  annotationError: Record<string, string>;
}

export type ChartAction =
  | { type: 'CHART_UPDATE_STARTED'; now: number }
  | { type: 'CHART_UPDATE_SUCCEEDED'; queriesResponse: unknown[]; now: number }
  | { type: 'CHART_UPDATE_FAILED'; errors?: ReadonlyArray<ChartError> | null; now: number }
  | { type: 'CHART_UPDATE_STOPPED'; now: number }
  | { type: 'CHART_RENDERING_SUCCEEDED'; now: number }
  | { type: 'CHART_RENDERING_FAILED'; error: string; now: number }
  | { type: 'ANNOTATION_QUERY_STARTED'; name: string }
  | { type: 'ANNOTATION_QUERY_SUCCESS'; name: string; data: unknown }
  | { type: 'ANNOTATION_QUERY_FAILED'; name: string; error?: string | null; timeout?: boolean }
  /** A layer removed from the form: its state goes with it. */
  | { type: 'ANNOTATION_QUERY_CLEARED'; name: string };

export const initialChartState: ChartState = { chartStatus: 'idle', chartAlert: null, chartError: null, chartStackTrace: null, chartUpdateStartTime: null, chartUpdateEndTime: null, queriesResponse: null, lastRendered: null, annotationQuery: {}, annotationData: {}, annotationError: {} };

const without = <T>(map: Record<string, T>, key: string): Record<string, T> => {
  if (!(key in map)) return map;
  const { [key]: _gone, ...rest } = map;
  return rest;
};

/** Spec 01 §4 'Update failed': the alert is the first response error, or 'Network error.' when none came. */
export const chartFailureAlert = (errors?: ReadonlyArray<ChartError> | null): string => errors?.[0]?.message ?? errors?.[0]?.error ?? NETWORK_ERROR_DOT;

/** Spec 01 §4 'Rendering failed'. */
export const chartRenderAlert = (error: string): string => CHART_RENDER_FAILED.replace('%s', error);

/**
 * Superset's isNewChart, for Explore's run button: 'Create chart' until the chart is saved or first run, 'Update chart'
 * after. A failed run leaves no queriesResponse here (Superset keeps the errors there), so the answer alone would make
 * a saved chart whose run failed read as a new one.
 */
export const isNewChart = (state: ChartState, isSaved: boolean): boolean => !isSaved && state.chartUpdateStartTime === null;

export function chartReducer(state: ChartState, action: ChartAction): ChartState {
  switch (action.type) {
    case 'CHART_UPDATE_STARTED':
      return { ...state, chartStatus: 'loading', chartAlert: null, chartError: null, chartStackTrace: null, chartUpdateStartTime: action.now, chartUpdateEndTime: null };
    case 'CHART_UPDATE_SUCCEEDED':
      return { ...state, chartStatus: 'success', chartAlert: null, queriesResponse: action.queriesResponse, chartUpdateEndTime: action.now };
    case 'CHART_UPDATE_FAILED': {
      const first = action.errors?.[0];
      return { ...state, chartStatus: 'failed', chartAlert: chartFailureAlert(action.errors), chartError: first ?? null, chartStackTrace: first?.stacktrace ?? null, chartUpdateEndTime: action.now, queriesResponse: null };
    }
    case 'CHART_UPDATE_STOPPED':
      return { ...state, chartStatus: 'stopped', chartAlert: CHART_UPDATE_STOPPED, chartUpdateEndTime: action.now };
    case 'CHART_RENDERING_SUCCEEDED':
      return state.chartStatus === 'success' ? { ...state, chartStatus: 'rendered', lastRendered: action.now } : state;
    case 'CHART_RENDERING_FAILED':
      return { ...state, chartStatus: 'failed', chartAlert: chartRenderAlert(action.error), chartError: null };
    // Spec 01 §4: starting aborts a previous query of the same name (the caller's controller); success stores the
    // data and clears the error; failure removes the data and stores the error or 'Network error.'; a timeout
    // gives 'Query timeout'.
    case 'ANNOTATION_QUERY_STARTED':
      return { ...state, annotationQuery: { ...state.annotationQuery, [action.name]: true } };
    case 'ANNOTATION_QUERY_SUCCESS':
      return { ...state, annotationQuery: without(state.annotationQuery, action.name), annotationData: { ...state.annotationData, [action.name]: action.data }, annotationError: without(state.annotationError, action.name) };
    case 'ANNOTATION_QUERY_FAILED':
      return {
        ...state,
        annotationQuery: without(state.annotationQuery, action.name),
        annotationData: without(state.annotationData, action.name),
        annotationError: { ...state.annotationError, [action.name]: action.timeout ? ANNOTATION_QUERY_TIMEOUT : action.error || NETWORK_ERROR_DOT },
      };
    case 'ANNOTATION_QUERY_CLEARED':
      return { ...state, annotationQuery: without(state.annotationQuery, action.name), annotationData: without(state.annotationData, action.name), annotationError: without(state.annotationError, action.name) };
    default:
      return state;
  }
}
