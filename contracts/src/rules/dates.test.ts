import { describe, expect, it } from 'vitest';
import { humanizedDelta, naturalDelta, parseServerTime, pythonIsoformat, utcStamp } from './dates';

// Superset writes `changed_on` with Python's datetime.isoformat() of a naive datetime, `changed_on_utc`
// with strftime('%Y-%m-%dT%H:%M:%S.%f%z'), and `*_humanized` with humanize.naturaltime(now - value).
describe('pythonIsoformat', () => {
  it('writes a naive time with microseconds, as datetime.isoformat() does', () => {
    expect(pythonIsoformat(new Date('2024-01-02T03:04:05.123Z'))).toBe('2024-01-02T03:04:05.123000');
    expect(pythonIsoformat('2024-01-02T03:04:05.007Z')).toBe('2024-01-02T03:04:05.007000');
  });
  it('leaves the fraction out when it is zero, as isoformat() does', () => {
    expect(pythonIsoformat(new Date('2024-01-02T03:04:05Z'))).toBe('2024-01-02T03:04:05');
  });
  it('writes the UTC wall clock whatever the offset the time came with, and keeps null', () => {
    expect(pythonIsoformat('2024-01-02T05:04:05.5+02:00')).toBe('2024-01-02T03:04:05.500000');
    expect(pythonIsoformat(null)).toBeNull();
    expect(pythonIsoformat('not a time')).toBe('not a time');
  });
});

describe('utcStamp', () => {
  it("always has six fraction digits and '+0000'", () => {
    expect(utcStamp(new Date('2024-01-02T03:04:05Z'))).toBe('2024-01-02T03:04:05.000000+0000');
    expect(utcStamp(new Date('2024-12-31T23:59:59.999Z'))).toBe('2024-12-31T23:59:59.999000+0000');
  });
});

describe('naturalDelta and humanizedDelta (humanize.naturaltime)', () => {
  const s = 1000;
  const day = 86_400 * s;
  it.each([
    [0, 'a moment'],
    [999, 'a moment'],
    [1 * s, 'a second'],
    [59 * s, '59 seconds'],
    [60 * s, 'a minute'],
    [119 * s, 'a minute'],
    [120 * s, '2 minutes'],
    [3599 * s, '59 minutes'],
    [3600 * s, 'an hour'],
    [7200 * s, '2 hours'],
    [day - s, '23 hours'],
    [day, 'a day'],
    [2 * day, '2 days'],
    [30 * day, '30 days'],
    [31 * day, 'a month'],
    [61 * day, '2 months'],
    [364 * day, '11 months'],
    [365 * day, 'a year'],
    [366 * day, '1 year, 1 day'],
    [370 * day, '1 year, 5 days'],
    [365 * day + 31 * day, '1 year, 1 month'],
    [365 * day + 92 * day, '1 year, 3 months'],
    [730 * day, '2 years'],
  ])('%d ms reads %s', (ms, text) => {
    expect(naturalDelta(ms)).toBe(text);
  });
  it("says 'now' for under a second, 'ago' for the past and 'from now' for the future", () => {
    const now = Date.UTC(2024, 0, 10);
    expect(humanizedDelta(new Date(now - 400), now)).toBe('now');
    expect(humanizedDelta(new Date(now - 3 * day), now)).toBe('3 days ago');
    expect(humanizedDelta(new Date(now + 2 * 3600 * s), now)).toBe('2 hours from now');
    expect(humanizedDelta('2024-01-09T23:00:00', now)).toBe('an hour ago');
    expect(humanizedDelta(null, now)).toBe('');
  });
});

describe('parseServerTime', () => {
  it('reads a naive time as UTC, not as the browser’s local time', () => {
    expect(parseServerTime('2024-01-02T03:04:05.123456')).toBe(Date.UTC(2024, 0, 2, 3, 4, 5, 123));
    expect(parseServerTime('2024-01-02T03:04:05')).toBe(Date.UTC(2024, 0, 2, 3, 4, 5));
  });
  it("reads changed_on_utc's '+0000' and ISO's 'Z' and offsets", () => {
    expect(parseServerTime('2024-01-02T03:04:05.123456+0000')).toBe(Date.UTC(2024, 0, 2, 3, 4, 5, 123));
    expect(parseServerTime('2024-01-02T03:04:05.123Z')).toBe(Date.UTC(2024, 0, 2, 3, 4, 5, 123));
    expect(parseServerTime('2024-01-02T05:04:05+02:00')).toBe(Date.UTC(2024, 0, 2, 3, 4, 5));
  });
  it('round-trips what pythonIsoformat and utcStamp write, to the millisecond', () => {
    const at = new Date('2025-06-07T08:09:10.011Z');
    expect(parseServerTime(pythonIsoformat(at)!)).toBe(at.getTime());
    expect(parseServerTime(utcStamp(at)!)).toBe(at.getTime());
  });
  it('is NaN for text that is no time', () => {
    expect(parseServerTime('yesterday-ish')).toBeNaN();
  });
});
