/**
 * Times as Superset's REST answers write them, so scripts that parse Superset's answers parse ours.
 * Superset stores naive datetimes (the server's clock, UTC on a UTC host) and marshmallow writes them
 * with Python's `datetime.isoformat()`: no offset, microseconds, and no fraction at all when the
 * microseconds are 0. `changed_on_utc` is `strftime('%Y-%m-%dT%H:%M:%S.%f%z')` of the UTC time, and
 * the `*_humanized` fields are `humanize.naturaltime(datetime.now() - value)`. Meridian stores UTC
 * instants, and reads them back with millisecond precision.
 */

type Instant = Date | string | number;

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

function dateOf(value: Instant): Date | null {
  const date = typeof value === 'string' ? new Date(parseServerTime(value)) : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

function wholeSeconds(date: Date): string {
  return `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}T${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())}`;
}

/**
 * Python's `datetime.isoformat()` of a naive UTC datetime: Superset's `changed_on`, `created_on`,
 * `last_eval_dttm`, `start_dttm`... Null stays null.
 *
 * @example pythonIsoformat(new Date('2024-01-02T03:04:05.123Z')) // '2024-01-02T03:04:05.123000'
 * @example pythonIsoformat(new Date('2024-01-02T03:04:05Z'))     // '2024-01-02T03:04:05'
 */
export function pythonIsoformat(value: Instant): string;
export function pythonIsoformat(value: Instant | null | undefined): string | null;
export function pythonIsoformat(value: Instant | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  const date = dateOf(value);
  // Text that is no time is passed on as it is: nothing is read from it that it did not say.
  if (!date) return String(value);
  const ms = date.getUTCMilliseconds();
  return ms ? `${wholeSeconds(date)}.${pad(ms * 1000, 6)}` : wholeSeconds(date);
}

/**
 * Superset's `changed_on_utc`: always with microseconds and the `+0000` offset.
 *
 * @example utcStamp(new Date('2024-01-02T03:04:05Z')) // '2024-01-02T03:04:05.000000+0000'
 */
export function utcStamp(value: Instant): string;
export function utcStamp(value: Instant | null | undefined): string | null;
export function utcStamp(value: Instant | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  const date = dateOf(value);
  return date ? `${wholeSeconds(date)}.${pad(date.getUTCMilliseconds() * 1000, 6)}+0000` : String(value);
}

/**
 * humanize's `naturaldelta` of a duration in milliseconds (sign ignored), with months on, as Superset
 * calls it: 'a moment', '5 seconds', 'an hour', '30 days', 'a month', '1 year, 2 months', '3 years'.
 */
export function naturalDelta(ms: number): string {
  // Python's timedelta: whole days, then the seconds within the last day.
  const totalSeconds = Math.floor(Math.abs(ms) / 1000);
  const allDays = Math.floor(totalSeconds / 86_400);
  const seconds = totalSeconds % 86_400;
  const years = Math.floor(allDays / 365);
  const days = allDays % 365;
  const months = Math.floor(days / 30.5);
  const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`;
  if (!years && days < 1) {
    if (seconds === 0) return 'a moment';
    if (seconds === 1) return 'a second';
    if (seconds < 60) return plural(seconds, 'second');
    if (seconds < 120) return 'a minute';
    if (seconds < 3600) return plural(Math.floor(seconds / 60), 'minute');
    if (seconds < 7200) return 'an hour';
    return plural(Math.floor(seconds / 3600), 'hour');
  }
  if (years === 0) {
    if (days === 1) return 'a day';
    if (!months) return plural(days, 'day');
    return months === 1 ? 'a month' : plural(months, 'month');
  }
  if (years === 1) {
    if (!months && !days) return 'a year';
    if (!months) return `1 year, ${plural(days, 'day')}`;
    return months === 1 ? '1 year, 1 month' : `1 year, ${plural(months, 'month')}`;
  }
  return plural(years, 'year');
}

/**
 * Superset's `changed_on_delta_humanized` and its kin (humanize.naturaltime of now minus the time):
 * 'now', 'a minute ago', '3 days ago', '2 hours from now'. Empty when there is no time.
 *
 * @example humanizedDelta(new Date(Date.now() - 120_000)) // '2 minutes ago'
 */
export function humanizedDelta(value: Instant | null | undefined, now = Date.now()): string {
  if (value === null || value === undefined || value === '') return '';
  const date = dateOf(value);
  if (!date) return '';
  const delta = now - date.getTime();
  const text = naturalDelta(delta);
  if (text === 'a moment') return 'now';
  return delta < 0 ? `${text} from now` : `${text} ago`;
}

/**
 * Epoch milliseconds of a time in a REST answer, NaN when it is not one. A time without an offset is
 * UTC (Superset's naive datetimes; JavaScript alone would read it as local time), and `+0000`
 * (Superset's `changed_on_utc`) is read as `+00:00`.
 *
 * @example parseServerTime('2024-01-02T03:04:05.123456') // Date.UTC(2024, 0, 2, 3, 4, 5, 123)
 */
export function parseServerTime(text: string): number {
  const m = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}(?::\d{2})?)(?:\.(\d+))?(Z|[+-]\d{2}:?\d{2})?$/i.exec(text.trim());
  if (!m) return Date.parse(text);
  const fraction = m[3] ? `.${m[3].slice(0, 3).padEnd(3, '0')}` : '';
  const zone = !m[4] || m[4].toUpperCase() === 'Z' ? 'Z' : m[4].includes(':') ? m[4] : `${m[4].slice(0, 3)}:${m[4].slice(3)}`;
  return Date.parse(`${m[1]}T${m[2]}${fraction}${zone}`);
}
