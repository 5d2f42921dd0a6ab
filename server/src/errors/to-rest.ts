import { QueueFullError } from '@meridian/query-worker';
import { ZodError } from 'zod';
import { DomainError, Invalid, StructuredError, Unprocessable, type FieldErrors } from './domain-errors';

type Issue = ZodError['issues'][number];

/** What marshmallow's fields say of a value of the wrong type, by the type zod expected. */
const NOT_A_VALID: Record<string, string> = {
  string: 'Not a valid string.',
  number: 'Not a valid number.',
  int: 'Not a valid integer.',
  boolean: 'Not a valid boolean.',
  record: 'Not a valid mapping type.',
  object: 'Not a valid mapping type.',
  array: 'Not a valid list.',
  date: 'Not a valid datetime.',
};

/**
 * One zod issue in marshmallow's words (its fields' and validators' default messages), as Superset's 400s say
 * them: 'Missing data for required field.', 'Field may not be null.', 'Not a valid integer.', 'Shorter than
 * minimum length 1.', 'Must be one of: a, b.'... Our own refinements keep their messages.
 */
function marshmallowMessage(issue: Issue): string {
  switch (issue.code) {
    case 'invalid_type':
      if (/received undefined$/.test(issue.message)) return 'Missing data for required field.';
      if (/received null$/.test(issue.message)) return 'Field may not be null.';
      return NOT_A_VALID[issue.expected] ?? issue.message;
    case 'too_small':
      if (issue.origin === 'string' || issue.origin === 'array') return `Shorter than minimum length ${issue.minimum}.`;
      if (issue.origin === 'number' || issue.origin === 'int') return issue.inclusive ? `Must be greater than or equal to ${issue.minimum}.` : `Must be greater than ${issue.minimum}.`;
      return issue.message;
    case 'too_big':
      if (issue.origin === 'string' || issue.origin === 'array') return `Longer than maximum length ${issue.maximum}.`;
      if (issue.origin === 'number' || issue.origin === 'int') return issue.inclusive ? `Must be less than or equal to ${issue.maximum}.` : `Must be less than ${issue.maximum}.`;
      return issue.message;
    case 'invalid_value':
      return `Must be one of: ${issue.values.map(String).join(', ')}.`;
    default:
      return issue.message;
  }
}

/**
 * A union whose value took one branch's shape but failed inside it (an adhoc metric whose label is a number) says
 * what failed there, at that field's path; a value of none of the branches' shapes keeps the union's own message.
 */
function innermost(issue: Issue): Issue[] {
  if (issue.code !== 'invalid_union') return [issue];
  const entered = issue.errors.find((branch) => branch.length > 0 && branch.every((inner) => inner.path.length > 0));
  if (!entered) return [issue];
  return entered.flatMap((inner) => innermost({ ...inner, path: [...issue.path, ...inner.path] } as Issue));
}

/** Turns a zod error into Superset's marshmallow field map. */
export function zodToFieldErrors(error: ZodError): FieldErrors {
  const fields: Record<string, string[]> = {};
  for (const issue of error.issues.flatMap(innermost)) {
    const key = issue.path.length ? issue.path.join('.') : '_schema';
    (fields[key] ??= []).push(marshmallowMessage(issue));
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
