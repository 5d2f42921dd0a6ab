/**
 * Every user-facing string of the spec's error catalogues (spec 01 §4/§5/§8, spec 02 §5/§6/§8), verbatim,
 * plus Superset's error type codes and levels. Strings with `%s` are filled with `fmt`.
 */

/** Fills each `%s` in order, like Superset's `t('...%s', x)`; missing arguments leave `%s` as is. */
export function fmt(template: string, ...args: Array<string | number | null | undefined>): string {
  let index = 0;
  return template.replace(/%s/g, (placeholder) => {
    if (index >= args.length) return placeholder;
    const value = args[index++];
    return value === null || value === undefined ? '' : String(value);
  });
}

// ---- SQL editor (spec 01 §8) ----
export const QUERY_SCHEDULED =
  'Your query has been scheduled. To see details of your query, navigate to Saved queries';
export const QUERY_NOT_SCHEDULED = 'Your query could not be scheduled';
export const FAILED_RETRIEVING_RESULTS = 'Failed at retrieving results';
export const UNKNOWN_ERROR = 'Unknown error';
export const SESSION_TIMED_OUT = 'Your session timed out, please refresh your page and try again.';
export const QUERY_STOPPED = 'Query was stopped.';
/** `fmt(FAILED_STOPPING_QUERY, query.id)` */
export const FAILED_STOPPING_QUERY = 'Failed at stopping query. %s';
export const MIGRATE_QUERY_EDITOR_FAILED =
  'Unable to migrate query editor state to backend. The product will retry later. Please contact your administrator if this problem persists.';
export const MIGRATE_TABLE_SCHEMA_FAILED =
  'Unable to migrate table schema state to backend. The product will retry later. Please contact your administrator if this problem persists.';
export const MIGRATE_QUERY_FAILED =
  'Unable to migrate query state to backend. The product will retry later. Please contact your administrator if this problem persists.';
export const FETCH_TAB_STATE_FAILED = 'An error occurred while fetching tab state';
export const REMOVE_QUERY_FAILED = 'An error occurred while removing query. Please contact your administrator.';
export const QUERY_NOT_SAVED = 'Your query could not be saved';
export const QUERY_SAVED = 'Your query was saved';
export const QUERY_NOT_PROPERLY_SAVED = 'Your query was not properly saved';
export const QUERY_UPDATED = 'Your query was updated';
export const QUERY_NOT_UPDATED = 'Your query could not be updated';
export const STORE_QUERY_IN_BACKEND_FAILED =
  'An error occurred while storing your query in the backend. To avoid losing your changes, please save your query using the "Save Query" button.';
export const FETCH_TABLE_METADATA_FAILED =
  'An error occurred while fetching table metadata. Please contact your administrator.';
export const EXPAND_TABLE_SCHEMA_FAILED =
  'An error occurred while expanding the table schema. Please contact your administrator.';
export const COLLAPSE_TABLE_SCHEMA_FAILED =
  'An error occurred while collapsing the table schema. Please contact your administrator.';
export const REMOVE_TABLE_SCHEMA_FAILED =
  'An error occurred while removing the table schema. Please contact your administrator.';
export const QUERY_NOT_LOADED = "The query couldn't be loaded";
export const DATASOURCE_NOT_LOADED = "The datasource couldn't be loaded";
export const CREATE_DATASOURCE_FAILED = 'An error occurred while creating the data source';
export const SAVE_EDITOR_STATE_FAILED = 'An error occurred while saving your editor state.';
/**
 * Superset's warning when the editor state nears the local-storage budget (spec 01 §4 reports the usage in
 * kilobytes rounded to two decimals; the catalogue prints no text for it, so this is Superset's).
 * `fmt(LOCAL_STORAGE_NEARLY_FULL, usageKb.toFixed(2), LOCALSTORAGE_MAX_USAGE_KB)`
 */
export const LOCAL_STORAGE_NEARLY_FULL =
  "SQL Lab uses your browser's local storage to store queries and results.\nCurrently, you are using %s KB out of %s KB storage space.\nTo keep SQL Lab from crashing, please delete some query tabs.\nYou can re-access these queries by using the Save feature before you delete the tab.\nNote that you will need to close other SQL Lab windows before you do this.";

// ---- SQL editor names (spec 01 §5) ----
export const UNTITLED_QUERY_PREFIX = 'Untitled Query ';
/** `fmt(COPY_OF_TAB, name)` */
export const COPY_OF_TAB = 'Copy of %s';
export const SHARED_QUERY_TAB_NAME = 'Shared query';

