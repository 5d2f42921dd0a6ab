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
