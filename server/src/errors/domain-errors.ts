/** A field map as Superset's marshmallow validation returns it: `{ field: ['Missing data for required field.'] }`. */
export type FieldErrors = Record<string, string[] | Record<string, unknown>>;

/** Superset's structured error, as sent in `{"errors": [...]}`. */
export interface SupersetError {
  message: string;
  error_type: string;
  level: 'info' | 'warning' | 'error';
  extra?: Record<string, unknown>;
}

/** Base of every error a service throws on purpose; the doors map these to statuses and envelopes. */
export abstract class DomainError extends Error {
  abstract readonly status: number;
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

export class Unauthorized extends DomainError {
  readonly status = 401;
  constructor(message = 'Not authorized') {
    super(message);
  }
}

export class Forbidden extends DomainError {
  readonly status = 403;
  constructor(message = 'Forbidden') {
    super(message);
  }
}

export class NotFound extends DomainError {
  readonly status = 404;
  constructor(message = 'Not found') {
    super(message);
  }
}

/** Input that fails validation: 400 with a field map. */
export class Invalid extends DomainError {
  readonly status = 400;
  constructor(
    readonly fields: FieldErrors | string,
    message = 'Invalid input',
  ) {
    super(typeof fields === 'string' ? fields : message);
  }
}

/** A business rule refused the request (duplicate, missing related object): 422. */
export class Unprocessable extends DomainError {
  readonly status = 422;
  constructor(
    readonly body: string | FieldErrors,
    options?: { cause?: unknown },
  ) {
    super(typeof body === 'string' ? body : JSON.stringify(body), options);
  }
}

export class Conflict extends DomainError {
  readonly status = 409;
}

/** The stored result has expired: 410, the client should run the query again. */
export class Gone extends DomainError {
  readonly status = 410;
}

export class TooManyRequests extends DomainError {
  readonly status = 429;
}

/** A failure carrying Superset's structured errors (SQL errors, template errors, ...). */
export class StructuredError extends DomainError {
  constructor(
    readonly status: number,
    readonly errors: SupersetError[],
    options?: { cause?: unknown },
  ) {
    super(errors[0]?.message ?? 'Error', options);
  }
}
