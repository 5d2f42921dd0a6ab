import { describe, expect, it } from 'vitest';
import { rangeTypeOf } from './TimeRangeControl';

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
