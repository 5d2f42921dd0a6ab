import {
  AN_ERROR_OCCURRED,
  ErrorTypeEnum,
  INVALID_INPUT,
  ISSUE_1000,
  ISSUE_1001,
  NETWORK_ERROR,
  NO_DESCRIPTION_SEE_STACK,
  NO_PERMISSION_TO_EDIT,
  REQUEST_TIMED_OUT,
  SAVE_ERROR,
  SESSION_TIMED_OUT,
  UNEXPECTED_ERROR_PREFIX,
  UNKNOWN_ERROR,
  UNKNOWN_ERROR_OCCURRED_DOT,
  fmt,
  type SupersetError,
} from '../messages';
import { HTTP_STATUS_TEXT, statusTextOrNull } from './http-status';

/** What every error display reads: always an `error` text, sometimes Superset's structured errors. */
export interface ClientErrorObject {
  error: string;
  errors?: SupersetError[];
  link?: string;
  message?: unknown;
  statusText?: string;
  status?: number;
  stacktrace?: string;
  [key: string]: unknown;
}

/** A request that the client gave up on after `timeout` milliseconds. */
export interface TimeoutError {
  statusText: 'timeout';
  timeout: number;
}

/** Summary of an HTTP response whose body has already been read (as JSON or as text). */
export interface ResponseSummary {
  status?: number;
  statusText?: string;
  url?: string;
  /** Parsed JSON body when the body was JSON. */
  json?: unknown;
  /** The raw body (with a JSON body too: a CSRF refusal is told by its text, as Superset's responseText). */
  text?: string;
}

/** Everything `normaliseError` accepts. */
export type ErrorInput =
  | string
  | Error
  | TimeoutError
  | ResponseSummary
  | Record<string, unknown>
  | null
  | undefined;

