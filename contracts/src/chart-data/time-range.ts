/**
 * Time ranges as Superset writes them ('No filter', 'Last week', 'previous calendar month',
 * 'Current year', 'Last 7 days', '2020-01-01 : 2020-02-01', `DATEADD(DATETIME("now"), -7, day) : now`),
 * turned into a since/until pair. Pure: the clock is a parameter.
 *
 * Times are naive wall-clock times (like Superset's): a `Date` whose UTC fields hold the wall
 * clock. `now` is read the same way, so a fake clock `new Date('2024-03-15T10:30:00Z')` means
 * "10:30 on 15 March 2024".
 */

export const NO_TIME_RANGE = 'No filter';
const SEPARATOR = ' : ';

/** A time string or expression that cannot be parsed; `part` is the offending text. */
export class TimeRangeError extends Error {
  constructor(
    message: string,
    readonly part: string,
  ) {
    super(message);
    this.name = 'TimeRangeError';
  }
}

/** Superset's TimeRangeParseFailError text. */
export const timeRangeParseFail = (part: string) => new TimeRangeError(`Cannot parse time string [${part}]`, part);
/** Superset's TimeRangeAmbiguousError text. */
export const timeRangeAmbiguous = (part: string) =>
  new TimeRangeError(`Time string is ambiguous. Please specify [${part} ago] or [${part} later].`, part);
export const FROM_AFTER_TO = 'From date cannot be larger than to date';

export interface TimeRangeOptions {
  /** The clock. */
  now: Date;
  /** Base of the relative 'Last ...' ranges' open end (Superset's DEFAULT_RELATIVE_END_TIME, 'today'). */
  relativeStart?: string | null;
  relativeEnd?: string | null;
}

export interface SinceUntil {
  since: Date | null;
  until: Date | null;
}

export type TimeUnit = 'second' | 'minute' | 'hour' | 'day' | 'week' | 'month' | 'quarter' | 'year';
const UNITS: readonly TimeUnit[] = ['second', 'minute', 'hour', 'day', 'week', 'month', 'quarter', 'year'];
const UNIT_PATTERN = '(second|minute|hour|day|week|month|quarter|year)';

// ---------------------------------------------------------------- date arithmetic (UTC fields = wall clock)

const DAY_MS = 86_400_000;

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
}

/** Adds `n` units like dateutil's relativedelta: months and years clamp the day to the month's end. */
export function addUnits(date: Date, n: number, unit: TimeUnit): Date {
  switch (unit) {
    case 'second':
      return new Date(date.getTime() + n * 1000);
    case 'minute':
      return new Date(date.getTime() + n * 60_000);
    case 'hour':
      return new Date(date.getTime() + n * 3_600_000);
    case 'day':
      return new Date(date.getTime() + n * DAY_MS);
    case 'week':
      return new Date(date.getTime() + n * 7 * DAY_MS);
    case 'month':
    case 'quarter':
    case 'year': {
      const months = unit === 'month' ? n : unit === 'quarter' ? n * 3 : n * 12;
      const total = date.getUTCFullYear() * 12 + date.getUTCMonth() + months;
      const year = Math.floor(total / 12);
      const month = total - year * 12;
      const day = Math.min(date.getUTCDate(), daysInMonth(year, month));
      return new Date(Date.UTC(year, month, day, date.getUTCHours(), date.getUTCMinutes(), date.getUTCSeconds(), date.getUTCMilliseconds()));
    }
  }
}

