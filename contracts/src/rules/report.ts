/**
 * The rules of a report or alert run (Superset's ReportScheduleStateMachine and AlertCommand), as pure
 * functions: what a due run does given the last state, and whether an alert's value fires.
 */
import { REPORT_STATES, type ValidatorConfig } from '../schemas/report';

/** Superset's messages for reports and alerts (superset/commands/report/exceptions.py). */
export const REPORT_MESSAGES = {
  workingTimeout: 'Report Schedule reached a working timeout.',
  previousWorking: 'Report Schedule is still working, refusing to re-compute.',
  alertQueryError: 'Alert found an error while executing a query.',
  alertMultipleRows: 'Alert query returned more than one row. %s rows returned',
  alertMultipleColumns: 'Alert query returned more than one column. %s columns returned',
  alertInvalidType: 'Alert query returned a non-number value.',
  alertValidatorConfig: 'Alert validator config error.',
  screenshotFailed: 'Report Schedule execution failed when generating a screenshot.',
  screenshotTimeout: 'A timeout occurred while taking a screenshot.',
  csvFailed: 'Report Schedule execution failed when generating a csv.',
  dataFailed: 'Report Schedule execution failed when generating a dataframe.',
  notificationFailed: 'Report Schedule notification failed: %s',
  nameUnique: 'Name must be unique',
  chartOrDashboard: 'Choose a chart or dashboard not both',
  chartOrDashboardRequired: 'Must choose either a chart or a dashboard',
  databaseRequired: 'Database is required for alerts',
  sqlRequired: 'SQL is required for alerts',
  alreadyAttached: 'Resource already has an attached report.',
  crontabInvalid: 'Cron expression is invalid',
  notFound: 'Report Schedule not found.',
} as const;

/**
 * What each kind of content is sent as, with the report modal's labels: a chart as its picture, its rows as CSV
 * or a small table; a dashboard, which has no rows of its own, only as a picture or PDF.
 */
export const REPORT_FORMATS_BY_CONTENT = {
  chart: [
    { value: 'PNG', label: 'Image (PNG) embedded in email' },
    { value: 'CSV', label: 'Formatted CSV attached in email' },
    { value: 'TEXT', label: 'Text embedded in email' },
  ],
  dashboard: [
    { value: 'PNG', label: 'Image (PNG) embedded in email' },
    { value: 'PDF', label: 'PDF attached in email' },
  ],
} as const;

/** Null when `format` suits the content, else the field error saying what it can be sent as. */
export function reportFormatError(content: keyof typeof REPORT_FORMATS_BY_CONTENT, format: string): string | null {
  const allowed = REPORT_FORMATS_BY_CONTENT[content].map((f) => f.value as string);
  if (allowed.includes(format)) return null;
  return `A ${content} is sent as ${allowed.slice(0, -1).join(', ')} or ${allowed.at(-1)}`;
}

/** Fills Superset's `%s` placeholders in order. */
export const fillMessage = (template: string, ...values: Array<string | number>) => values.reduce<string>((text, v) => text.replace('%s', String(v)), template);

/** What a due run must do, from the schedule's last state (Superset's state classes). */
export type RunDecision =
  /** Run it: evaluate the alert, or make and send the report. */
  | { kind: 'run' }
  /** An alert that fired within its grace period: logged On Grace, nothing sent. */
  | { kind: 'grace' }
  /** The previous run is still working: logged as an error, nothing run. */
  | { kind: 'still-working' }
  /** The previous run outlived its working timeout: it is marked an error, and this run does not start. */
  | { kind: 'working-timeout' };

export interface RunState {
  type: 'Alert' | 'Report' | string;
  last_state: string | null;
  /** When the last Success (an alert that fired and was sent) ended: the grace period runs from there. */
  last_success_dttm: Date | null;
  grace_period: number | null;
  working_timeout: number | null;
  /** When the Working run started, if the last state is Working. */
  working_since: Date | null;
}

export function decideRun(s: RunState, now: Date): RunDecision {
  if (s.last_state === REPORT_STATES.WORKING) {
    const since = s.working_since;
    if (since && s.working_timeout != null && now.getTime() - since.getTime() > s.working_timeout * 1000) return { kind: 'working-timeout' };
    return { kind: 'still-working' };
  }
  // A report sends on every schedule; an alert that last fired waits out its grace period.
  if (s.type === 'Alert' && (s.last_state === REPORT_STATES.SUCCESS || s.last_state === REPORT_STATES.GRACE) && s.last_success_dttm && s.grace_period != null) {
    if (now.getTime() - s.last_success_dttm.getTime() < s.grace_period * 1000) return { kind: 'grace' };
  }
  return { kind: 'run' };
}

/** Whether an error notice goes to the owners again: not within the grace period of the last one sent. */
export function errorNoticeDue(lastNotice: Date | null, gracePeriod: number | null, now: Date): boolean {
  if (!lastNotice || gracePeriod == null) return true;
  return now.getTime() - lastNotice.getTime() >= gracePeriod * 1000;
}

/**
 * The value an alert query returned (Superset's AlertCommand._execute_query checks): no row is null; more
 * than one row, or more than one column, is an error; a value that is not a number is an error, except for
 * the not-null validator, which reads any value.
 */
export function alertValue(rows: unknown[][], validatorType: string | null | undefined): { ok: true; value: number | null } | { ok: false; message: string } {
  if (rows.length > 1) return { ok: false, message: fillMessage(REPORT_MESSAGES.alertMultipleRows, rows.length) };
  if (!rows.length) return { ok: true, value: null };
  const row = rows[0];
  if (row.length > 1) return { ok: false, message: fillMessage(REPORT_MESSAGES.alertMultipleColumns, row.length) };
  const raw = row[0];
  if (raw === null || raw === undefined) return { ok: true, value: null };
  const value = typeof raw === 'number' ? raw : typeof raw === 'bigint' ? Number(raw) : typeof raw === 'string' && raw.trim() !== '' && Number.isFinite(Number(raw)) ? Number(raw) : typeof raw === 'boolean' ? Number(raw) : NaN;
  if (Number.isNaN(value)) {
    if (validatorType === 'not null') return { ok: true, value: 1 };
    return { ok: false, message: REPORT_MESSAGES.alertInvalidType };
  }
  return { ok: true, value };
}

/** Whether an alert fires: not null (and not 0, as Superset reads it), or the operator against the threshold. */
export function alertTriggered(validatorType: string | null | undefined, config: ValidatorConfig | null | undefined, value: number | null): boolean {
  if (validatorType === 'not null' || !validatorType) return value !== null && value !== 0 && !Number.isNaN(value);
  const op = config?.op;
  const threshold = config?.threshold;
  if (!op || threshold === undefined) throw new Error(REPORT_MESSAGES.alertValidatorConfig);
  if (value === null) return false;
  switch (op) {
    case '<': return value < threshold;
    case '<=': return value <= threshold;
    case '>': return value > threshold;
    case '>=': return value >= threshold;
    case '==': return value === threshold;
    case '!=': return value !== threshold;
  }
}
