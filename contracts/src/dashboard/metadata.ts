/**
 * The stored dashboard fields' rules (spec 02 §3, §5): json_metadata validated key by key as Superset's
 * DashboardJSONMetadataSchema does, the slug's normal form and the title's default. Pure, shared by
 * the server (validation) and the screen (properties modal).
 */

import { UNTITLED_DASHBOARD } from '../messages';

/** spec 02 §5: 'The dashboard title defaults to '[ untitled dashboard ]''. */
export const DEFAULT_DASHBOARD_TITLE = UNTITLED_DASHBOARD;

/** Field errors in Superset's shape: `{refresh_frequency: ['Not a valid integer.']}`. */
export type MetadataErrors = Record<string, string[]>;

type Check = (value: unknown) => string | null;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const integer: Check = (v) => (typeof v === 'number' && Number.isInteger(v) ? null : 'Not a valid integer.');
const boolean: Check = (v) => (typeof v === 'boolean' ? null : 'Not a valid boolean.');
const string: Check = (v) => (typeof v === 'string' ? null : 'Not a valid string.');
const dict: Check = (v) => (isObject(v) ? null : 'Not a valid mapping type.');
const list = (item?: Check): Check => (v) => {
  if (!Array.isArray(v)) return 'Not a valid list.';
  if (item && v.some((x) => item(x) !== null)) return item(v.find((x) => item(x) !== null)) ?? null;
  return null;
};
const nullable = (check: Check): Check => (v) => (v === null ? null : check(v));
const oneOf = (choices: readonly string[]): Check => (v) => (typeof v === 'string' && choices.includes(v) ? null : `Must be one of: ${choices.join(', ')}.`);
const jsonString: Check = (v) => {
  if (typeof v !== 'string') return 'Not a valid string.';
  try {
    JSON.parse(v);
    return null;
  } catch {
    return 'JSON not valid';
  }
};

/** spec 02 §3 "Dashboard metadata" keys, with the type Superset's schema gives each. Unknown keys are kept as they are. */
const METADATA_FIELDS: Record<string, Check> = {
  color_namespace: nullable(string),
  color_scheme: nullable(string),
  color_scheme_domain: list(string),
  expanded_slices: dict,
  label_colors: dict,
  shared_label_colors: (v) => (isObject(v) || Array.isArray(v) ? null : 'Not a valid list.'),
  map_label_colors: dict,
  refresh_frequency: nullable(integer),
  timed_refresh_immune_slices: list(integer),
  cross_filters_enabled: boolean,
  stagger_refresh: boolean,
  stagger_time: integer,
  default_filters: jsonString,
  filter_scopes: dict,
  chart_configuration: dict,
  global_chart_configuration: dict,
  native_filter_configuration: list(dict),
  filter_bar_orientation: oneOf(['VERTICAL', 'HORIZONTAL']),
  positions: nullable(dict),
  import_time: integer,
  remote_id: integer,
  show_native_filters: boolean,
};

/**
 * Validates a json_metadata object key by key. Returns the errors (empty when valid).
 *
 * @example validateJsonMetadata({ refresh_frequency: 'often' }) // { refresh_frequency: ['Not a valid integer.'] }
 */
export function validateJsonMetadata(metadata: unknown): MetadataErrors {
  if (!isObject(metadata)) return { _schema: ['Invalid input type.'] };
  const errors: MetadataErrors = {};
  for (const [key, value] of Object.entries(metadata)) {
    const check = METADATA_FIELDS[key];
    const error = check ? check(value) : null;
    if (error) errors[key] = [error];
  }
  return errors;
}

/**
 * Parses json_metadata text: `{ok: true, value}` or `{ok: false, errors}` where a text that is not JSON
 * is `{ _schema: ['JSON not valid'] }`. Empty text is an empty object.
 */
export function parseJsonMetadata(text: string | null | undefined): { ok: true; value: Record<string, unknown> } | { ok: false; errors: MetadataErrors } {
  if (!text || !text.trim()) return { ok: true, value: {} };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, errors: { _schema: ['JSON not valid'] } };
  }
  const errors = validateJsonMetadata(value);
  return Object.keys(errors).length ? { ok: false, errors } : { ok: true, value: value as Record<string, unknown> };
}

/** A dashboard as the related-objects answers list it: json_metadata as an object (Superset's DatabaseRelatedDashboard). */
export function relatedDashboard<T extends { json_metadata: string | null }>(row: T): Omit<T, 'json_metadata'> & { json_metadata: Record<string, unknown> } {
  const parsed = parseJsonMetadata(row.json_metadata);
  return { ...row, json_metadata: parsed.ok ? parsed.value : {} };
}

/**
 * spec 02 §5 'slug is null when empty'; as Superset's schema: trimmed, spaces become dashes, anything
 * but word characters and dashes dropped.
 *
 * @example normalizeSlug(' My sales board! ') // 'My-sales-board'
 */
export function normalizeSlug(slug: string | null | undefined): string | null {
  if (slug === null || slug === undefined) return null;
  const normal = slug.trim().replace(/ /g, '-').replace(/[^\w-]+/g, '');
  return normal === '' ? null : normal;
}

/** spec 02 §5 'certification_details are kept only when certified_by is set'. */
export function certificationOf(certifiedBy: string | null | undefined, details: string | null | undefined): { certified_by: string | null; certification_details: string | null } {
  const by = certifiedBy?.trim() ? certifiedBy : null;
  return { certified_by: by, certification_details: by ? (details ?? null) : null };
}

/**
 * The charts whose description a dashboard opens with (spec 02 §3 metadata expanded_slices, state expandedSlices), as
 * Superset stores them: `{chartId: true}`; anything else in the stored value is left out.
 *
 * @example expandedSlicesOf({ expanded_slices: { '12': true, '13': false } }) // { '12': true }
 */
export function expandedSlicesOf(metadata: Record<string, unknown>): Record<string, true> {
  const stored = metadata.expanded_slices;
  const out: Record<string, true> = {};
  if (isObject(stored)) for (const [id, open] of Object.entries(stored)) if (open) out[id] = true;
  return out;
}

/**
 * A dashboard's json_metadata text as its save sends it, with the open descriptions as `expanded_slices` (Superset's
 * save). With none open and none stored before the text is left as it is, so an overwrite's diff does not list an
 * unchanged json_metadata. Text that does not parse reads as empty metadata.
 */
export function withExpandedSlices(jsonMetadata: string, expanded: Record<string, true>): string {
  let edits: Record<string, unknown> = {};
  try {
    const value = JSON.parse(jsonMetadata || '{}');
    if (isObject(value)) edits = value;
  } catch {
    // As empty metadata.
  }
  if (!Object.keys(expanded).length && !('expanded_slices' in edits)) return jsonMetadata;
  return JSON.stringify({ ...edits, expanded_slices: expanded }, null, 2);
}

/** Superset's TOGGLE_EXPAND_SLICE: a chart's description opened (`chartId: true`) or, when open, closed (its key removed). */
export function toggleExpandSlice(expanded: Record<string, true>, chartId: number | string): Record<string, true> {
  const next = { ...expanded };
  if (next[String(chartId)]) delete next[String(chartId)];
  else next[String(chartId)] = true;
  return next;
}
