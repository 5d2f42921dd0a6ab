import { Invalid } from '../errors/domain-errors';

/** What a field holding a NUL character is told: PostgreSQL, where everything is stored, refuses it in text. */
export const NUL_TEXT = 'Text may not contain NUL characters.';

/** The dotted paths of the strings in a JSON value that hold a NUL character ('' for the value itself). */
export function nulTextPaths(value: unknown, path = ''): string[] {
  if (typeof value === 'string') return value.includes('\0') ? [path] : [];
  if (!value || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, inner]) => nulTextPaths(inner, path ? `${path}.${key}` : key));
}

/** Refuses (400, the field map) an input with a NUL character in any of its text, before it reaches a query. */
export function refuseNulText(value: unknown): void {
  const paths = nulTextPaths(value);
  if (paths.length) throw new Invalid(Object.fromEntries(paths.map((p) => [p || '_schema', [NUL_TEXT]])));
}
