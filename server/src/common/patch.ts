/**
 * The fields an update writes: those given (undefined is "not sent"), less an `is_managed_externally` of null —
 * Superset's schemas allow none there, and the stored flag then stays (the column holds no null).
 */
export function patchOf<T extends Record<string, unknown>>(fields: T): Record<string, unknown> {
  return Object.fromEntries(Object.entries(fields).filter(([key, value]) => value !== undefined && !(key === 'is_managed_externally' && value === null)));
}
