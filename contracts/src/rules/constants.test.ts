import { describe, it, expect } from 'vitest';
import {
  DEFAULT_EXPLORE_ROW_LIMIT,
  DEFAULT_ROW_LIMIT,
  DEFAULT_TIME_GRAIN,
  LOCALSTORAGE_MAX_QUERY_AGE_MS,
  QUERY_ID_LENGTH,
  ROW_LIMIT_CHOICES,
  SERIES_LIMIT_CHOICES,
  SORT_SERIES_TYPES,
  SQL_MAX_ROW_FALLBACK,
  TIME_GRAIN_CHOICES,
  asyncListenerRetryDelay,
  staggerRefreshInterval,
  undoHistoryLimit,
} from './constants';

describe('business constants (spec 01 §9, spec 02 §9)', () => {
  it("'Query id length: 11 characters'", () => {
    expect(QUERY_ID_LENGTH).toBe(11);
  });

  it("'Chart row limit default 10000; choices ...; fallback maximum 100000. Default explore row limit 1000'", () => {
    expect(DEFAULT_ROW_LIMIT).toBe(10000);
    expect(ROW_LIMIT_CHOICES).toEqual([10, 50, 100, 250, 500, 1000, 5000, 10000, 50000]);
    expect(SQL_MAX_ROW_FALLBACK).toBe(100000);
    expect(DEFAULT_EXPLORE_ROW_LIMIT).toBe(1000);
    expect(SERIES_LIMIT_CHOICES).toEqual([5, 10, 25, 50, 100, 500]);
  });

  it("'Time grain choices: all, 5 seconds, ... 1 day (default), 7 days, week, week starting Sunday, week ending Saturday, month, quarter, year'", () => {
    expect(TIME_GRAIN_CHOICES.map(([, label]) => label)).toEqual([
      'all', '5 seconds', '30 seconds', '1 minute', '5 minutes', '30 minutes', '1 hour', '6 hour', '1 day', '7 days',
      'week', 'week starting Sunday', 'week ending Saturday', 'month', 'quarter', 'year',
    ]);
    expect(DEFAULT_TIME_GRAIN).toBe('P1D');
    expect(TIME_GRAIN_CHOICES.find(([, label]) => label === 'week starting Sunday')?.[0]).toBe('1969-12-28T00:00:00Z/P1W');
  });

  it("'Sort series types: name, sum, min, max, avg'", () => {
    expect(SORT_SERIES_TYPES).toEqual(['name', 'sum', 'min', 'max', 'avg']);
  });

  it("'older than one day (864e5 ms)'", () => {
    expect(LOCALSTORAGE_MAX_QUERY_AGE_MS).toBe(24 * 60 * 60 * 1000);
  });

  it("'Undo history: the configured maximum plus 2'", () => {
    expect(undoHistoryLimit(50)).toBe(52);
  });

  it("'retried up to 6 times at 100 ms multiples'", () => {
    expect([1, 2, 6].map(asyncListenerRetryDelay)).toEqual([100, 200, 600]);
  });

  it("'The interval is the larger of the refresh interval and stagger_time (default 5000 ms), divided across charts'", () => {
    expect(staggerRefreshInterval(10000, 4)).toBe(2500);
    expect(staggerRefreshInterval(1000, 4)).toBe(1250);
  });
});