// ---- Chart and explore (spec 01 §4, §8) ----
export const NETWORK_ERROR_DOT = 'Network error.';
export const CHART_UPDATE_STOPPED = 'Updating chart was stopped';
/** An annotation layer's query that ran past the chart request timeout (spec 01 §8). */
export const ANNOTATION_QUERY_TIMEOUT = 'Query timeout';
/** `fmt(CHART_RENDER_FAILED, error)` */
export const CHART_RENDER_FAILED = 'An error occurred while rendering the visualization: %s';
export const LOAD_SQL_FAILED = 'An error occurred while loading the SQL';
export const SORRY_AN_ERROR_OCCURRED = 'Sorry, an error occurred';
export const QUERY_TIMEOUT = 'Query timeout';
export const SAVE_SLICE_FAILED = 'Failed to save slice';
export const FETCH_DASHBOARDS_FAILED = 'An error occurred while fetching dashboards';
export const FETCH_ALL_SAVED_CHARTS_FAILED = 'Could not fetch all saved charts';
export const FETCH_SAVED_CHARTS_ERROR = 'Sorry there was an error fetching saved charts: ';
export const STAR_CHART_FAILED = 'An error occurred while starring this chart';
export const SAVE_CROSS_FILTER_SCOPING_FAILED = 'Failed to save cross-filter scoping';
/** `fmt(CHART_SAVED, sliceName)` */
export const CHART_SAVED = 'Chart [%s] has been saved';
/** `fmt(CHART_OVERWRITTEN, sliceName)` */
export const CHART_OVERWRITTEN = 'Chart [%s] has been overwritten';
/** `fmt(DASHBOARD_CREATED_WITH_CHART, dashboardTitle, sliceName)` */
export const DASHBOARD_CREATED_WITH_CHART = 'Dashboard [%s] just got created and chart [%s] was added to it';
/** `fmt(CHART_ADDED_TO_DASHBOARD, sliceName, dashboardTitle)` */
export const CHART_ADDED_TO_DASHBOARD = 'Chart [%s] was added to dashboard [%s]';
export const COPIED_TO_CLIPBOARD = 'Copied to clipboard!';
export const COPY_NOT_SUPPORTED = 'Sorry, your browser does not support copying. Use Ctrl / Cmd + C!';
/** `fmt(SAVE_ERROR, 'chart', error)` */
/** Issue 11: the chart area until the form is valid (Superset's ExploreChartPanel). */
export const ADD_REQUIRED_CONTROL_VALUES = 'Add required control values to preview chart';
/** An empty answer is a success (spec 01 §4): every chart type shows this instead of a blank drawing (Superset's ChartRenderer). */
export const NO_RESULTS = 'No results were returned for this query';
/** Under NO_RESULTS in Explore, where the chart is big enough. */
export const NO_RESULTS_EXPLORE_HINT =
  'Make sure that the controls are configured properly and the datasource contains data for the selected time range';
export const SAVE_ERROR = 'Sorry, there was an error saving this %s: %s';
export const UNKNOWN_ERROR_OCCURRED_DOT = 'Sorry, an unknown error occurred.';
export const UNKNOWN_ERROR_OCCURRED = 'Sorry, an unknown error occurred';
/** `fmt(NO_PERMISSION_TO_EDIT, 'chart')` */
export const NO_PERMISSION_TO_EDIT = 'You do not have permission to edit this %s';
export const TIME_RANGE_NO_FILTER = 'No filter';

// ---- Error normalisation and the error box (spec 01 §8) ----
export const INVALID_INPUT = 'Invalid input';
export const UNEXPECTED_ERROR_PREFIX = 'Unexpected error: ';
export const NO_DESCRIPTION_SEE_STACK = '(no description, click to see stack trace)';
export const NETWORK_ERROR = 'Network error';
export const REQUEST_TIMED_OUT = 'Request timed out';
export const ISSUE_1000 = 'Issue 1000 - The dataset is too large to query.';
export const ISSUE_1001 = 'Issue 1001 - The database is under an unusual load.';
export const AN_ERROR_OCCURRED = 'An error occurred';
export const UNEXPECTED_ERROR_TITLE = 'Unexpected error';
export const SEE_MORE = 'See more';
export const SEE_LESS = 'See less';
export const COPY_MESSAGE = 'Copy message';
export const CLOSE = 'Close';
export const REQUEST_ACCESS = '(Request Access)';

// ---- Modals and selects (spec 01 §4) ----
export const OK = 'OK';
export const CANCEL = 'Cancel';
export const SELECT_ALL = 'Select All';

