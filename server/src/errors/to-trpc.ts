import { TRPCError } from '@trpc/server';
import { toRestError } from './to-rest';

const CODES: Record<number, TRPCError['code']> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  409: 'CONFLICT',
  410: 'NOT_FOUND',
  422: 'UNPROCESSABLE_CONTENT',
  408: 'TIMEOUT',
  429: 'TOO_MANY_REQUESTS',
  500: 'INTERNAL_SERVER_ERROR',
  503: 'SERVICE_UNAVAILABLE',
};

/** The one mapping from a domain error to a tRPC error; the REST envelope travels as `cause` data. */
export function toTrpcError(error: unknown): TRPCError {
  if (error instanceof TRPCError) return error;
  const { status, body, internal } = toRestError(error);
  const message = internal ? 'Internal server error' : typeof (body as any).message === 'string' ? (body as any).message : 'Invalid input';
  return new TRPCError({ code: CODES[status] ?? 'INTERNAL_SERVER_ERROR', message, cause: Object.assign(new Error(message), { status, body }) });
}
