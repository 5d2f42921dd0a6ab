import { describe, expect, it } from 'vitest';
import { evaluateDatetimeExpression, getSinceUntil, parseHumanDatetime, resolveTimeOffset, shiftRange, TimeRangeError } from './time-range';

// Fake clock: Friday 15 March 2024, 10:30:20 (naive wall clock).
const now = new Date('2024-03-15T10:30:20Z');
const d = (iso: string) => new Date(`${iso}Z`);
const range = (text: string) => {
  const { since, until } = getSinceUntil(text, { now });
  return [since?.toISOString().slice(0, 19) ?? null, until?.toISOString().slice(0, 19) ?? null];
};

describe('getSinceUntil: the ranges Superset writes', () => {
  it("'No filter' and empty have no bounds (spec 01 §9: time range defaults to 'No filter')", () => {
    expect(range('No filter')).toEqual([null, null]);
    expect(range('')).toEqual([null, null]);
    expect(getSinceUntil(undefined, { now })).toEqual({ since: null, until: null });
  });

  it("'Last day/week/month/quarter/year' end today at midnight", () => {
    expect(range('Last day')).toEqual(['2024-03-14T00:00:00', '2024-03-15T00:00:00']);
    expect(range('Last week')).toEqual(['2024-03-08T00:00:00', '2024-03-15T00:00:00']);
    expect(range('Last month')).toEqual(['2024-02-15T00:00:00', '2024-03-15T00:00:00']);
    expect(range('Last quarter')).toEqual(['2023-12-15T00:00:00', '2024-03-15T00:00:00']);
    expect(range('Last year')).toEqual(['2023-03-15T00:00:00', '2024-03-15T00:00:00']);
  });

  it("'Last 7 days' style counts back from today; sub-day units from now", () => {
    expect(range('Last 7 days')).toEqual(['2024-03-08T00:00:00', '2024-03-15T00:00:00']);
    expect(range('Last 2 months')).toEqual(['2024-01-15T00:00:00', '2024-03-15T00:00:00']);
    expect(range('Last 3 hours')).toEqual(['2024-03-15T07:30:20', '2024-03-15T10:30:20']);
    expect(range('Next 2 weeks')).toEqual(['2024-03-15T00:00:00', '2024-03-29T00:00:00']);
  });

  it('previous calendar week/month/quarter/year are whole calendar periods (weeks start on Monday)', () => {
    expect(range('previous calendar week')).toEqual(['2024-03-04T00:00:00', '2024-03-11T00:00:00']);
    expect(range('previous calendar month')).toEqual(['2024-02-01T00:00:00', '2024-03-01T00:00:00']);
    expect(range('previous calendar quarter')).toEqual(['2023-10-01T00:00:00', '2024-01-01T00:00:00']);
    expect(range('previous calendar year')).toEqual(['2023-01-01T00:00:00', '2024-01-01T00:00:00']);
  });

  it('Current day/week/month/quarter/year run from the period start to the next one', () => {
    expect(range('Current day')).toEqual(['2024-03-15T00:00:00', '2024-03-16T00:00:00']);
    expect(range('Current week')).toEqual(['2024-03-11T00:00:00', '2024-03-18T00:00:00']);
    expect(range('Current month')).toEqual(['2024-03-01T00:00:00', '2024-04-01T00:00:00']);
    expect(range('Current quarter')).toEqual(['2024-01-01T00:00:00', '2024-04-01T00:00:00']);
    expect(range('Current year')).toEqual(['2024-01-01T00:00:00', '2025-01-01T00:00:00']);
  });

  it("ISO 'start : end', with open sides", () => {
    expect(range('2020-01-01 : 2020-02-01')).toEqual(['2020-01-01T00:00:00', '2020-02-01T00:00:00']);
    expect(range('2020-01-01T12:00:00 : 2020-01-02 06:30:00')).toEqual(['2020-01-01T12:00:00', '2020-01-02T06:30:00']);
    expect(range('2020-01-01 : ')).toEqual(['2020-01-01T00:00:00', null]);
    expect(range(' : 2020-01-01')).toEqual([null, '2020-01-01T00:00:00']);
  });

  it('DATEADD / DATETIME / DATETRUNC / LASTDAY expressions and human words', () => {
    expect(range('DATEADD(DATETIME("now"), -7, day) : now')).toEqual(['2024-03-08T10:30:20', '2024-03-15T10:30:20']);
    expect(range("DATETIME('today') : DATEADD(DATETIME('today'), 1, day)")).toEqual(['2024-03-15T00:00:00', '2024-03-16T00:00:00']);
    expect(range("DATETRUNC(DATETIME('2024-02-29T13:00:00'), month) : LASTDAY(DATETIME('2024-02-10'), month)")).toEqual(['2024-02-01T00:00:00', '2024-02-29T00:00:00']);
    expect(range('7 days ago : today')).toEqual(['2024-03-08T00:00:00', '2024-03-15T00:00:00']);
    expect(range('start of this month : end of this month')).toEqual(['2024-03-01T00:00:00', '2024-03-31T00:00:00']);
    expect(range('first of this year : now')).toEqual(['2024-01-01T00:00:00', '2024-03-15T10:30:20']);
    expect(range('first week of this year')).toEqual(['2024-01-01T00:00:00', '2024-01-08T00:00:00']);
  });

  it('month arithmetic clamps to the end of the month like relativedelta', () => {
    expect(evaluateDatetimeExpression("DATEADD(DATETIME('2024-03-31'), -1, month)", now)).toEqual(d('2024-02-29T00:00:00'));
    expect(evaluateDatetimeExpression("DATEADD(DATETIME('2024-03-31'), 1, quarter)", now)).toEqual(d('2024-06-30T00:00:00'));
    expect(evaluateDatetimeExpression("DATEADD(DATETIME('today'), DATEDIFF(DATETIME('2024-03-10'), DATETIME('2024-03-15')), day)", now)).toEqual(d('2024-03-20T00:00:00'));
  });

  it('errors name the part that could not be read', () => {
    expect(() => getSinceUntil('2020-01-01 : next blursday', { now })).toThrow('Cannot parse time string [next blursday]');
    expect(() => getSinceUntil('DATEADD(DATETIME("now"), -7, fortnight) : now', { now })).toThrow('Cannot parse time string [DATEADD(DATETIME("now"), -7, fortnight)]');
    expect(() => getSinceUntil('7 days : now', { now })).toThrow('Time string is ambiguous. Please specify [7 days ago] or [7 days later].');
    expect(() => getSinceUntil('whenever', { now })).toThrow('Cannot parse time string [whenever]');
    expect(() => getSinceUntil('2020-02-30 : 2020-03-01', { now })).toThrow('Cannot parse time string [2020-02-30]');
    try {
      getSinceUntil('2021-01-01 : tomorrowish', { now });
    } catch (error) {
      expect(error).toBeInstanceOf(TimeRangeError);
      expect((error as TimeRangeError).part).toBe('tomorrowish');
    }
  });

  it("refuses a since after the until with 'From date cannot be larger than to date'", () => {
    expect(() => getSinceUntil('2021-01-01 : 2020-01-01', { now })).toThrow('From date cannot be larger than to date');
  });

  it('human datetimes: now keeps the time, days and larger give midnight', () => {
    expect(parseHumanDatetime('now', now)).toEqual(now);
    expect(parseHumanDatetime('yesterday', now)).toEqual(d('2024-03-14T00:00:00'));
    expect(parseHumanDatetime('1 year ago', now)).toEqual(d('2023-03-15T00:00:00'));
    expect(parseHumanDatetime('2 hours ago', now)).toEqual(d('2024-03-15T08:30:20'));
  });

  it('time offsets shift both bounds into the past', () => {
    const shifted = shiftRange({ since: d('2024-01-01T00:00:00'), until: d('2024-03-01T00:00:00') }, '1 year ago');
    expect(shifted).toEqual({ since: d('2023-01-01T00:00:00'), until: d('2023-03-01T00:00:00') });
    expect(shiftRange({ since: null, until: d('2024-03-01T00:00:00') }, '28 days ago').until).toEqual(d('2024-02-02T00:00:00'));
  });

  it("Superset's get_offset_custom_or_inherit: 'inherit' is the range's length in days, a custom date the days from it to the start", () => {
    const feb = { since: d('2024-02-01T00:00:00'), until: d('2024-04-01T00:00:00') };
    expect(resolveTimeOffset('inherit', feb)).toBe('60 days ago');
    expect(resolveTimeOffset('2024-01-02', feb)).toBe('30 days ago');
    // A date after the start shifts forward; whole days only, as Python's timedelta.days.
    expect(resolveTimeOffset('2024-02-11', { since: d('2024-02-01T12:00:00'), until: null })).toBe('10 days after');
    expect(resolveTimeOffset('1 year ago', feb)).toBe('1 year ago');
    // Not a date (Superset's strptime refuses it): as given, for the time delta's own error.
    expect(resolveTimeOffset('2024-02-30', feb)).toBe('2024-02-30');
  });
});
