import type { IssueCode, SupersetError, SupersetErrorType, TaskFailure } from '../types.ts';

/** Superset's issue code texts (`superset/errors.py`). */
export const ISSUE_CODES: Record<number, string> = {
  1000: 'The datasource is too large to query.',
  1001: 'The database is under an unusual load.',
  1002: 'The database returned an unexpected error.',
  1003: 'There is a syntax error in the SQL query. Perhaps there was a misspelling or a typo.',
  1004: 'The column was deleted or renamed in the database.',
  1005: 'The table was deleted or renamed in the database.',
  1007: "The hostname provided can't be resolved.",
  1008: 'The port is closed.',
  1009: "The host might be down, and can't be reached on the provided port.",
  1010: 'Superset encountered an error while running a command.',
  1011: 'Superset encountered an unexpected error.',
  1012: 'The username provided when connecting to a database is not valid.',
  1013: 'The password provided when connecting to a database is not valid.',
  1014: 'Either the username or the password is wrong.',
  1015: 'Either the database is spelled incorrectly or does not exist.',
  1016: 'The schema was deleted or renamed in the database.',
  1017: "User doesn't have the proper permissions.",
  1021: 'Results backend needed for asynchronous queries is not configured.',
  1022: 'Database does not allow data manipulation.',
  1023: "The CTAS (create table as select) doesn't have a SELECT statement at the end. Please make sure your query has a SELECT as its last statement. Then, try running your query again.",
  1024: 'CVAS (create view as select) query has more than one statement.',
  1025: 'CVAS (create view as select) query is not a SELECT statement.',
  1026: 'Query is too complex and takes too long to run.',
  1027: 'The database is currently running too many queries.',
  1029: 'The object does not exist in the given database.',
  1030: 'The query has a syntax error.',
  1031: 'The results backend no longer has the data from the query.',
  1032: 'The query associated with the results was deleted.',
  1033: 'The results stored in the backend were stored in a different format, and no longer can be deserialized.',
  1035: 'Failed to start remote query on a worker.',
};

/** Superset's `ERROR_TYPES_TO_ISSUE_CODES_MAPPING`. */
export const ERROR_TYPE_ISSUE_CODES: Record<SupersetErrorType, number[]> = {
  SYNTAX_ERROR: [1030],
  COLUMN_DOES_NOT_EXIST_ERROR: [1003, 1004],
  TABLE_DOES_NOT_EXIST_ERROR: [1003, 1005],
  SCHEMA_DOES_NOT_EXIST_ERROR: [1003, 1016],
  OBJECT_DOES_NOT_EXIST_ERROR: [1029],
  CONNECTION_ACCESS_DENIED_ERROR: [1014, 1015],
  CONNECTION_INVALID_HOSTNAME_ERROR: [1007],
  CONNECTION_PORT_CLOSED_ERROR: [1008],
  CONNECTION_HOST_DOWN_ERROR: [1009],
  CONNECTION_UNKNOWN_DATABASE_ERROR: [1015],
  CONNECTION_INVALID_USERNAME_ERROR: [1012],
  CONNECTION_INVALID_PASSWORD_ERROR: [1013],
  CONNECTION_DATABASE_PERMISSIONS_ERROR: [1017],
  GENERIC_DB_ENGINE_ERROR: [1002],
  DML_NOT_ALLOWED_ERROR: [1022],
  INVALID_CTAS_QUERY_ERROR: [1023],
  INVALID_CVAS_QUERY_ERROR: [1024, 1025],
  SQLLAB_TIMEOUT_ERROR: [1026, 1027],
  RESULTS_BACKEND_ERROR: [1031, 1032, 1033],
  ASYNC_WORKERS_ERROR: [1035],
  GENERIC_BACKEND_ERROR: [1011],
  GENERIC_COMMAND_ERROR: [1010],
};

/** Builds a Superset error object with the issue codes of its type. */
export function supersetError(errorType: SupersetErrorType, message: string, engineName: string | null, extra: Record<string, unknown> = {}): SupersetError {
  const issueCodes: IssueCode[] = (ERROR_TYPE_ISSUE_CODES[errorType] ?? []).map((code) => ({ code, message: `Issue ${code} - ${ISSUE_CODES[code]}` }));
  return { message, error_type: errorType, level: 'error', extra: { engine_name: engineName, issue_codes: issueCodes, ...extra } };
}

/** A failed task result carrying one Superset error. */
export function taskFailure(error: SupersetError, status: TaskFailure['status'] = 'failed'): TaskFailure {
  const { engine_name: _e, issue_codes: _i, ...rest } = error.extra;
  return { ok: false, status, errorType: error.error_type, message: error.message, errors: [error], extra: rest };
}