function isJsonString(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

function isProbablyHtml(text: string): boolean {
  return /<[^>]+>/.test(text) && /<(html|body|head|!doctype|title|h1|p|div)\b/i.test(text);
}

/** An HTML error page is reduced to the status text it mentions, else 'Unknown error'; other text is kept. */
export function parseStringResponse(text: string): string {
  if (isJsonString(text) || !isProbablyHtml(text)) return text;
  for (const [code, message] of Object.entries(HTTP_STATUS_TEXT)) {
    if (new RegExp(`${code}|${message.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`, 'i').test(text)) return message;
  }
  return UNKNOWN_ERROR;
}

/** Prefers the status code's text over the response text. */
export function retrieveErrorMessage(text: string, status?: number): string {
  return (status !== undefined ? statusTextOrNull(status) : null) ?? parseStringResponse(text);
}

/**
 * Spec 01 §8 "Error normalisation" for a parsed JSON body: first entry of `errors` gives message and link;
 * else a `message` string, or the first value of a `message` object ('Invalid input' fallback); a `stack`
 * gives 'Unexpected error: ' plus the description; a `responseText` mentioning CSRF gives the session message.
 */
export function parseErrorJson(body: Record<string, unknown>): ClientErrorObject {
  let result: Record<string, unknown> = { ...body };
  const errors = Array.isArray(result.errors) ? (result.errors as SupersetError[]) : undefined;
  if (errors && errors.length > 0) {
    result.error = result.description = errors[0].message;
    const extra = errors[0].extra as { link?: string } | null | undefined;
    result.link = extra?.link;
  }
  if (!result.error && result.message) {
    const { message } = result;
    if (typeof message === 'object') {
      const first = Object.values(message as Record<string, unknown>)[0];
      const firstText = Array.isArray(first) ? first[0] : first;
      result.error = typeof firstText === 'string' && firstText ? firstText : INVALID_INPUT;
    } else if (typeof message === 'string') {
      result.error = isProbablyHtml(message) && !isJsonString(message)
        ? retrieveErrorMessage(message, typeof result.status === 'number' ? result.status : undefined)
        : message;
    }
  }
  if (result.stack) {
    const description = typeof result.description === 'string' && result.description ? result.description : NO_DESCRIPTION_SEE_STACK;
    result = { ...result, error: UNEXPECTED_ERROR_PREFIX + description, stacktrace: result.stack };
  } else if (typeof result.responseText === 'string' && result.responseText.includes('CSRF')) {
    result = { ...result, error: SESSION_TIMED_OUT };
  }
  return { ...result, error: typeof result.error === 'string' ? result.error : String(result.error ?? '') } as ClientErrorObject;
}

function isTimeout(input: object): input is TimeoutError {
  return 'timeout' in input && 'statusText' in input && (input as TimeoutError).statusText === 'timeout';
}

function isResponseSummary(input: object): input is ResponseSummary {
  return 'json' in input || 'text' in input;
}

/** The FRONTEND_TIMEOUT_ERROR entry, carrying the two issue hints and the timeout in seconds. */
export function timeoutError(timeoutMs: number): SupersetError {
  return {
    error_type: ErrorTypeEnum.FRONTEND_TIMEOUT_ERROR,
    level: 'error',
    message: REQUEST_TIMED_OUT,
    extra: {
      timeout: timeoutMs / 1000,
      issue_codes: [
        { code: 1000, message: ISSUE_1000 },
        { code: 1001, message: ISSUE_1001 },
      ],
    },
  };
}

/**
 * Turns whatever a failed call produced into `{ error, errors?, link?, statusText? }`, like Superset's
 * getClientErrorObject. Example: `normaliseError(new TypeError('Failed to fetch'))` → `{ error: 'Network error' }`.
 */
export function normaliseError(input: ErrorInput): ClientErrorObject {
  if (typeof input === 'string') return { error: parseStringResponse(input) };
  if (input === null || input === undefined) return { error: AN_ERROR_OCCURRED };
  if (input instanceof TypeError && input.message === 'Failed to fetch') return { error: NETWORK_ERROR };
  if (isTimeout(input)) {
    return { ...input, error: REQUEST_TIMED_OUT, errors: [timeoutError(input.timeout)] };
  }
  if (isResponseSummary(input)) {
    const { status, statusText, url } = input;
    const summary = { ...(status !== undefined && { status }), ...(statusText !== undefined && { statusText }), ...(url !== undefined && { url }) };
    if (input.json !== null && typeof input.json === 'object' && !Array.isArray(input.json)) {
      // The answer's text goes along as responseText: a CSRF refusal reads as the session timed out (spec 01 §8).
      return parseErrorJson({ ...(input.json as Record<string, unknown>), ...summary, ...(input.text !== undefined && { responseText: input.text }) });
    }
    const text = typeof input.json === 'string' ? input.json : (input.text ?? '');
    if (text) return { ...summary, error: retrieveErrorMessage(text, status) };
    const fallback = statusText || (status !== undefined ? statusTextOrNull(status) : null) || AN_ERROR_OCCURRED;
    return { ...summary, error: parseStringResponse(fallback) };
  }
  if (input instanceof Error) {
    if (input.stack && !input.message) return parseErrorJson({ stack: input.stack });
    return { error: input.message ? parseStringResponse(input.message) : AN_ERROR_OCCURRED };
  }
  const record = input as Record<string, unknown>;
  if ('errors' in record || 'message' in record || 'stack' in record || 'responseText' in record || 'error' in record) {
    const parsed = parseErrorJson(record);
    if (parsed.error) return parsed;
  }
  const fallback = (typeof record.statusText === 'string' && record.statusText) || (typeof record.message === 'string' && record.message);
  return { ...record, error: fallback ? parseStringResponse(fallback) : AN_ERROR_OCCURRED } as ClientErrorObject;
}

/** Entity words used by the save-failure messages. */
export type ErrorTextSource = 'dashboard' | 'chart' | 'query' | 'dataset' | 'database';

/**
 * Save-failure text of spec 01 §8: 'Sorry, there was an error saving this %s: %s', else 'Sorry, an unknown
 * error occurred.'; a 'Forbidden' message gives 'You do not have permission to edit this %s'.
 */
export function getErrorText(errorObject: ClientErrorObject, source: ErrorTextSource): string {
  let text = UNKNOWN_ERROR_OCCURRED_DOT;
  if (errorObject.error) text = fmt(SAVE_ERROR, source, errorObject.error);
  if (errorObject.message === 'Forbidden') text = fmt(NO_PERMISSION_TO_EDIT, source);
  return text;
}

/** Appends the normalised error to a lead message: 'lead:\nerror'. */
export function getClientErrorMessage(lead: string, clientError?: ClientErrorObject): string {
  const detail = (typeof clientError?.message === 'string' && clientError.message) || clientError?.error;
  return detail ? `${lead}:\n${detail}` : lead;
}
