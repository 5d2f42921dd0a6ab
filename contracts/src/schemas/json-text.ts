import { z } from 'zod';

/** Superset's marshmallow `validate_json` message, answered in the 400 field map. */
export const JSON_NOT_VALID = 'JSON not valid';

/** True for empty or absent text, or text that parses as JSON. */
export function isJsonText(text: string | null | undefined): boolean {
  if (text === null || text === undefined || text.trim() === '') return true;
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * A field that holds JSON as text (`params`, `query_context`, `extra`, `template_params`, ...): text
 * that does not parse is refused as Superset's schema validation refuses it, a 400 with
 * `{"message": {"<field>": ["JSON not valid"]}}`. Empty text passes (Superset stores it as is).
 *
 * @example ChartCreateSchema.shape.params = jsonText().nullish()
 */
export function jsonText(message = JSON_NOT_VALID) {
  return z.string().refine(isJsonText, { message });
}

/** Superset's message for a database's `extra` or `masked_encrypted_extra` that is not JSON, before the parser's own words. */
export const JSON_NOT_DECODED = 'Field cannot be decoded by JSON.';

/** SQLAlchemy's `MetaData` parameters (1.4, as Superset runs it): the keys a database's `extra.metadata_params` may hold. */
const METADATA_PARAMS = new Set(['bind', 'schema', 'quote_schema', 'naming_convention', 'info']);

/**
 * Superset's `extra_validator` and `encrypted_extra_validator` (databases/schemas.py): empty text passes; text that
 * does not parse is 'Field cannot be decoded by JSON. <why>'; in `extra`, a `metadata_params` key that SQLAlchemy's
 * MetaData does not take is 'The metadata_params in Extra field is not configured correctly. The key <key> is invalid.'
 */
export function databaseJsonError(text: string | null | undefined, opts: { metadataParams?: boolean } = {}): string | null {
  if (!text) return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return `${JSON_NOT_DECODED} ${(error as Error).message}`;
  }
  const params = opts.metadataParams && value && typeof value === 'object' ? (value as { metadata_params?: unknown }).metadata_params : undefined;
  if (params && typeof params === 'object') {
    const bad = Object.keys(params).find((key) => !METADATA_PARAMS.has(key));
    if (bad !== undefined) return `The metadata_params in Extra field is not configured correctly. The key ${bad} is invalid.`;
  }
  return null;
}

/** A database's `extra` (with its metadata_params checked) or `masked_encrypted_extra`, refused as Superset refuses them. */
export function databaseJsonText(opts: { metadataParams?: boolean } = {}) {
  return z.string().superRefine((text, ctx) => {
    const message = databaseJsonError(text, opts);
    if (message) ctx.addIssue({ code: 'custom', message });
  });
}
