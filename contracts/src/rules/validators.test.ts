import { describe, it, expect } from 'vitest';
import {
  validateAggControlValues,
  applyIncludeTime,
  buildDatasourceKey,
  cleanSelectControlValue,
  formatChoicesForComparison,
  formatForComparison,
  isMetricExpression,
  simpleMetricOfSql,
  simpleMetricSql,
  parseDatasourceKey,
  parseFilterKey,
  parseOrderby,
  resolveColorScheme,
  runValidators,
  validateInteger,
  validateMaxValue,
  validateNonEmpty,
  validateRollingOptions,
  validateRowLimit,
} from './validators';

describe('validators (spec 01 §5)', () => {
  it("'Integer check fails with is expected to be an integer (empty passes; non-numeric or non-whole fails)'", () => {
    expect(validateInteger('')).toBe(false);
    expect(validateInteger(null)).toBe(false);
    expect(validateInteger('12')).toBe(false);
    expect(validateInteger(12)).toBe(false);
    expect(validateInteger('abc')).toBe('is expected to be an integer');
    expect(validateInteger('1.5')).toBe('is expected to be an integer');
  });

  it("'Maximum check fails with Value cannot exceed %s when the number is greater than the bound'", () => {
    expect(validateMaxValue(10, 10)).toBe(false);
    expect(validateMaxValue(11, 10)).toBe('Value cannot exceed 10');
  });

  it("'The row limit may not exceed the configured maximum SQL row limit (fallback 100000)'", () => {
    expect(validateRowLimit(100000)).toEqual([]);
    expect(validateRowLimit(100001)).toEqual(['Value cannot exceed 100000']);
    expect(validateRowLimit(600, 500)).toEqual(['Value cannot exceed 500']);
    expect(validateRowLimit('x')).toEqual(['is expected to be an integer']);
  });

  it("'Required check fails with cannot be empty for null, empty string or empty array'", () => {
    expect(validateNonEmpty(null)).toBe('cannot be empty');
    expect(validateNonEmpty('')).toBe('cannot be empty');
    expect(validateNonEmpty([])).toBe('cannot be empty');
    expect(validateNonEmpty(['m'])).toBe(false);
    expect(validateNonEmpty(0)).toBe(false);
    expect(runValidators('', [validateNonEmpty, validateInteger])).toEqual(['cannot be empty']);
  });

  it("'Order-by entries that are strings must be valid JSON, otherwise Found invalid orderby options'", () => {
    expect(parseOrderby(['["col1", true]', ['col2', false]])).toEqual([['col1', true], ['col2', false]]);
    expect(parseOrderby([])).toBeUndefined();
    expect(() => parseOrderby(['not json'])).toThrow('Found invalid orderby options');
  });

  it("'Metric-expression pattern: optional LONG, DOUBLE or FLOAT prefix, then SUM, AVG, MAX, MIN or COUNT with a parenthesised name'", () => {
    expect(isMetricExpression('SUM(num)')).toBe(true);
    expect(isMetricExpression('LONGSUM(num)')).toBe(true);
    expect(isMetricExpression('count(*)')).toBe(false);
    expect(isMetricExpression('doubleMax(a.b)')).toBe(true);
    expect(isMetricExpression('MEDIAN(num)')).toBe(false);
  });

  it('carries a metric between the Simple and Custom SQL tabs: AGG(column) both ways, a plain metric expression read back', () => {
    expect(simpleMetricSql('SUM', 'num')).toBe('SUM(num)');
    expect(simpleMetricSql('COUNT_DISTINCT', 'name')).toBe('COUNT(DISTINCT name)');
    expect(simpleMetricOfSql(' sum(num) ')).toEqual({ aggregate: 'SUM', column: 'num' });
    expect(simpleMetricOfSql('LONGMAX("num_boys")')).toEqual({ aggregate: 'MAX', column: 'num_boys' });
    expect(simpleMetricOfSql('SUM(num) / COUNT(*)')).toBeNull();
    expect(simpleMetricOfSql('COUNT(*)')).toBeNull();
    expect(simpleMetricOfSql('SUM()')).toBeNull();
  });

  it("'The datasource key is the id and the type joined by a double underscore'", () => {
    expect(buildDatasourceKey({ id: 3, type: 'table' })).toBe('3__table');
    expect(parseDatasourceKey('12__saved_query')).toEqual({ id: 12, type: 'saved_query' });
    expect(parseDatasourceKey('5__sl_table')).toEqual({ id: 5, type: 'sl_table' });
  });

  it("'Datasource key parsing: an invalid key fails with Cannot parse invalid filter key'", () => {
    for (const key of ['table__3', '3_table', '3__druid', '', 'x__table']) {
      expect(() => parseDatasourceKey(key)).toThrow('Cannot parse invalid filter key');
    }
    expect(parseFilterKey('12_country')).toEqual({ chartId: 12, column: 'country' });
    expect(() => parseFilterKey('country')).toThrow('Cannot parse invalid filter key');
  });

  it("'multi keeps only allowed values; single resets to null'", () => {
    const choices = [['a', 'A'], ['b', 'B']] as const;
    expect(cleanSelectControlValue({ multi: true, choices }, ['a', 'z', 'b'])).toEqual(['a', 'b']);
    expect(cleanSelectControlValue({ choices }, 'z')).toBeNull();
    expect(cleanSelectControlValue({ choices }, 'a')).toBe('a');
    expect(cleanSelectControlValue({ freeForm: true, choices }, 'z')).toBe('z');
  });

  it("'Multi controls wrap a single value in a list'", () => {
    expect(cleanSelectControlValue({ multi: true, choices: ['a', 'b'] }, 'a')).toEqual(['a']);
    expect(cleanSelectControlValue({ multi: true, freeForm: true }, 'x')).toEqual(['x']);
  });

  it("'An unknown colour scheme is reset to the default scheme'", () => {
    expect(resolveColorScheme('bnbColors', ['supersetColors', 'bnbColors'], 'supersetColors')).toBe('bnbColors');
    expect(resolveColorScheme('gone', ['supersetColors'], 'supersetColors')).toBe('supersetColors');
    expect(resolveColorScheme(undefined, ['supersetColors'], 'supersetColors')).toBe('supersetColors');
  });

  it("'When include_time is set with a time column that is not already in groupby, the column moves into groupby'", () => {
    expect(applyIncludeTime({ include_time: true, granularity_sqla: 'ds', groupby: ['country'] }).groupby).toEqual(['ds', 'country']);
    const already = { include_time: true, granularity_sqla: 'ds', groupby: ['ds'] };
    expect(applyIncludeTime(already)).toBe(already);
    const off = { include_time: false, granularity_sqla: 'ds', groupby: [] };
    expect(applyIncludeTime(off)).toBe(off);
  });

  it("'A percentage comparison forces a percent format'", () => {
    expect(formatForComparison('percentage', 'SMART_NUMBER')).toBe(',.1%');
    expect(formatForComparison('percentage', '.3%')).toBe('.3%');
    expect(formatForComparison('values', 'SMART_NUMBER')).toBe('SMART_NUMBER');
    const choices = [['SMART_NUMBER', 'Adaptive'], [',.1%', 'pct']] as const;
    expect(formatChoicesForComparison('percentage', choices)).toEqual([[',.1%', 'pct']]);
    expect(formatChoicesForComparison('ratio', choices)).toHaveLength(2);
  });

  it("'periods and min periods are integers'", () => {
    expect(validateRollingOptions({ rolling_periods: 7, min_periods: '2' })).toEqual([]);
    expect(validateRollingOptions({ rolling_periods: 1.5 })).toEqual(['is expected to be an integer']);
  });

  it("a table in aggregate mode: 'Group By, Metrics or Percentage Metrics must have a value'", () => {
    expect(validateAggControlValues([[], undefined, []])).toBe('Group By, Metrics or Percentage Metrics must have a value');
    expect(validateAggControlValues([['gender'], [], []])).toBe(false);
    expect(validateAggControlValues([[], [], ['sum__num']])).toBe(false);
  });
});
