import { describe, expect, it } from 'vitest';
import { getNumberFormatter, getTimeFormatter } from './format';

describe('number and time formats (d3 strings, Superset ids)', () => {
  it('adaptive numbers: SI for large (B for billions), two decimals at most for the rest', () => {
    const f = getNumberFormatter();
    expect(f(0)).toBe('0');
    expect(f(12345.432)).toBe('12.3k');
    expect(f(1_500_000_000)).toBe('1.5B');
    expect(f(12.3456)).toBe('12.35');
    expect(f(0.012345)).toBe('0.0123');
    expect(f(null)).toBe('N/A');
  });

  it('d3-format strings and durations', () => {
    expect(getNumberFormatter(',d')(12345.432)).toBe('12,345');
    expect(getNumberFormatter('.2%')(0.1234)).toBe('12.34%');
    expect(getNumberFormatter('$,.2f')(12345.432)).toBe('$12,345.43');
    expect(getNumberFormatter('DURATION')(66000)).toBe('1m 6s');
  });

  it('adaptive dates pick the coarsest exact unit; d3-time-format strings in UTC', () => {
    const f = getTimeFormatter();
    expect(f(Date.UTC(2019, 0, 1))).toBe('2019');
    expect(f(Date.UTC(2019, 4, 1))).toBe('May');
    expect(f(Date.UTC(2019, 0, 14, 1, 32))).toBe('01:32');
    expect(getTimeFormatter('%Y-%m-%d')(Date.UTC(2019, 0, 14))).toBe('2019-01-14');
    expect(getTimeFormatter('%Y-%m-%d')('2019-01-14T00:00:00Z')).toBe('2019-01-14');
    expect(f(null)).toBe('N/A');
  });
});
