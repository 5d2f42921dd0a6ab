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

/** Superset's RESERVED_DASHBOARD_URL_PARAMS: a dashboard address's own keys, which a dashboard permalink leaves out. */
const RESERVED_DASHBOARD_URL_PARAMS = ['native_filters', 'native_filters_key', 'permalink_key', 'preselect_filters'] as const;

/**
 * Keys the dashboard screen reads itself, besides the reserved ones: Superset's extractUrlParams keeps `standalone` and
 * `edit` out of the charts' url_params; `show_filters`, `expand_filters` and `dashboard-focused-chart` are Meridian's.
 */
const DASHBOARD_SCREEN_URL_PARAMS = ['standalone', 'edit', 'show_filters', 'expand_filters', 'dashboard-focused-chart'] as const;

/** Superset's RESERVED_CHART_URL_PARAMS: an Explore address's own keys, which a chart permalink leaves out. */
const RESERVED_CHART_URL_PARAMS = ['form_data_key', 'slice_id', 'datasource_id', 'datasource_type', 'dataset_id'] as const;

/**
 * Keys Meridian's Explore reads itself, besides the reserved ones (spec 01 §2): the form data's own text, a permalink's
 * key, the dashboard it was opened from and the display switches; none of them is a parameter for the chart's query.
 */
const EXPLORE_SCREEN_URL_PARAMS = ['form_data', 'permalink_key', 'dashboard_id', 'viz_type', 'standalone', 'force'] as const;

function entriesWithout(search: Search, excluded: readonly string[]): Array<[string, string]> {
  const params = typeof search === 'string' ? new URLSearchParams(search) : search;
  const out: Array<[string, string]> = [];
  params.forEach((value, key) => {
    if (!excluded.includes(key)) out.push([key, value]);
  });
  return out;
}

/**
 * A dashboard address's own query parameters as `[key, value]` pairs, in their order (spec 02 §2 'Dashboard permalinks
 * carry URL params'): what reaches every chart query as url_params and what a dashboard permalink keeps.
 *
 * @example dashboardUrlParamEntries('?country=FR&native_filters_key=abc&edit=true') // [['country', 'FR']]
 */
export function dashboardUrlParamEntries(search: Search): Array<[string, string]> {
  return entriesWithout(search, [...RESERVED_DASHBOARD_URL_PARAMS, ...DASHBOARD_SCREEN_URL_PARAMS]);
}

/**
 * An Explore address's extra query parameters as `[key, value]` pairs (spec 01 §7 'formData and urlParams'), as
 * Superset's getChartPermalink sends them; an Explore permalink opens with them as the form data's url_params.
 *
 * @example chartUrlParamEntries('?slice_id=5&form_data_key=k&country=FR') // [['country', 'FR']]
 */
export function chartUrlParamEntries(search: Search): Array<[string, string]> {
  return entriesWithout(search, [...RESERVED_CHART_URL_PARAMS, ...EXPLORE_SCREEN_URL_PARAMS]);
}
