import { TRPCClientError } from '@trpc/client';
import { useState } from 'react';

/** One message per field of a form (the first problem found). */
export type FieldErrors<F> = Partial<Record<keyof F, string>>;

/**
 * A field map answered by the server (`{"message": {"username": ["..."]}}`, kept in the tRPC error's envelope),
 * limited to the form's own fields; null when the error carries none.
 */
export function serverFieldErrors<F extends object>(error: unknown, formFields: F): FieldErrors<F> | null {
  if (!(error instanceof TRPCClientError)) return null;
  const message = (error.data as { envelope?: { message?: unknown } } | undefined)?.envelope?.message;
  if (!message || typeof message !== 'object') return null;
  const out: FieldErrors<F> = {};
  for (const [key, value] of Object.entries(message as Record<string, unknown>)) {
    if (key in formFields) out[key as keyof F] = Array.isArray(value) ? String(value[0]) : String(value);
  }
  return Object.keys(out).length ? out : null;
}

/**
 * A contract schema's issues as one message per field, checked before sending: an empty required field reads like
 * the server's 'Missing data for required field.', unless `whenEmpty` words it for that field.
 */
export function schemaFieldErrors<F extends object>(error: { issues: { path: PropertyKey[]; code: string; message: string }[] }, whenEmpty: FieldErrors<F> = {}): FieldErrors<F> {
  const out: FieldErrors<F> = {};
  for (const issue of error.issues) {
    const key = issue.path[0] as keyof F;
    out[key] ??= issue.code === 'too_small' ? (whenEmpty[key] ?? 'Missing data for required field.') : issue.message;
  }
  return out;
}

/** The keys of a form whose values are text. */
type TextKey<F> = { [K in keyof F]: F[K] extends string ? K : never }[keyof F];

/**
 * A form's values and field errors; `set(key, value)` changes one value and clears that field's error;
 * `text(key)` is a text input's value, error and change handler, spread onto the input.
 */
export function useFormFields<F extends object>(initial: F, onSet?: (key: keyof F) => void) {
  const [fields, setFields] = useState<F>(initial);
  const [errors, setErrors] = useState<FieldErrors<F>>({});
  const set = <K extends keyof F>(key: K, value: F[K]) => {
    setFields((f) => ({ ...f, [key]: value }));
    setErrors((e) => ({ ...e, [key]: undefined }));
    onSet?.(key);
  };
  const text = <K extends TextKey<F>>(key: K) => ({
    value: fields[key] as string,
    error: errors[key],
    onChange: (e: { currentTarget: { value: string } }) => set(key, e.currentTarget.value as F[K]),
  });
  return { fields, errors, setErrors, set, text };
}
