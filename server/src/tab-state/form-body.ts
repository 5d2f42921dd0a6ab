import type { FastifyRequest } from 'fastify';

/**
 * Superset's legacy SQL Lab views post form fields whose values are JSON texts
 * (`queryEditor={"name":...}`, `expanded=true`); Meridian's client may post plain JSON. Either way
 * this returns the decoded values.
 *
 * @example formBody(req) // { sql: 'SELECT 1', query_limit: 100 } for `sql="SELECT 1"&query_limit=100`
 */
export function formBody(req: FastifyRequest): Record<string, unknown> {
  const body = (req.body ?? {}) as Record<string, unknown>;
  const isJson = /application\/json/i.test(req.headers['content-type'] ?? '');
  if (isJson) return body;
  return Object.fromEntries(
    Object.entries(body).map(([key, value]) => {
      if (typeof value !== 'string') return [key, value];
      try {
        return [key, JSON.parse(value)];
      } catch {
        return [key, value];
      }
    }),
  );
}

/** A field that is itself an object, sent either as an object or as JSON text. */
export function objectField(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}
