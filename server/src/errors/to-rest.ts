import { QueueFullError } from '@meridian/query-worker';
import { ZodError } from 'zod';
import { DomainError, Invalid, StructuredError, Unprocessable, type FieldErrors } from './domain-errors';

/** Turns a zod error into Superset's marshmallow field map. */
export function zodToFieldErrors(error: ZodError): FieldErrors {
  const fields: Record<string, string[]> = {};
  for (const issue of error.issues) {
    const key = issue.path.length ? issue.path.join('.') : '_schema';
    const missing = issue.code === 'invalid_type' && /received undefined/.test(issue.message);
    (fields[key] ??= []).push(missing ? 'Missing data for required field.' : issue.message);
  }
  return fields;
}

/** The one mapping from any thrown value to an HTTP status and Superset's error envelope. */
export function toRestError(error: unknown): { status: number; body: unknown; internal: boolean } {
  if (error instanceof ZodError) return { status: 400, body: { message: zodToFieldErrors(error) }, internal: false };
  if (error instanceof StructuredError) return { status: error.status, body: { errors: error.errors, message: error.message }, internal: false };
  // The query pool's queue is full: the server is busy, not broken (503, as SQL Lab answers it); try again shortly.
  if (error instanceof QueueFullError) return { status: 503, body: { errors: [error.error], message: error.message }, internal: false };
  if (error instanceof Invalid) return { status: 400, body: { message: error.fields }, internal: false };
  if (error instanceof Unprocessable) return { status: 422, body: { message: error.body }, internal: false };
  if (error instanceof DomainError) return { status: error.status, body: { message: error.message }, internal: false };
  const status = (error as { statusCode?: number })?.statusCode;
  if (status && status >= 400 && status < 500) {
    return { status, body: { message: (error as Error).message }, internal: false };
  }
  return { status: 500, body: { message: 'Internal server error' }, internal: true };
}
