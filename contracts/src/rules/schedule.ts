/**
 * Scheduled queries (Superset's SCHEDULED_QUERIES): the schedule of a saved query lives in its
 * `extra_json` as `{"schedule_info": {...}}`. These pure rules validate that schedule and read it back.
 * Nothing here runs a schedule: storing it is all the product does so far. Reports share the crontab rules.
 */
import cronstrue from 'cronstrue';

/** Named intervals offered by the schedule form, each with the crontab it stands for. */
export const SCHEDULE_INTERVALS = {
  hourly: { label: 'Hourly', crontab: '0 * * * *' },
  daily: { label: 'Daily', crontab: '0 0 * * *' },
  weekly: { label: 'Weekly', crontab: '0 0 * * 0' },
  monthly: { label: 'Monthly', crontab: '0 0 1 * *' },
} as const;

export type ScheduleInterval = keyof typeof SCHEDULE_INTERVALS;

/** What `extra_json.schedule_info` holds. `schedule_interval` is the effective crontab (Airflow reads it as Superset's does). */
export interface ScheduleInfo {
  output_table: string;
  /** ISO date (YYYY-MM-DD). */
  start_date: string;
  end_date?: string | null;
  /** A named interval, or 'custom' when a crontab was typed. */
  interval: ScheduleInterval | 'custom';
  schedule_interval: string;
}

export const CRONTAB_FIELD_COUNT = 'A crontab has 5 fields: minute hour day-of-month month day-of-week';
export const CRONTAB_INVALID_FIELD = 'Invalid %s field: %s';
export const OUTPUT_TABLE_REQUIRED = 'Output table name is required';
export const OUTPUT_TABLE_INVALID = 'Use letters, digits and underscores (schema.table allowed)';
export const START_DATE_REQUIRED = 'Start date is required';
export const DATE_INVALID = 'Expected a date as YYYY-MM-DD';
export const END_BEFORE_START = 'End date cannot be before start date';

const MACROS = new Set(['@yearly', '@annually', '@monthly', '@weekly', '@daily', '@midnight', '@hourly']);
const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];
const DAYS = ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'];

const FIELDS: { name: string; min: number; max: number; names?: string[]; namesFrom?: number }[] = [
  { name: 'minute', min: 0, max: 59 },
  { name: 'hour', min: 0, max: 23 },
  { name: 'day-of-month', min: 1, max: 31 },
  { name: 'month', min: 1, max: 12, names: MONTHS, namesFrom: 1 },
  // 0 and 7 are both Sunday.
  { name: 'day-of-week', min: 0, max: 7, names: DAYS, namesFrom: 0 },
];

function fieldValue(text: string, field: (typeof FIELDS)[number]): number | null {
  if (/^\d+$/.test(text)) {
    const n = Number(text);
    return n >= field.min && n <= field.max ? n : null;
  }
  const index = field.names?.indexOf(text.toUpperCase()) ?? -1;
  return index >= 0 ? index + (field.namesFrom ?? 0) : null;
}

function validField(text: string, field: (typeof FIELDS)[number]): boolean {
  return text.split(',').every((item) => {
    const [range, step, ...rest] = item.split('/');
    if (rest.length || range === '') return false;
    if (step !== undefined && !(/^\d+$/.test(step) && Number(step) > 0)) return false;
    if (range === '*') return true;
    const bounds = range.split('-');
    if (bounds.length > 2) return false;
    const values = bounds.map((b) => fieldValue(b, field));
    if (values.some((v) => v === null)) return false;
    // A single value with a step (5/15) means "from 5 every 15": allowed, as cron does.
    return values.length === 1 || (values[0] as number) <= (values[1] as number);
  });
}

/**
 * Checks a crontab: five fields (minute hour day-of-month month day-of-week) of `*`, values, ranges `a-b`,
 * steps `/n` and lists `a,b`, with month and day names; or one of the @macros. Returns the error text or false.
 */
