import { describe, expect, it } from 'vitest';
import { rangeTypeOf, shifted } from './TimeRangeControl';

describe('the time range popover opens on the tab of the stored range', () => {
  it("'No filter' for none, the Last and Previous choices on their tabs", () => {
    expect(rangeTypeOf('')).toBe('No filter');
    expect(rangeTypeOf('No filter')).toBe('No filter');
    expect(rangeTypeOf('Last week')).toBe('Last');
    expect(rangeTypeOf('Last quarter')).toBe('Last');
    expect(rangeTypeOf('previous calendar month')).toBe('Previous');
  });

  it('two dates, with or without a time, are a Range; anything else is Advanced', () => {
    expect(rangeTypeOf('2014-01-01 : 2015-01-01')).toBe('Range');
    expect(rangeTypeOf('2014-01-01T00:00:00 : 2015-01-01T12:30:00')).toBe('Range');
    expect(rangeTypeOf('Last 3 days')).toBe('Advanced');
    expect(rangeTypeOf('DATEADD(DATETIME("today"), -7, day) : today')).toBe('Advanced');
    expect(rangeTypeOf('2014-01-01 : now')).toBe('Advanced');
  });
});

describe("Superset's 'Actual range for comparison': the time range moved by the comparison's offset", () => {
  const range = { since: '2000-01-01T00:00:00', until: '2001-01-01T00:00:00' };
  it("a shift moves both ends; 'inherit' by the range's length in days, a custom start date to that date", () => {
    expect(shifted(range, '1 year ago')).toEqual({ since: '1999-01-01T00:00:00', until: '2000-01-01T00:00:00' });
    expect(shifted(range, 'inherit')).toEqual({ since: '1998-12-31T00:00:00', until: '2000-01-01T00:00:00' });
    expect(shifted(range, '1999-01-01')).toEqual({ since: '1999-01-01T00:00:00', until: '2000-01-02T00:00:00' });
    // An open end stays open; text that is no time delta gives no label.
    expect(shifted({ since: '', until: range.until }, '1 week ago')).toEqual({ since: '', until: '2000-12-25T00:00:00' });
    expect(shifted(range, 'sometime')).toBeNull();
  });
});