// ---- Dashboards (spec 02 §5, §6, §8) ----
export const NOT_ENOUGH_SPACE =
  'There is not enough space for this component. Try decreasing its width, or increasing the destination width.';
export const CANNOT_MOVE_TOP_LEVEL_TAB = 'Can not move top level tab into nested tabs';
export const CHART_MOVED_FILTER_SCOPE = 'This chart has been moved to a different filter scope.';
export const UNTITLED_DASHBOARD = '[ untitled dashboard ]';
export const CONFIRM_OVERWRITE = 'Please confirm the overwrite values.';
export const INVALID_FILTER_KEY = 'Cannot parse invalid filter key';
export const NO_PERMISSION_TO_EDIT_DASHBOARD = 'You do not have permission to edit this dashboard';
export const PUBLISH_FORBIDDEN = 'You do not have permissions to edit this dashboard.';
export const FETCH_FAVORITE_STATUS_FAILED = 'There was an issue fetching the favorite status of this dashboard.';
export const FAVORITE_DASHBOARD_FAILED = 'There was an issue favoriting this dashboard.';
export const DASHBOARD_PUBLISHED = 'This dashboard is now published';
export const DASHBOARD_HIDDEN = 'This dashboard is now hidden';
export const DASHBOARD_SAVED = 'This dashboard was saved successfully.';
/** `fmt(DASHBOARD_SAVE_ERROR, error)` */
export const DASHBOARD_SAVE_ERROR = 'Sorry, there was an error saving this dashboard: %s';
export const NO_CHART_DEFINITION =
  'Sorry, there is no chart definition associated with the chart trying to be added.';
/** `fmt(UNDO_SLOTS_USED, n)` */
export const UNDO_SLOTS_USED =
  'You have used all %s undo slots and will not be able to fully undo subsequent actions. You may save your current state to reset the history.';
export const FETCH_REPORTS_FAILED = 'There was an issue fetching reports attached to this dashboard.';
export const REPORT_CREATED = 'The report has been created';
export const REPORT_UPDATED = 'Report updated';
export const REPORT_TOGGLE_FAILED = 'We were unable to active or deactivate this report.';
export const REPORT_DELETE_FAILED = 'Your report could not be deleted';
/** `fmt(REPORT_DELETED, name)` */
export const REPORT_DELETED = 'Deleted: %s';