/** One row of an engine's error table: a regex over the driver message, the Superset message template, type and extra. */
export interface ErrorRule {
  regex: RegExp;
  /** Uses `%(name)s` placeholders filled from the regex's named groups, as Superset's `custom_errors`. */
  message: string;
  errorType: SupersetErrorType;
  extra?: Record<string, unknown>;
}

/**
 * The line (1-based) of the statement a driver message points at: `LINE 2:` (PostgreSQL, DuckDB) or `at line 2`
 * (MySQL, MariaDB); null when it names none.
 */
export function errorLine(message: string): number | null {
  const match = /^LINE (\d+):/m.exec(message) ?? /\bat line (\d+)\s*$/.exec(message);
  const line = match ? Number(match[1]) : NaN;
  return Number.isInteger(line) && line > 0 ? line : null;
}

/** What the driver itself said, beside the message a rule made of it. */
export interface DriverMessage {
  /** The driver's own text, when the rule was given another (PostgreSQL's with its line appended, a marker). */
  databaseMessage?: string;
  /** The statement line it points at, when the driver gives a position rather than a `LINE n` text. */
  line?: number | null;
}

/**
 * Applies the first matching rule to a driver message; falls back to GENERIC_DB_ENGINE_ERROR with `<engine> error: <message>`.
 * A rule's message keeps the database's own text in `extra.database_message` (shown under it), and a position the
 * driver gives becomes `extra.line` (the failing statement's line).
 */
export function mapByRules(rules: ErrorRule[], rawMessage: string, engineName: string, driver: DriverMessage = {}): SupersetError {
  const databaseMessage = driver.databaseMessage ?? rawMessage;
  const line = driver.line ?? errorLine(databaseMessage);
  const position = line ? { line } : {};
  for (const rule of rules) {
    const match = rule.regex.exec(rawMessage);
    if (!match) continue;
    const groups = match.groups ?? {};
    const message = rule.message.replace(/%\((\w+)\)s/g, (_all, name: string) => groups[name] ?? '');
    const own = databaseMessage.startsWith('MERIDIAN_') || databaseMessage === message ? {} : { database_message: databaseMessage };
    return supersetError(rule.errorType, message, engineName, { ...rule.extra, ...own, ...position });
  }
  return supersetError('GENERIC_DB_ENGINE_ERROR', `${engineName} error: ${rawMessage}`, engineName, position);
}

/**
 * Turns a failing statement's `extra.line` into the line of the submitted SQL: the statement's line is looked up in
 * the SQL from where that statement starts (statements sent may be rewritten: a LIMIT added, a wrapper around them).
 * The line is dropped when its text is not in the submitted SQL (a line Meridian added).
 */
export function lineInSubmittedSql(error: SupersetError, submitted: string, statementSent: string, statementIndex: number, originals: readonly string[]): SupersetError {
  const line = Number(error.extra?.line);
  if (!Number.isInteger(line) || line < 1) return error;
  const { line: _line, ...extra } = error.extra;
  const text = statementSent.split('\n')[line - 1]?.trim();
  let from = 0;
  for (let i = 0; i < statementIndex && i < originals.length; i++) {
    const at = submitted.indexOf(originals[i], from);
    if (at >= 0) from = at + originals[i].length;
  }
  const at = text ? submitted.indexOf(text, from) : -1;
  if (at < 0) return { ...error, extra: extra as SupersetError['extra'] };
  return { ...error, extra: { ...extra, line: submitted.slice(0, at).split('\n').length } as SupersetError['extra'] };
}

/** The message of anything thrown. */
export function errorMessage(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0) return errorMessage(error.errors[0]);
  if (error instanceof Error) return error.message || String((error as { code?: string }).code ?? error.name);
  return String(error);
}

/** Superset's SQL Lab timeout message. */
export function timeoutMessage(timeoutMs: number): string {
  const seconds = Math.round((timeoutMs / 1000) * 1000) / 1000;
  return `The query was killed after ${seconds} seconds. It might be too complex, or the database might be under heavy load.`;
}

/** Result of a query ended by `pool.stop` (`stopped`) or by its timeout (`timed_out`). */
export function cancelledFailure(reason: 'stopped' | 'timed_out', engineName: string | null, timeoutMs: number | null | undefined): TaskFailure {
  if (reason === 'timed_out') return taskFailure(supersetError('SQLLAB_TIMEOUT_ERROR', timeoutMessage(timeoutMs ?? 0), engineName), 'timed_out');
  return taskFailure(supersetError('GENERIC_DB_ENGINE_ERROR', 'The query was stopped.', engineName), 'stopped');
}
