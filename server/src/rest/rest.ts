import rison from 'rison';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z, type ZodType } from 'zod';
import { ListQuerySchema, type ListQuery } from '@meridian/contracts';
import { Invalid, Unauthorized } from '../errors/domain-errors';
import type { Actor } from '../security/actor';

/** What the OpenAPI document says of one REST route. */
export interface RouteDoc {
  method: string;
  url: string;
  summary: string;
  tags: string[];
  query?: ZodType;
  body?: ZodType;
  rison?: boolean;
  status?: number;
  public?: boolean;
}

export interface RestInput<Q, B, P> {
  actor: Actor | null;
  query: Q;
  body: B;
  params: P;
  req: FastifyRequest;
  reply: FastifyReply;
}

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';

export interface RouteSpec<Q extends ZodType, B extends ZodType, P extends ZodType> {
  method: Method;
  url: string;
  summary: string;
  tags: string[];
  /** Routes are signed-in only unless marked public. */
  public?: boolean;
  query?: Q;
  body?: B;
  params?: P;
  /** The `q` query parameter is rison (Superset's list, get and info calls) and is decoded into `query.q`. */
  rison?: boolean;
  status?: number;
}

const routeDocs = new WeakMap<FastifyInstance, RouteDoc[]>();

/** The documented routes of an app, for the OpenAPI document. */
export function documentedRoutes(app: FastifyInstance): RouteDoc[] {
  return routeDocs.get(app.server as unknown as FastifyInstance) ?? routeDocs.get(app) ?? [];
}

/** Decodes Superset's rison `q` parameter; malformed rison is a 400 with the parse error. */
export function decodeRison(q: unknown): unknown {
  if (q === undefined || q === '') return undefined;
  try {
    return rison.decode(String(q));
  } catch (error) {
    throw new Invalid({ q: [`Not a valid rison argument: ${(error as Error).message}`] });
  }
}

/** A list call's decoded and validated `q`. */
export function parseListQuery(q: unknown): ListQuery {
  const parsed = ListQuerySchema.safeParse(decodeRison(q) ?? {});
  if (!parsed.success) throw new Invalid({ q: parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`) });
  return parsed.data;
}

/**
 * Registers one REST route: parses params, query and body with the contract's zod schemas, resolves
 * the actor (401 when a signed-in route has none), calls the handler (one service call) and sends
 * its result. Errors go through the app's one error handler (Superset's envelope).
 */
export function route<Q extends ZodType = z.ZodUnknown, B extends ZodType = z.ZodUnknown, P extends ZodType = z.ZodUnknown>(
  app: FastifyInstance,
  spec: RouteSpec<Q, B, P>,
  handler: (input: RestInput<z.output<Q>, z.output<B>, z.output<P>>) => Promise<unknown> | unknown,
): void {
  const key = app.server as unknown as FastifyInstance;
  const docs = routeDocs.get(key) ?? [];
  routeDocs.set(key, docs);
  docs.push({ method: spec.method, url: spec.url, summary: spec.summary, tags: spec.tags, query: spec.query, body: spec.body, rison: spec.rison, status: spec.status, public: spec.public });

  app.route({
    method: spec.method,
    url: spec.url,
    handler: async (req, reply) => {
      const actor = req.auth?.actor ?? null;
      if (!spec.public && !actor) throw new Unauthorized();
      const rawQuery = { ...(req.query as Record<string, unknown>) };
      if (spec.rison) rawQuery.q = decodeRison(rawQuery.q);
      const query = spec.query ? spec.query.parse(rawQuery) : rawQuery;
      const body = spec.body ? spec.body.parse(req.body ?? {}) : req.body;
      const params = spec.params ? spec.params.parse(req.params) : req.params;
      const result = await handler({ actor, query, body, params, req, reply } as RestInput<z.output<Q>, z.output<B>, z.output<P>>);
      if (reply.sent) return reply;
      reply.code(spec.status ?? 200);
      return result === undefined ? reply.send() : reply.send(result);
    },
  });
}

/** `{pk}` path parameter of Superset's item routes. */
export const PkParams = z.object({ pk: z.coerce.number().int() });