/** Start of the unit containing `date` (weeks start on Monday, as Superset's DATETRUNC). */
export function truncate(date: Date, unit: TimeUnit): Date {
  const y = date.getUTCFullYear();
  const m = date.getUTCMonth();
  const d = date.getUTCDate();
  switch (unit) {
    case 'year':
      return new Date(Date.UTC(y, 0, 1));
    case 'quarter':
      return new Date(Date.UTC(y, m - (m % 3), 1));
    case 'month':
      return new Date(Date.UTC(y, m, 1));
    case 'week': {
      const weekday = (date.getUTCDay() + 6) % 7; // Monday = 0
      return new Date(Date.UTC(y, m, d - weekday));
    }
    case 'day':
      return new Date(Date.UTC(y, m, d));
    case 'hour':
      return new Date(Date.UTC(y, m, d, date.getUTCHours()));
    case 'minute':
      return new Date(Date.UTC(y, m, d, date.getUTCHours(), date.getUTCMinutes()));
    case 'second':
      return new Date(Date.UTC(y, m, d, date.getUTCHours(), date.getUTCMinutes(), date.getUTCSeconds()));
  }
}

/** Last day of the unit containing `date`, at midnight (Superset's LASTDAY). */
export function lastDay(date: Date, unit: TimeUnit): Date {
  const y = date.getUTCFullYear();
  const m = date.getUTCMonth();
  switch (unit) {
    case 'year':
      return new Date(Date.UTC(y, 11, 31));
    case 'quarter': {
      const last = m - (m % 3) + 2;
      return new Date(Date.UTC(y, last, daysInMonth(y, last)));
    }
    case 'month':
      return new Date(Date.UTC(y, m, daysInMonth(y, m)));
    case 'week':
      return new Date(truncate(date, 'week').getTime() + 6 * DAY_MS);
    case 'day':
      return truncate(date, 'day');
    default:
      throw timeRangeParseFail(`LASTDAY(..., ${unit})`);
  }
}

// ---------------------------------------------------------------- human date strings

const ISO_DATE = /^(\d{4})(?:-(\d{1,2})(?:-(\d{1,2}))?)?(?:[T ](\d{1,2}):(\d{2})(?::(\d{2})(?:\.(\d{1,6}))?)?)?\s*(Z|[+-]\d{2}:?\d{2})?$/i;

function parseIsoLike(text: string): Date | null {
  const m = ISO_DATE.exec(text.trim());
  if (!m) return null;
  const [, y, mo = '1', d = '1', h = '0', mi = '0', s = '0', frac = '0'] = m;
  const month = Number(mo) - 1;
  const day = Number(d);
  if (month < 0 || month > 11 || day < 1 || day > daysInMonth(Number(y), month) || Number(h) > 23 || Number(mi) > 59 || Number(s) > 59) {
    return null;
  }
  const ms = Math.round(Number(`0.${frac}`) * 1000);
  return new Date(Date.UTC(Number(y), month, day, Number(h), Number(mi), Number(s), ms));
}

const WORD_NUMBERS: Record<string, number> = { a: 1, an: 1, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, eleven: 11, twelve: 12 };

/**
 * A human date string as Superset's `parse_human_datetime` reads it: ISO dates and times, 'now',
 * 'today', 'yesterday', 'tomorrow', 'N units ago', 'N units later' / 'from now', 'in N units',
 * 'last/next/this unit'. A bare '7 days' is ambiguous and refused.
 */
