/// <reference path="./rison.d.ts" />
import rison from 'rison';

/** How a URL parameter is read (spec 01 §2, spec 02 §2). */
export type UrlParamType = 'string' | 'number' | 'boolean' | 'object' | 'rison';

type Search = string | URLSearchParams;

function rawParam(search: Search, name: string): string | null {
  const params = typeof search === 'string' ? new URLSearchParams(search) : search;
  return params.get(name);
}

/** Number param: 'true'/'false' read as 1/0, unparsable or absent reads as null. Example: `?slice_id=12` → 12. */
export function parseNumberParam(raw: string | null): number | null {
  if (!raw) return null;
  if (raw === 'true') return 1;
  if (raw === 'false') return 0;
  const value = Number(raw);
  return Number.isNaN(value) ? null : value;
}

/** Boolean param: 'false' or '0' read as false, any other present value as true, absent as null. */
export function parseBooleanParam(raw: string | null): boolean | null {
  if (!raw) return null;
  return raw !== 'false' && raw !== '0';
}

/** Object param: JSON text, or null when absent or not valid JSON. */
export function parseObjectParam(raw: string | null): unknown {
  if (!raw) return null;
  try {
    return JSON.parse(raw);
  } catch {
    return null;
  }
}

/** Rison param: decoded value, or the raw text when it is not valid rison; null when absent. */
export function parseRisonParam(raw: string | null): unknown {
  if (!raw) return null;
  try {
    return rison.decode(raw);
  } catch {
    return raw;
  }
}

/** Reads one typed parameter from a query string (with or without the leading '?') or URLSearchParams. */
export function getUrlParam(search: Search, name: string, type: 'number'): number | null;
export function getUrlParam(search: Search, name: string, type: 'boolean'): boolean | null;
export function getUrlParam(search: Search, name: string, type: 'object' | 'rison'): unknown;
export function getUrlParam(search: Search, name: string, type?: 'string'): string | null;
export function getUrlParam(search: Search, name: string, type: UrlParamType = 'string'): unknown {
  const raw = rawParam(search, name);
  switch (type) {
    case 'number':
      return parseNumberParam(raw);
    case 'boolean':
      return parseBooleanParam(raw);
    case 'object':
      return parseObjectParam(raw);
    case 'rison':
      return parseRisonParam(raw);
    default:
      return raw;
  }
}

/** Encodes a value as rison (for `?q=` parameters of the REST API). */
export function encodeRison(value: unknown): string {
  return rison.encode(value);
}

/** Decodes rison text, throwing on invalid input. */
export function decodeRison(text: string): unknown {
  return rison.decode(text);
}

/** A link to an entity listing page with an `id` query parameter. Example: `('/chart/list/', 5)` → '/chart/list/?id=5'. */
export function buildEntityListLink(base: string, id: string | number): string {
  const [path, query = ''] = base.split('?');
  const params = new URLSearchParams(query);
  params.set('id', String(id));
  return `${path}?${params.toString()}`;
}