export function validateCrontab(text: string): string | false {
  const trimmed = text.trim();
  if (MACROS.has(trimmed.toLowerCase())) return false;
  const parts = trimmed.split(/\s+/).filter(Boolean);
  if (parts.length !== 5) return CRONTAB_FIELD_COUNT;
  for (let i = 0; i < 5; i++) {
    if (!validField(parts[i], FIELDS[i])) return CRONTAB_INVALID_FIELD.replace('%s', FIELDS[i].name).replace('%s', parts[i]);
  }
  return false;
}

/** The crontab in words, as Superset's crontab_humanized ("At 09:00 AM, only on Monday"), or null when it does not read. */
export function describeCrontab(crontab: string): string | null {
  if (validateCrontab(crontab) !== false) return null;
  try {
    return cronstrue.toString(crontab);
  } catch {
    return null;
  }
}

const isIsoDate = (text: string): boolean => {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const date = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === text;
};

/** The form's fields before they become a ScheduleInfo. */
export interface ScheduleForm {
  output_table: string;
  start_date: string;
  end_date?: string | null;
  interval: ScheduleInterval | 'custom';
  crontab?: string | null;
}

/** Field errors of a schedule form (empty when valid): output table, dates (end not before start) and the crontab. */
export function validateScheduleForm(form: ScheduleForm): Partial<Record<'output_table' | 'start_date' | 'end_date' | 'crontab', string>> {
  const errors: Partial<Record<'output_table' | 'start_date' | 'end_date' | 'crontab', string>> = {};
  const table = form.output_table.trim();
  if (!table) errors.output_table = OUTPUT_TABLE_REQUIRED;
  else if (!/^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)?$/.test(table)) errors.output_table = OUTPUT_TABLE_INVALID;
  if (!form.start_date) errors.start_date = START_DATE_REQUIRED;
  else if (!isIsoDate(form.start_date)) errors.start_date = DATE_INVALID;
  if (form.end_date) {
    if (!isIsoDate(form.end_date)) errors.end_date = DATE_INVALID;
    else if (!errors.start_date && form.end_date < form.start_date) errors.end_date = END_BEFORE_START;
  }
  if (form.interval === 'custom') {
    const error = validateCrontab(form.crontab ?? '');
    if (error) errors.crontab = error;
  } else if (!Object.hasOwn(SCHEDULE_INTERVALS, form.interval)) {
    errors.crontab = CRONTAB_FIELD_COUNT;
  }
  return errors;
}

/** The stored schedule of a valid form. */
export function scheduleInfoOf(form: ScheduleForm): ScheduleInfo {
  return {
    output_table: form.output_table.trim(),
    start_date: form.start_date,
    end_date: form.end_date || null,
    interval: form.interval,
    schedule_interval: form.interval === 'custom' ? (form.crontab ?? '').trim().replace(/\s+/g, ' ') : SCHEDULE_INTERVALS[form.interval].crontab,
  };
}

/** The schedule stored in a saved query's extra_json, or null (absent, or not JSON). */
export function readScheduleInfo(extraJson: string | null | undefined): ScheduleInfo | null {
  if (!extraJson) return null;
  try {
    const extra = JSON.parse(extraJson) as { schedule_info?: unknown };
    const info = extra && typeof extra === 'object' ? extra.schedule_info : null;
    return info && typeof info === 'object' ? (info as ScheduleInfo) : null;
  } catch {
    return null;
  }
}

/** extra_json with the schedule set (other keys kept); broken JSON is replaced. */
export function withScheduleInfo(extraJson: string | null | undefined, info: ScheduleInfo | null): string {
  let extra: Record<string, unknown> = {};
  try {
    const parsed = extraJson ? (JSON.parse(extraJson) as unknown) : {};
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) extra = parsed as Record<string, unknown>;
  } catch {
    extra = {};
  }
  const { schedule_info: _old, ...rest } = extra;
  return JSON.stringify(info ? { ...rest, schedule_info: info } : rest);
}
