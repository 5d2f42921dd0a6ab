/** Business constants and limits of spec 01 §9 and spec 02 §9. */

// ---- SQL editor (the untitled tab prefix lives in messages.ts: UNTITLED_QUERY_PREFIX) ----
export const QUERY_ID_LENGTH = 11;
export const SQLLAB_SYNC_INTERVAL_MS = 5000;
export const SQLLAB_STATE_SAVE_DEBOUNCE_MS = 5000;
/** Layout constants of spec 01 §9 ('8000 and 600'): warning-toast throttle and validation debounce, as Superset uses them. */
export const LOCALSTORAGE_WARNING_MESSAGE_THROTTLE_MS = 8000;
export const VALIDATION_DEBOUNCE_MS = 600;
export const SET_QUERY_EDITOR_SQL_DEBOUNCE_MS = 2000;
export const INITIAL_NORTH_PERCENT = 30;
export const PREVIEW_QUERY_LIMIT = 100;
export const SOUTH_PANE_RESULTS_TAB = 'Results';

// ---- Local storage of the SQL editor ----
export const KB_STORAGE = 1024;
export const BYTES_PER_CHAR = 2;
export const LOCALSTORAGE_MAX_QUERY_AGE_MS = 864e5;
export const LOCALSTORAGE_MAX_USAGE_KB = 5120;
export const LOCALSTORAGE_MAX_QUERY_RESULTS_KB = 1024;
export const LOCALSTORAGE_WARNING_THRESHOLD = 0.9;

// ---- Charts ----
export const DEFAULT_ROW_LIMIT = 10000;
export const ROW_LIMIT_CHOICES = [10, 50, 100, 250, 500, 1000, 5000, 10000, 50000] as const;
export const SQL_MAX_ROW_FALLBACK = 100000;
export const DEFAULT_EXPLORE_ROW_LIMIT = 1000;
export const SERIES_LIMIT_CHOICES = [5, 10, 25, 50, 100, 500] as const;
export const DEFAULT_TIME_RANGE = 'No filter';
export const DEFAULT_Y_AXIS_FORMAT = 'SMART_NUMBER';
export const DEFAULT_TIME_FORMAT = 'smart_date';
export const DEFAULT_METRICS: readonly never[] = [];
export const SORT_SERIES_TYPES = ['name', 'sum', 'min', 'max', 'avg'] as const;
export type SortSeriesType = (typeof SORT_SERIES_TYPES)[number];
export const DEFAULT_COLOR_SCHEME = 'supersetColors';
export const DEFAULT_SEQUENTIAL_SCHEME = 'superset_seq_1';
export const CHART_LIST_PAGE_SIZE = 200;

/** Superset's ISO time grains. */
export const TimeGranularity = {
  FIVE_SECONDS: 'PT5S',
  THIRTY_SECONDS: 'PT30S',
  MINUTE: 'PT1M',
  FIVE_MINUTES: 'PT5M',
  THIRTY_MINUTES: 'PT30M',
  HOUR: 'PT1H',
  SIX_HOURS: 'PT6H',
  DAY: 'P1D',
  SEVEN_DAYS: 'P7D',
  WEEK: 'P1W',
  WEEK_STARTING_SUNDAY: '1969-12-28T00:00:00Z/P1W',
  WEEK_ENDING_SATURDAY: 'P1W/1970-01-03T00:00:00Z',
  MONTH: 'P1M',
  QUARTER: 'P3M',
  YEAR: 'P1Y',
} as const;
export type TimeGranularity = (typeof TimeGranularity)[keyof typeof TimeGranularity];

