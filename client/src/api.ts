import { normaliseError, type ClientErrorObject } from '@meridian/contracts/rules/error-normalisation';
import { isSafeNumber, LosslessNumber, parse as parseLossless } from 'lossless-json';
import rison from 'rison';
import { takePageCsrfToken } from './page-data';

let csrfToken: Promise<string | null> | null = null;

/** Paths called without a session (the server's CSRF_EXEMPT set), so no CSRF token is fetched for them. */
const SIGN_IN_PATHS = new Set(['/login/', '/api/v1/security/login', '/api/v1/security/refresh']);

/** The session's CSRF token, from the page or else fetched once from the server, kept in memory (never in storage). */
export function getCsrfToken(): Promise<string | null> {
  const fromPage = csrfToken ? null : takePageCsrfToken();
  if (fromPage) csrfToken = Promise.resolve(fromPage);
  csrfToken ??= fetch('/api/v1/security/csrf_token/', { credentials: 'same-origin', headers: { Accept: 'application/json' } })
    .then(async (res) => (res.ok ? ((await res.json()) as { result: string | null }).result : null))
    .catch(() => null)
    .then((token) => {
      if (!token) csrfToken = null;
      return token;
    });
  return csrfToken;
}

let guestToken: string | null = null;

/** An embedded dashboard's guest token: sent with every call (X-GuestToken) while set. */
export function setGuestToken(token: string | null): void {
  guestToken = token;
}

/** The guest token in use, if any (the event log's beacons carry it as a field). */
export function currentGuestToken(): string | null {
  return guestToken;
}

/** Forgets the CSRF token (after login or logout the session, and so the token, changes). */
export function resetCsrfToken(): void {
  csrfToken = null;
}

/** A failed call, carrying the normalised error of spec 01 §8 (`message` is the text to show verbatim). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly clientError: ClientErrorObject,
  ) {
    super(clientError.error);
    this.name = 'ApiError';
  }
}

/** Numbers that round-trip through a double become numbers; the rest (integers beyond 2^53...) stay exact `LosslessNumber`s. */
export const parseNumberLosslessly = (text: string): number | LosslessNumber => (isSafeNumber(text) ? Number(text) : new LosslessNumber(text));

/**
 * JSON number tokens a double might not hold: 16 or more digits (a double keeps any 15 significant
 * digits) or a 3-digit exponent (overflow, underflow). Only whole tokens count (after `:`, `[`, `,`
 * or a space, before `,`, `]`, `}` or a space), so a UUID's `1e3146602` is not one; such text
 * inside a string still matches, which only costs the slower parser.
 */
const LONG_NUMBER = /(?<=^|[:,[\s])-?(?:\d[\d.]{15,}(?:[eE][+-]?\d+)?|\d(?:\.\d+)?[eE][+-]?\d{3,})(?=$|[,\]}\s])/g;

/** The first number token of JSON `text` that a double would not hold exactly (it needs lossless parsing), or null. */
export function unsafeNumberIn(text: string): string | null {
  for (const [token] of text.matchAll(LONG_NUMBER)) if (!isSafeNumber(token)) return token;
  return null;
}

/**
 * JSON with every number exact, as lossless-json with {@link parseNumberLosslessly} gives it. That
 * parser is ~7x slower than JSON.parse (~500 ms for a 100k-row SQL Lab answer), so it runs only
 * when some number token is not safe; otherwise JSON.parse gives the same values.
 */
export function parseJsonLosslessly(text: string): unknown {
  return unsafeNumberIn(text) === null ? JSON.parse(text) : parseLossless(text, null, parseNumberLosslessly);
}

export interface ApiOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** JSON body; sent with Content-Type application/json. */
  body?: unknown;
  /** A multipart body (file uploads); the browser sets its Content-Type. */
  form?: FormData;
  /** Query string values; `q` objects are rison-encoded as Superset expects. */
  query?: Record<string, unknown>;
  /** Parse numbers without loss (result sets): those a double cannot hold exactly arrive as `LosslessNumber`s. */
  lossless?: boolean;
  signal?: AbortSignal;
  /** Gives up after this long with the "request timed out" error. */
  timeoutMs?: number;
  /** Lets the request outlive the page (fetch's keepalive): for a write that must reach the server when the user leaves. */
  keepalive?: boolean;
}

