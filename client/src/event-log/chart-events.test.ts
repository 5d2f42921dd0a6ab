import { normaliseError } from '@meridian/contracts/rules/error-normalisation';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../api';
import { chartLoadFailure } from './chart-events';

// spec 01 §4 'aborts are ignored; failed events are logged with error types': how a chart request failed, read from
// what the request threw, for its load_chart event.
describe('the error type of a failed chart load', () => {
  it('an abort (the query stopped or left) reads as aborted', () => {
    expect(chartLoadFailure(new DOMException('The user aborted a request.', 'AbortError'))).toMatchObject({ ok: false, aborted: true, timedOut: false });
  });

  it("a request past the chart timeout reads as timed out (Superset's statusText 'timeout')", () => {
    const timeout = new ApiError(0, normaliseError({ statusText: 'timeout', timeout: 60_000 }));
    expect(chartLoadFailure(timeout)).toMatchObject({ aborted: false, timedOut: true });
  });

  it("an error answer reads as its error's text", () => {
    const failed = new ApiError(400, normaliseError({ status: 400, statusText: 'BAD REQUEST', json: { errors: [{ message: 'Binder Error: no_such_column', error_type: 'GENERIC_DB_ENGINE_ERROR', level: 'error' }] } }));
    expect(chartLoadFailure(failed)).toEqual({ ok: false, aborted: false, timedOut: false, error: 'Binder Error: no_such_column' });
    expect(chartLoadFailure(new TypeError('Failed to fetch'))).toMatchObject({ aborted: false, timedOut: false, error: 'Failed to fetch' });
  });
});