export function parseHumanDatetime(text: string, now: Date): Date {
  const s = text.trim();
  const lower = s.toLowerCase();
  if (new RegExp(`^\\s*([0-9]+)\\s+${UNIT_PATTERN}s?\\s*$`, 'i').test(s)) throw timeRangeAmbiguous(s);
  const iso = parseIsoLike(s);
  if (iso) return iso;
  const today = truncate(now, 'day');
  if (lower === 'now') return new Date(now.getTime());
  if (lower === 'today') return today;
  if (lower === 'yesterday') return addUnits(today, -1, 'day');
  if (lower === 'tomorrow') return addUnits(today, 1, 'day');
  const count = `([0-9]+|${Object.keys(WORD_NUMBERS).join('|')})`;
  const relative = new RegExp(`^${count}\\s+${UNIT_PATTERN}s?\\s+(ago|later|after|from now|hence)$`, 'i').exec(lower);
  const ahead = new RegExp(`^in\\s+${count}\\s+${UNIT_PATTERN}s?$`, 'i').exec(lower);
  if (relative || ahead) {
    const [, n, unit, direction] = relative ?? [ahead![0], ahead![1], ahead![2], 'later'];
    const amount = /^[0-9]+$/.test(n) ? Number(n) : WORD_NUMBERS[n];
    const sign = direction === 'ago' ? -1 : 1;
    // Like parsedatetime: a shift in days or larger gives a date (midnight), smaller units keep the time.
    const base = ['second', 'minute', 'hour'].includes(unit) ? now : today;
    return addUnits(base, sign * amount, unit as TimeUnit);
  }
  const scoped = new RegExp(`^(last|next|this|prior)\\s+${UNIT_PATTERN}$`, 'i').exec(lower);
  if (scoped) {
    const [, scope, unit] = scoped;
    const base = ['second', 'minute', 'hour'].includes(unit) ? now : today;
    const shift = scope === 'this' ? 0 : scope === 'next' ? 1 : -1;
    return addUnits(base, shift, unit as TimeUnit);
  }
  throw timeRangeParseFail(s);
}

// ---------------------------------------------------------------- DATETIME / DATEADD / DATETRUNC / LASTDAY / DATEDIFF

type Token = { kind: 'ident' | 'string' | 'int' | 'punct'; text: string };

function tokenizeExpression(expr: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < expr.length) {
    const c = expr[i];
    if (/\s/.test(c)) {
      i++;
    } else if (c === '(' || c === ')' || c === ',') {
      tokens.push({ kind: 'punct', text: c });
      i++;
    } else if (c === "'" || c === '"') {
      const end = expr.indexOf(c, i + 1);
      if (end < 0) throw timeRangeParseFail(expr);
      tokens.push({ kind: 'string', text: expr.slice(i + 1, end) });
      i = end + 1;
    } else if (/[-+0-9]/.test(c)) {
      const m = /^[-+]?[0-9]+/.exec(expr.slice(i));
      if (!m) throw timeRangeParseFail(expr);
      tokens.push({ kind: 'int', text: m[0] });
      i += m[0].length;
    } else if (/[A-Za-z_]/.test(c)) {
      const m = /^[A-Za-z_]+/.exec(expr.slice(i))!;
      tokens.push({ kind: 'ident', text: m[0].toLowerCase() });
      i += m[0].length;
    } else {
      throw timeRangeParseFail(expr);
    }
  }
  return tokens;
}

/**
 * Evaluates Superset's datetime expression language: DATETIME('...'), DATEADD(expr, n, unit),
 * DATETRUNC(expr, unit), LASTDAY(expr, unit); DATEDIFF(a, b[, day|year]) gives an integer usable as n.
 *
 * @example evaluateDatetimeExpression("DATEADD(DATETIME('today'), -7, day)", now)
 */