/** `GET /api/v1/chart/?q=(page:0)` style query strings. */
export function buildQuery(query: Record<string, unknown> = {}): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined) continue;
    params.set(key, key === 'q' && typeof value === 'object' ? rison.encode(value) : String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

/**
 * Calls a REST path of the server with the session cookie and, on mutating calls, the CSRF header.
 * A non-2xx answer, a timeout or a network failure throws an `ApiError` whose message follows the error-normalisation
 * rules (status 0 when no answer came); an abort through `signal` rejects with the fetch's own AbortError.
 */
export async function api<T = unknown>(path: string, opts: ApiOptions = {}): Promise<T> {
  const method = opts.method ?? 'GET';
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (opts.body !== undefined && !opts.form) headers['Content-Type'] = 'application/json';
  // Sign-in paths are CSRF-exempt on the server and come before any session: asking for a token there only earns a 401.
  if (guestToken) headers['X-GuestToken'] = guestToken;
  else if (method !== 'GET' && !SIGN_IN_PATHS.has(path)) {
    const token = await getCsrfToken();
    if (token) headers['X-CSRFToken'] = token;
  }
  const signals = [opts.signal, opts.timeoutMs ? AbortSignal.timeout(opts.timeoutMs) : undefined].filter((s): s is AbortSignal => !!s);
  let res: Response;
  try {
    res = await fetch(path + buildQuery(opts.query), {
      method,
      headers,
      credentials: 'same-origin',
      body: opts.form ?? (opts.body === undefined ? undefined : JSON.stringify(opts.body)),
      signal: signals.length > 1 ? AbortSignal.any(signals) : signals[0],
      ...(opts.keepalive ? { keepalive: true } : {}),
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'TimeoutError') throw new ApiError(0, normaliseError({ statusText: 'timeout', timeout: opts.timeoutMs ?? 0 }));
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    // fetch rejects only when no answer came: a network failure, whatever the browser's wording.
    throw new ApiError(0, normaliseError(new TypeError('Failed to fetch')));
  }
  const text = await res.text();
  const isJson = (res.headers.get('content-type') ?? '').includes('json');
  let json: unknown;
  if (isJson && text) {
    try {
      json = opts.lossless ? parseJsonLosslessly(text) : JSON.parse(text);
    } catch {
      json = undefined;
    }
  }
  if (!res.ok) {
    // A stale CSRF token (server restarted, new session) is fetched again on the next call.
    if (res.status === 400 && text.includes('CSRF')) resetCsrfToken();
    throw new ApiError(res.status, normaliseError({ status: res.status, statusText: res.statusText, ...(json !== undefined && { json }), text }));
  }
  return (json ?? text) as T;
}

/**
 * Downloads a GET answer by following a plain link, so the browser streams it to disk instead of holding it in
 * memory (cookie auth; a GET needs no CSRF header). The server's Content-Disposition names the file.
 */
export function downloadByLink(path: string, query?: Record<string, unknown>): void {
  const link = document.createElement('a');
  link.href = path + buildQuery(query);
  // An empty download attribute keeps the page even if the server answers an error instead of the file.
  link.download = '';
  document.body.append(link);
  link.click();
  link.remove();
}

/** Saves a REST answer as a file (CSV exports and the like), keeping the server's file name. */
export async function download(path: string, query?: Record<string, unknown>): Promise<void> {
  const res = await fetch(path + buildQuery(query), { credentials: 'same-origin' });
  if (!res.ok) {
    const text = await res.text();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    throw new ApiError(res.status, normaliseError(json !== undefined ? { status: res.status, json } : { status: res.status, text }));
  }
  const name = /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? 'download';
  const url = URL.createObjectURL(await res.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = decodeURIComponent(name);
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