/** Time grain choices of spec 01 §9 as [value, label]; null is 'all'. */
export const TIME_GRAIN_CHOICES: ReadonlyArray<readonly [TimeGranularity | null, string]> = [
  [null, 'all'],
  [TimeGranularity.FIVE_SECONDS, '5 seconds'],
  [TimeGranularity.THIRTY_SECONDS, '30 seconds'],
  [TimeGranularity.MINUTE, '1 minute'],
  [TimeGranularity.FIVE_MINUTES, '5 minutes'],
  [TimeGranularity.THIRTY_MINUTES, '30 minutes'],
  [TimeGranularity.HOUR, '1 hour'],
  [TimeGranularity.SIX_HOURS, '6 hour'],
  [TimeGranularity.DAY, '1 day'],
  [TimeGranularity.SEVEN_DAYS, '7 days'],
  [TimeGranularity.WEEK, 'week'],
  [TimeGranularity.WEEK_STARTING_SUNDAY, 'week starting Sunday'],
  [TimeGranularity.WEEK_ENDING_SATURDAY, 'week ending Saturday'],
  [TimeGranularity.MONTH, 'month'],
  [TimeGranularity.QUARTER, 'quarter'],
  [TimeGranularity.YEAR, 'year'],
];
export const DEFAULT_TIME_GRAIN: TimeGranularity = TimeGranularity.DAY;
/** Older Superset form data names the two week grains this way; they map to the ISO values. */
export const LEGACY_TIME_GRAIN_ALIASES: Readonly<Record<string, TimeGranularity>> = {
  week_starting_sunday: TimeGranularity.WEEK_STARTING_SUNDAY,
  week_ending_saturday: TimeGranularity.WEEK_ENDING_SATURDAY,
};

/** Generic column types of spec 01 §3. */
export const GenericDataType = { NUMERIC: 0, STRING: 1, TEMPORAL: 2, BOOLEAN: 3 } as const;
export type GenericDataType = (typeof GenericDataType)[keyof typeof GenericDataType];

export const ADHOC_METRIC_AGGREGATES = ['AVG', 'COUNT', 'COUNT_DISTINCT', 'MAX', 'MIN', 'SUM'] as const;
export const CTAS_METHODS = ['TABLE', 'VIEW'] as const;

// ---- Async jobs and events ----
export const ASYNC_POLLING_INTERVAL_MS = 500;
export const ASYNC_WS_RETRY_DELAY_MS = 2500;
export const ASYNC_WS_MAX_RETRIES = 6;
export const ASYNC_LISTENER_MAX_RETRIES = 6;
export const ASYNC_LISTENER_RETRY_STEP_MS = 100;
export const ASYNC_LAST_EVENT_ID_STORAGE_KEY = 'last_async_event_id';

// ---- Interface limits ----
export const MODAL_DEFAULT_WIDTH = '600px';
export const MODAL_RESPONSIVE_WIDTH = '100vw';
export const MODAL_MAX_WIDTH = '900px';
export const BUTTON_HEIGHT = { default: 32, small: 30, xsmall: 22 } as const;
export const TOOLTIP_MAX_LINES = 40;

// ---- Dashboards (spec 02 §9) ----
export const GRID_BASE_UNIT = 8;
export const GRID_COLUMN_COUNT = 12;
export const GRID_MAX_COMPONENT_SIZE = 65535;
export const UNDO_LIMIT_EXTRA = 2;
export const FILTER_REMOVAL_UNDO_MS = 5000;
export const STAGGER_REFRESH_DEFAULT_MS = 5000;
export const STAGGER_REFRESH_ENABLED_DEFAULT = true;
export const LOG_BATCH_MAX_EVENTS = 1024;
export const LOG_BATCH_DELAY_MS = 1000;
export const FILTER_LIMIT = 10;

/** Undo history size: the configured maximum plus 2. */
export function undoHistoryLimit(configuredMax: number): number {
  return configuredMax + UNDO_LIMIT_EXTRA;
}

/** Delay before retry `attempt` (1-based) of an event for an unknown async job: multiples of 100 ms. */
export function asyncListenerRetryDelay(attempt: number): number {
  return attempt * ASYNC_LISTENER_RETRY_STEP_MS;
}

/** Staggered refresh: the larger of the refresh interval and stagger_time, divided across charts. */
export function staggerRefreshInterval(refreshIntervalMs: number, chartCount: number, staggerTimeMs = STAGGER_REFRESH_DEFAULT_MS): number {
  const total = Math.max(refreshIntervalMs, staggerTimeMs);
  return chartCount > 0 ? total / chartCount : total;
}