export function evaluateDatetimeExpression(expr: string, now: Date): Date {
  const tokens = tokenizeExpression(expr);
  let pos = 0;
  const fail = (): never => {
    throw timeRangeParseFail(expr);
  };
  const expect = (text: string) => {
    if (tokens[pos]?.text !== text) fail();
    pos++;
  };
  const unit = (allowed: readonly TimeUnit[] = UNITS): TimeUnit => {
    const t = tokens[pos++];
    if (!t || t.kind !== 'ident' || !allowed.includes(t.text as TimeUnit)) fail();
    return t.text as TimeUnit;
  };
  const optionalComma = () => {
    if (tokens[pos]?.text === ',' && tokens[pos + 1]?.text === ')') pos++;
  };
  const integer = (): number => {
    const t = tokens[pos];
    if (t?.kind === 'int') {
      pos++;
      return Number(t.text);
    }
    if (t?.kind === 'ident' && t.text === 'datediff') return dateDiff();
    return fail();
  };
  const dateDiff = (): number => {
    pos++;
    expect('(');
    const from = date();
    expect(',');
    const to = date();
    let result = Math.floor((to.getTime() - from.getTime()) / DAY_MS);
    if (tokens[pos]?.text === ',' && tokens[pos + 1]?.kind === 'ident') {
      pos++;
      const u = unit(['day', 'year']);
      if (u === 'year') result = to.getUTCFullYear() - from.getUTCFullYear();
    }
    optionalComma();
    expect(')');
    return result;
  };
  const date = (): Date => {
    const t = tokens[pos++];
    if (!t || t.kind !== 'ident') return fail();
    expect('(');
    let value: Date;
    switch (t.text) {
      case 'datetime': {
        const s = tokens[pos++];
        if (s?.kind !== 'string') fail();
        value = parseHumanDatetime(s.text, now);
        break;
      }
      case 'dateadd': {
        const base = date();
        expect(',');
        const n = integer();
        expect(',');
        const u = unit();
        optionalComma();
        value = addUnits(base, n, u);
        break;
      }
      case 'datetrunc': {
        const base = date();
        expect(',');
        const u = unit();
        optionalComma();
        value = truncate(base, u);
        break;
      }
      case 'lastday': {
        const base = date();
        expect(',');
        const u = unit(['year', 'quarter', 'month', 'week', 'day']);
        optionalComma();
        value = lastDay(base, u);
        break;
      }
      default:
        return fail();
    }
    expect(')');
    return value;
  };
  const result = date();
  if (pos !== tokens.length) fail();
  return result;
}

// ---------------------------------------------------------------- time ranges

function relativeBase(unit: string, relativeStart?: string | null): string {
  if (relativeStart) return relativeStart;
  return ['second', 'minute', 'hour'].includes(unit.toLowerCase()) ? 'now' : 'today';
}

function scopeExpression(scope: string, delta: string | undefined, unit: string, base: string): string {
  const n = delta ? Number(delta) : 1;
  switch (scope.toLowerCase()) {
    case 'this':
      return `DATETIME('${base}')`;
    case 'last':
    case 'prior':
      return `DATEADD(DATETIME('${base}'), -${n}, ${unit})`;
    default:
      return `DATEADD(DATETIME('${base}'), ${n}, ${unit})`;
  }
}

const CALENDAR_RANGES: Record<string, string> = {
  'previous calendar week': "DATETRUNC(DATEADD(DATETIME('today'), -1, WEEK), WEEK) : DATETRUNC(DATETIME('today'), WEEK)",
  'previous calendar month': "DATETRUNC(DATEADD(DATETIME('today'), -1, MONTH), MONTH) : DATETRUNC(DATETIME('today'), MONTH)",
  'previous calendar quarter': "DATETRUNC(DATEADD(DATETIME('today'), -1, QUARTER), QUARTER) : DATETRUNC(DATETIME('today'), QUARTER)",
  'previous calendar year': "DATETRUNC(DATEADD(DATETIME('today'), -1, YEAR), YEAR) : DATETRUNC(DATETIME('today'), YEAR)",
  'Current day': "DATETRUNC(DATEADD(DATETIME('today'), 0, DAY), DAY) : DATETRUNC(DATEADD(DATETIME('today'), 1, DAY), DAY)",
  'Current week': "DATETRUNC(DATEADD(DATETIME('today'), 0, WEEK), WEEK) : DATETRUNC(DATEADD(DATETIME('today'), 1, WEEK), WEEK)",
  'Current month': "DATETRUNC(DATEADD(DATETIME('today'), 0, MONTH), MONTH) : DATETRUNC(DATEADD(DATETIME('today'), 1, MONTH), MONTH)",
  'Current quarter': "DATETRUNC(DATEADD(DATETIME('today'), 0, QUARTER), QUARTER) : DATETRUNC(DATEADD(DATETIME('today'), 1, QUARTER), QUARTER)",
  'Current year': "DATETRUNC(DATEADD(DATETIME('today'), 0, YEAR), YEAR) : DATETRUNC(DATEADD(DATETIME('today'), 1, YEAR), YEAR)",
};

