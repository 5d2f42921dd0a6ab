import { describe, it, expect } from 'vitest';
import { getClientErrorMessage, getErrorText, normaliseError, parseErrorJson } from './error-normalisation';

describe('error normalisation (spec 01 §8)', () => {
  it("'If an errors list exists, its first entry gives message and link'", () => {
    const result = normaliseError({
      status: 403,
      json: {
        errors: [
          { message: 'No access', error_type: 'TABLE_SECURITY_ACCESS_ERROR', level: 'error', extra: { link: 'http://x' } },
          { message: 'second', error_type: 'GENERIC_DB_ENGINE_ERROR', level: 'error' },
        ],
      },
    });
    expect(result.error).toBe('No access');
    expect(result.link).toBe('http://x');
    expect(result.errors).toHaveLength(2);
    expect(result.status).toBe(403);
  });

  it("'else a message string'", () => {
    expect(parseErrorJson({ message: 'Bad thing' }).error).toBe('Bad thing');
  });

  it("'or the first value of a message object'", () => {
    expect(parseErrorJson({ message: { slice_name: ['Missing data for required field.'] } }).error).toBe(
      'Missing data for required field.',
    );
  });

  it("'Invalid input' fallback for an empty message object", () => {
    expect(parseErrorJson({ message: { field: [] } }).error).toBe('Invalid input');
  });

  it("'a stack gives Unexpected error: plus the description'", () => {
    expect(parseErrorJson({ stack: 'at x', description: 'boom' })).toMatchObject({
      error: 'Unexpected error: boom',
      stacktrace: 'at x',
    });
    expect(parseErrorJson({ stack: 'at x' }).error).toBe('Unexpected error: (no description, click to see stack trace)');
  });

  it("a JSON refusal whose text names CSRF reads as the session timed out, as any other call's would", () => {
    const refusal = { message: 'The CSRF token is missing or invalid.' };
    expect(normaliseError({ status: 400, json: refusal, text: JSON.stringify(refusal) }).error).toBe('Your session timed out, please refresh your page and try again.');
    expect(normaliseError({ status: 400, json: { message: 'Bad name' }, text: '{"message":"Bad name"}' }).error).toBe('Bad name');
  });

  it("'response text containing CSRF gives the session timed out message'", () => {
    expect(parseErrorJson({ responseText: 'The CSRF token is missing' }).error).toBe(
      'Your session timed out, please refresh your page and try again.',
    );
  });

  it("'Failed fetch gives Network error'", () => {
    expect(normaliseError(new TypeError('Failed to fetch'))).toEqual({ error: 'Network error' });
  });

  it("'a timeout gives Request timed out with a FRONTEND_TIMEOUT_ERROR carrying hints Issue 1000 and Issue 1001'", () => {
    const result = normaliseError({ statusText: 'timeout', timeout: 60000 });
    expect(result.error).toBe('Request timed out');
    expect(result.errors?.[0]).toMatchObject({
      error_type: 'FRONTEND_TIMEOUT_ERROR',
      level: 'error',
      extra: {
        timeout: 60,
        issue_codes: [
          { code: 1000, message: 'Issue 1000 - The dataset is too large to query.' },
          { code: 1001, message: 'Issue 1001 - The database is under an unusual load.' },
        ],
      },
    });
  });

  it("'an empty error gives An error occurred'", () => {
    expect(normaliseError(undefined).error).toBe('An error occurred');
    expect(normaliseError({}).error).toBe('An error occurred');
  });

  it('reduces an HTML error page to its status text', () => {
    expect(normaliseError({ status: 502, text: '<html><body><h1>502 Bad Gateway</h1></body></html>' })).toMatchObject({
      error: 'Bad gateway',
      status: 502,
    });
    expect(normaliseError('<html><body><p>something odd</p></body></html>').error).toBe('Unknown error');
  });

  it('keeps plain text bodies and falls back to the status text', () => {
    expect(normaliseError('plain failure').error).toBe('plain failure');
    expect(normaliseError({ status: 500, statusText: 'INTERNAL SERVER ERROR', text: '' }).error).toBe('INTERNAL SERVER ERROR');
  });

  it("save failure reads 'Sorry, there was an error saving this %s: %s'", () => {
    expect(getErrorText({ error: 'boom' }, 'chart')).toBe('Sorry, there was an error saving this chart: boom');
    expect(getErrorText({ error: '' }, 'chart')).toBe('Sorry, an unknown error occurred.');
  });

  it("'A Forbidden response when saving yields You do not have permission to edit this %s'", () => {
    expect(getErrorText(parseErrorJson({ message: 'Forbidden' }), 'dashboard')).toBe(
      'You do not have permission to edit this dashboard',
    );
  });

  it('appends the error to a lead message', () => {
    expect(getClientErrorMessage('Failed', { error: 'x' })).toBe('Failed:\nx');
    expect(getClientErrorMessage('Failed')).toBe('Failed');
  });
});