// ---- Error type codes (spec 01 §8), as Superset names them ----
export const ErrorTypeEnum = {
  // Frontend errors
  FRONTEND_CSRF_ERROR: 'FRONTEND_CSRF_ERROR',
  FRONTEND_NETWORK_ERROR: 'FRONTEND_NETWORK_ERROR',
  FRONTEND_TIMEOUT_ERROR: 'FRONTEND_TIMEOUT_ERROR',
  // Database engine errors
  GENERIC_DB_ENGINE_ERROR: 'GENERIC_DB_ENGINE_ERROR',
  COLUMN_DOES_NOT_EXIST_ERROR: 'COLUMN_DOES_NOT_EXIST_ERROR',
  TABLE_DOES_NOT_EXIST_ERROR: 'TABLE_DOES_NOT_EXIST_ERROR',
  SCHEMA_DOES_NOT_EXIST_ERROR: 'SCHEMA_DOES_NOT_EXIST_ERROR',
  CONNECTION_INVALID_USERNAME_ERROR: 'CONNECTION_INVALID_USERNAME_ERROR',
  CONNECTION_INVALID_PASSWORD_ERROR: 'CONNECTION_INVALID_PASSWORD_ERROR',
  CONNECTION_INVALID_HOSTNAME_ERROR: 'CONNECTION_INVALID_HOSTNAME_ERROR',
  CONNECTION_PORT_CLOSED_ERROR: 'CONNECTION_PORT_CLOSED_ERROR',
  CONNECTION_INVALID_PORT_ERROR: 'CONNECTION_INVALID_PORT_ERROR',
  CONNECTION_HOST_DOWN_ERROR: 'CONNECTION_HOST_DOWN_ERROR',
  CONNECTION_ACCESS_DENIED_ERROR: 'CONNECTION_ACCESS_DENIED_ERROR',
  CONNECTION_UNKNOWN_DATABASE_ERROR: 'CONNECTION_UNKNOWN_DATABASE_ERROR',
  CONNECTION_DATABASE_PERMISSIONS_ERROR: 'CONNECTION_DATABASE_PERMISSIONS_ERROR',
  CONNECTION_MISSING_PARAMETERS_ERROR: 'CONNECTION_MISSING_PARAMETERS_ERROR',
  SYNTAX_ERROR: 'SYNTAX_ERROR',
  // Visualisation errors
  VIZ_GET_DF_ERROR: 'VIZ_GET_DF_ERROR',
  UNKNOWN_DATASOURCE_TYPE_ERROR: 'UNKNOWN_DATASOURCE_TYPE_ERROR',
  FAILED_FETCHING_DATASOURCE_INFO_ERROR: 'FAILED_FETCHING_DATASOURCE_INFO_ERROR',
  // Security access errors
  TABLE_SECURITY_ACCESS_ERROR: 'TABLE_SECURITY_ACCESS_ERROR',
  DATASOURCE_SECURITY_ACCESS_ERROR: 'DATASOURCE_SECURITY_ACCESS_ERROR',
  DATABASE_SECURITY_ACCESS_ERROR: 'DATABASE_SECURITY_ACCESS_ERROR',
  QUERY_SECURITY_ACCESS_ERROR: 'QUERY_SECURITY_ACCESS_ERROR',
  MISSING_OWNERSHIP_ERROR: 'MISSING_OWNERSHIP_ERROR',
  USER_ACTIVITY_SECURITY_ACCESS_ERROR: 'USER_ACTIVITY_SECURITY_ACCESS_ERROR',
  DASHBOARD_SECURITY_ACCESS_ERROR: 'DASHBOARD_SECURITY_ACCESS_ERROR',
  CHART_SECURITY_ACCESS_ERROR: 'CHART_SECURITY_ACCESS_ERROR',
  OAUTH2_REDIRECT: 'OAUTH2_REDIRECT',
  OAUTH2_REDIRECT_ERROR: 'OAUTH2_REDIRECT_ERROR',
  // Other errors
  BACKEND_TIMEOUT_ERROR: 'BACKEND_TIMEOUT_ERROR',
  SQLLAB_TIMEOUT_ERROR: 'SQLLAB_TIMEOUT_ERROR',
  // SQL errors
  MISSING_TEMPLATE_PARAMS_ERROR: 'MISSING_TEMPLATE_PARAMS_ERROR',
  INVALID_TEMPLATE_PARAMS_ERROR: 'INVALID_TEMPLATE_PARAMS_ERROR',
  RESULTS_BACKEND_NOT_CONFIGURED_ERROR: 'RESULTS_BACKEND_NOT_CONFIGURED_ERROR',
  RESULTS_BACKEND_ERROR: 'RESULTS_BACKEND_ERROR',
  DML_NOT_ALLOWED_ERROR: 'DML_NOT_ALLOWED_ERROR',
  INVALID_CTAS_QUERY_ERROR: 'INVALID_CTAS_QUERY_ERROR',
  INVALID_CVAS_QUERY_ERROR: 'INVALID_CVAS_QUERY_ERROR',
  ASYNC_WORKERS_ERROR: 'ASYNC_WORKERS_ERROR',
  ADHOC_SUBQUERY_NOT_ALLOWED_ERROR: 'ADHOC_SUBQUERY_NOT_ALLOWED_ERROR',
  INVALID_SQL_ERROR: 'INVALID_SQL_ERROR',
  // Generic errors
  GENERIC_COMMAND_ERROR: 'GENERIC_COMMAND_ERROR',
  GENERIC_BACKEND_ERROR: 'GENERIC_BACKEND_ERROR',
  // API errors
  INVALID_PAYLOAD_FORMAT_ERROR: 'INVALID_PAYLOAD_FORMAT_ERROR',
  INVALID_PAYLOAD_SCHEMA_ERROR: 'INVALID_PAYLOAD_SCHEMA_ERROR',
  MARSHMALLOW_ERROR: 'MARSHMALLOW_ERROR',
  // Report errors
  REPORT_NOTIFICATION_ERROR: 'REPORT_NOTIFICATION_ERROR',
} as const;

export type ErrorType = (typeof ErrorTypeEnum)[keyof typeof ErrorTypeEnum];

export const ErrorLevelEnum = { INFO: 'info', WARNING: 'warning', ERROR: 'error' } as const;
export type ErrorLevel = (typeof ErrorLevelEnum)[keyof typeof ErrorLevelEnum];

/** One entry of Superset's `{"errors": [...]}` envelope. */
export interface SupersetError<Extra = Record<string, unknown> | null> {
  message: string;
  error_type: ErrorType;
  level: ErrorLevel;
  extra?: Extra;
}

/** True when `value` is one of the error type codes above. */
export function isErrorType(value: unknown): value is ErrorType {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(ErrorTypeEnum, value);
}
