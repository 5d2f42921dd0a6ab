import { initTRPC, TRPCError } from '@trpc/server';
import type { FeatureFlag } from '../config';
import type { Services } from '../services';
import { toTrpcError } from '../errors/to-trpc';
import { refuseNulText } from '../common/nul-text';
import type { Actor } from '../security/actor';
import type { SecurityService } from '../security/security.service';

/** What every procedure sees: the actor (resolved by the same function as REST) and the services. */
export interface TrpcContext {
  actor: Actor | null;
  services: Services;
}

/** What a procedure declares about itself: the permission-view pair it needs (the permission matrix test reads it). */
export interface TrpcMeta {
  permission?: readonly [permission: string, view: string];
}

const t = initTRPC.context<TrpcContext>().meta<TrpcMeta>().create({
  errorFormatter({ shape, error }) {
    const cause = error.cause as { body?: unknown } | undefined;
    return { ...shape, data: { ...shape.data, envelope: cause?.body ?? { message: error.message } } };
  },
});

/** Domain errors thrown by services become tRPC errors with the right code. */
const mapErrors = t.middleware(async ({ next }) => {
  const result = await next();
  if (!result.ok && result.error.code === 'INTERNAL_SERVER_ERROR' && result.error.cause && !(result.error.cause instanceof TRPCError)) {
    throw toTrpcError(result.error.cause);
  }
  return result;
});

export const router = t.router;
/**
 * As the REST door: text with a NUL character cannot be stored or bound in PostgreSQL, so input holding one is
 * refused (400, the field map). It runs after a procedure's sign-in and permission checks: 401 and 403 come first.
 */
const refuseNul = t.middleware(async ({ getRawInput, next }) => {
  let raw: unknown;
  try {
    raw = await getRawInput();
  } catch {
    // Input that does not even read ('?input=undefined' to a procedure that takes none) is the procedure's to judge.
    return next();
  }
  try {
    refuseNulText(raw);
  } catch (error) {
    throw toTrpcError(error);
  }
  return next();
});

const anyCaller = t.procedure.use(mapErrors);
export const publicProcedure = anyCaller.use(refuseNul);

const signedIn = anyCaller.use(({ ctx, next }) => {
  if (!ctx.actor) throw new TRPCError({ code: 'UNAUTHORIZED', message: 'Not authorized' });
  return next({ ctx: { ...ctx, actor: ctx.actor } });
});

/** Signed-in callers only (401 otherwise). */
export const authedProcedure = signedIn.use(refuseNul);

/**
 * Signed-in callers holding one permission-view pair (403 `Forbidden` otherwise). Put it before
 * `.input()`: tRPC runs middlewares and the input parser in the order they were added, so the
 * permission is checked before the input is validated (Superset's `@protect` answers 403 first).
 */
export const permissionProcedure = (permission: string, view: string) =>
  signedIn
    .meta({ permission: [permission, view] })
    .use(({ ctx, next }) => {
      const security: SecurityService = ctx.services.security;
      security.require(ctx.actor, permission, view);
      return next();
    })
    .use(refuseNul);

/** Procedures of a feature behind a flag answer 404 while it is off, as its REST door is then not registered. */
export const featureFlag = (flag: FeatureFlag) =>
  t.middleware(({ ctx, next }) => {
    if (!ctx.services.config.featureFlags[flag]) throw new TRPCError({ code: 'NOT_FOUND', message: 'Not found' });
    return next();
  });
