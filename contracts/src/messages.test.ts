import { describe, it, expect } from 'vitest';
import * as messages from './messages';
import { ErrorTypeEnum, fmt, isErrorType } from './messages';

describe('messages', () => {
  it("fills '%s' in order: 'Chart [%s] was added to dashboard [%s]'", () => {
    expect(fmt(messages.CHART_ADDED_TO_DASHBOARD, 'Sales', 'Main')).toBe('Chart [Sales] was added to dashboard [Main]');
  });

  it("'Failed at stopping query. {id}'", () => {
    expect(fmt(messages.FAILED_STOPPING_QUERY, 'abc')).toBe('Failed at stopping query. abc');
  });

  it('leaves %s in place when an argument is missing', () => {
    expect(fmt('a %s b %s', 1)).toBe('a 1 b %s');
  });

  it('keeps catalogue strings verbatim (spec 01 §8, spec 02 §8)', () => {
    expect(messages.QUERY_STOPPED).toBe('Query was stopped.');
    expect(messages.SESSION_TIMED_OUT).toBe('Your session timed out, please refresh your page and try again.');
    expect(messages.UNTITLED_DASHBOARD).toBe('[ untitled dashboard ]');
    expect(fmt(messages.UNDO_SLOTS_USED, 50)).toBe(
      'You have used all 50 undo slots and will not be able to fully undo subsequent actions. You may save your current state to reset the history.',
    );
    expect(messages.STORE_QUERY_IN_BACKEND_FAILED).toContain('"Save Query" button.');
  });

  it('every exported message is a non-empty string', () => {
    for (const [name, value] of Object.entries(messages)) {
      if (typeof value === 'string') expect(value.length, name).toBeGreaterThan(0);
    }
  });

  it('error type codes are named as Superset names them (spec 01 §8 "Error type codes")', () => {
    for (const [key, value] of Object.entries(ErrorTypeEnum)) expect(value).toBe(key);
    expect(Object.keys(ErrorTypeEnum)).toHaveLength(49);
    expect(isErrorType('FRONTEND_TIMEOUT_ERROR')).toBe(true);
    expect(isErrorType('NOPE')).toBe(false);
  });
});
