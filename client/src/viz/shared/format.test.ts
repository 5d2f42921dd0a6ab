import { describe, expect, it } from 'vitest';
import { getCurrencySymbol, getNumberFormatter, getTimeFormatter, getValueFormatter } from './format';

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

  describe("currency format (Superset's CurrencyFormatter: `${symbol} ${value}` for a prefix, `${value} ${symbol}` otherwise)", () => {
    it('places the en-US symbol of the ISO code before or after the number, with a space', () => {
      expect(getValueFormatter(',.2f', { symbol: 'USD', symbolPosition: 'prefix' })(1234.5)).toBe('$ 1,234.50');
      expect(getValueFormatter(',.2f', { symbol: 'USD', symbolPosition: 'suffix' })(1234.5)).toBe('1,234.50 $');
      expect(getValueFormatter(',.2f', { symbol: 'EUR', symbolPosition: 'suffix' })(-3)).toBe('−3.00 €');
    });

    it('without a position the symbol goes after (only "prefix" puts it first)', () => {
      expect(getValueFormatter(',d', { symbol: 'GBP' })(1000)).toBe('1,000 £');
    });

    it('no format means the adaptive one (SMART_NUMBER) with the symbol', () => {
      expect(getValueFormatter(undefined, { symbol: 'USD', symbolPosition: 'prefix' })(12345.432)).toBe('$ 12.3k');
      expect(getValueFormatter('SMART_NUMBER', { symbol: 'JPY', symbolPosition: 'prefix' })(1_500_000_000)).toBe('¥ 1.5B');
    });

    it("drops the format's own '$' and '%' so the symbol is not doubled", () => {
      expect(getValueFormatter('$,.2f', { symbol: 'EUR', symbolPosition: 'prefix' })(12345.432)).toBe('€ 12,345.43');
      expect(getValueFormatter(',.1%', { symbol: 'USD', symbolPosition: 'prefix' })(0.5)).toBe('$ 0.5');
    });

    it('an empty or missing symbol is the number format alone, $ and % kept', () => {
      expect(getValueFormatter('$,.2f', {})(12345.432)).toBe('$12,345.43');
      expect(getValueFormatter('.2%', { symbolPosition: 'prefix' })(0.1234)).toBe('12.34%');
      expect(getValueFormatter(',d', undefined)(12345.4)).toBe('12,345');
    });

    it("Superset 5's 'AUTO' with no currency code column detected reads as the number format alone, not 'AUTO 5'", () => {
      expect(getValueFormatter(',d', { symbol: 'AUTO', symbolPosition: 'prefix' })(1234)).toBe('1,234');
    });

    it('reads a format stored as a JSON string; N/A gets no symbol', () => {
      expect(getValueFormatter(',d', '{"symbol":"USD","symbolPosition":"prefix"}')(5)).toBe('$ 5');
      expect(getValueFormatter(',d', { symbol: 'USD', symbolPosition: 'prefix' })(null)).toBe('N/A');
    });

    it('symbols are Intl en-US ones; a code Intl refuses shows as written', () => {
      expect(getCurrencySymbol('CAD')).toBe('CA$');
      expect(getCurrencySymbol('INR')).toBe('₹');
      expect(getCurrencySymbol('CHF')).toBe('CHF');
      expect(getCurrencySymbol('dollars')).toBe('dollars');
    });
  });
});