/** One side of a 'since : until' range, rewritten to the expression language (Superset's time_range_lookup). */
function partToExpression(part: string, relativeStart?: string | null): string {
  const startEnd = new RegExp(`^(start of|beginning of|end of)\\s{1,5}(this|last|next|prior)\\s{1,5}([0-9]+)?\\s{0,5}(day|week|month|quarter|year)s?$`, 'i').exec(part);
  if (startEnd) {
    const [, modifier, scope, delta, unit] = startEnd;
    const base = scopeExpression(scope, delta, unit.toLowerCase(), relativeBase(unit, relativeStart));
    return modifier.toLowerCase() === 'end of' ? `LASTDAY(${base}, ${unit.toLowerCase()})` : `DATETRUNC(${base}, ${unit.toLowerCase()})`;
  }
  const firstOf = /^(first|1st)\s{1,5}(?:day\s{1,5})?of\s{1,5}(?:(this|last|next|prior)\s{1,5}|the\s{1,5})?(week|month|quarter|year)s?$/i.exec(part);
  if (firstOf) {
    const [, , scope = 'this', unit] = firstOf;
    return `DATETRUNC(${scopeExpression(scope, undefined, unit.toLowerCase(), relativeBase(unit, relativeStart))}, ${unit.toLowerCase()})`;
  }
  const scoped = new RegExp(`^(this|last|next|prior)\\s{1,5}([0-9]+)?\\s{0,5}${UNIT_PATTERN}s?$`, 'i').exec(part);
  if (scoped) {
    const [, scope, delta, unit] = scoped;
    return scopeExpression(scope, delta, unit.toLowerCase(), relativeBase(unit, relativeStart));
  }
  if (/^(DATETIME|DATEADD|DATETRUNC|LASTDAY|HOLIDAY)/i.test(part)) return part;
  return `DATETIME('${part.replaceAll("'", '')}')`;
}

function shorthandBound(timeRange: string): string {
  const m = new RegExp(`^(?:Last|Next)\\s{1,5}(?:[0-9]+\\s{0,5})?${UNIT_PATTERN}s?$`, 'i').exec(timeRange);
  return m ? relativeBase(m[1]) : 'today';
}

/**
 * Superset's `get_since_until`: the since/until pair of a time range. 'No filter' and empty give
 * nulls; 'Last X' ends today (now for sub-day units); an empty side of 'a : b' is open.
 * Throws {@link TimeRangeError} naming the part it could not read.
 *
 * @example getSinceUntil('Last week', { now }) // { since: today - 7 days, until: today }
 */
export function getSinceUntil(timeRange: string | null | undefined, opts: TimeRangeOptions): SinceUntil {
  let range = timeRange ?? '';
  if (!range.trim() || range.trim() === NO_TIME_RANGE) return { since: null, until: null };
  // An open side may lose its space around ' : ' (e.g. '2020-01-01 :'); put it back.
  range = range.replace(/ :$/, ' : ').replace(/^: /, ' : ');
  if (!range.includes(SEPARATOR)) range = range.trim();
  const hasSeparator = range.includes(SEPARATOR);
  if (!hasSeparator && /^Last/.test(range)) range = `${range}${SEPARATOR}${opts.relativeEnd || shorthandBound(range)}`;
  else if (!hasSeparator && /^Next/.test(range)) range = `${opts.relativeStart || shorthandBound(range)}${SEPARATOR}${range}`;
  else if (!hasSeparator) {
    const calendar = Object.keys(CALENDAR_RANGES).find((key) => range.startsWith(key));
    if (calendar) range = CALENDAR_RANGES[calendar];
    const nth = /^(first|1st)\s{1,5}(week|month|quarter)\s{1,5}of\s{1,5}(?:(this|last|next|prior)\s{1,5})?(?:the\s{1,5})?(week|month|quarter|year)$/i.exec(range);
    if (nth) {
      const [, , subunit, scope = 'this', unit] = nth;
      const start = `DATETRUNC(${scopeExpression(scope, undefined, unit.toLowerCase(), relativeBase(unit, opts.relativeStart))}, ${unit.toLowerCase()})`;
      range = `${start}${SEPARATOR}DATEADD(${start}, 1, ${subunit.toLowerCase()})`;
    }
  }
  // Anything else without ' : ' is not a range Superset writes; refuse it rather than guess.
  if (!range.includes(SEPARATOR)) throw timeRangeParseFail(range);
  const [sincePart, untilPart] = [range.slice(0, range.indexOf(SEPARATOR)).trim(), range.slice(range.indexOf(SEPARATOR) + SEPARATOR.length).trim()];
  const evaluate = (part: string): Date | null => {
    if (!part) return null;
    try {
      return evaluateDatetimeExpression(partToExpression(part, opts.relativeStart), opts.now);
    } catch (error) {
      if (error instanceof TimeRangeError && error.message.startsWith('Time string is ambiguous')) throw error;
      throw timeRangeParseFail(part);
    }
  };
  const since = evaluate(sincePart);
  const until = evaluate(untilPart);
  if (since && until && since > until) throw new TimeRangeError(FROM_AFTER_TO, range);
  return { since, until };
}

/**
 * Shifts a since/until pair into the past by a time offset such as '1 year ago', '28 days ago' or
 * '1 week ago' (Superset's time_shift / time_offsets); 'N unit later' shifts forward.
 */
export function shiftRange({ since, until }: SinceUntil, offset: string): SinceUntil {
  const delta = parseTimeDelta(offset);
  return { since: since && addUnits(since, delta.n, delta.unit), until: until && addUnits(until, delta.n, delta.unit) };
}

/**
 * The shift a time comparison's offset stands for, as Superset's get_offset_custom_or_inherit reads it: 'inherit' (the
 * table's 'Inherit range from time filter') is the time range's length in whole days; a date (YYYY-MM-DD, the 'Custom
 * date' start_date_offset) the whole days from it to the range's start, a later date shifting forward. Others are as given.
 */
export function resolveTimeOffset(offset: string, { since, until }: SinceUntil): string {
  const DAY = 86_400_000;
  const days = (from: Date, to: Date) => Math.floor((to.getTime() - from.getTime()) / DAY);
  const asDays = (n: number) => (n < 0 ? `${-n} days after` : `${n} days ago`);
  if (offset === 'inherit' && since && until) return asDays(days(since, until));
  const m = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(offset.trim());
  if (m && since) {
    const date = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
    if (date.getUTCMonth() === Number(m[2]) - 1) return asDays(days(date, since));
  }
  return offset;
}

/** 'N units ago' / 'N units later' / 'N units' (past) → a signed count of units. */
export function parseTimeDelta(offset: string): { n: number; unit: TimeUnit } {
  const m = new RegExp(`^\\s*(-?[0-9]+)\\s+${UNIT_PATTERN}s?(?:\\s+(ago|later|after))?\\s*$`, 'i').exec(offset);
  if (!m) throw new TimeRangeError(`Time delta is ambiguous. Please specify [${offset} ago] or [${offset} later].`, offset);
  const n = Math.abs(Number(m[1]));
  const later = m[3] && m[3].toLowerCase() !== 'ago';
  return { n: later ? n : -n, unit: m[2].toLowerCase() as TimeUnit };
}

/** A naive date as Superset prints it in responses: `2024-03-15T00:00:00`. */
export function formatNaive(date: Date | null): string | null {
  if (!date) return null;
  return date.toISOString().replace(/\.\d{3}Z$/, '').replace(/Z$/, '');
}
