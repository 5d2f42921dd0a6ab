import rison from 'rison';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z, ZodError, type ZodType } from 'zod';
import { FilterOperatorSchema, ListQuerySchema, type ListQuery } from '@meridian/contracts';
import { hasPermission } from '@meridian/contracts/rules/permissions';
import { Forbidden, Invalid, NotFound, Unauthorized, Unprocessable } from '../errors/domain-errors';
import { zodToFieldErrors } from '../errors/to-rest';
import { unknownFields } from './unknown-fields';
import type { Actor } from '../security/actor';
import { isItemAnswer, isListAnswer, projectItem, projectList, type ItemMeta, type ListMeta } from '../common/list-query';
import { refuseNulText } from '../common/nul-text';

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
  permission?: readonly [permission: string, view: string];
  /** A list route (Superset's `{count, ids, result}` answer). */
  list?: boolean;
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
  /**
   * The permission-view pair the route needs, checked before any input is parsed, so a caller
   * without it gets 403 whatever they send (Superset's `@protect` answers before validation).
   * The service checks it again; this only decides which refusal comes first.
   */
  permission?: readonly [permission: string, view: string];
  query?: Q;
  body?: B;
  params?: P;
  /** The `q` query parameter is rison (Superset's list, get and info calls) and is decoded into `query.q`. */
  rison?: boolean;
  status?: number;
  /** A list route's metadata, added to its answer as Superset's `list_columns`, `order_columns`, ... */
  list?: ListMeta;
  /** An item route answered by Flask-AppBuilder's `get_headless`: `columns`/`keys` of `q` apply, and `show_columns`, `show_title`... are added. */
  item?: ItemMeta;
  /**
   * The route is Flask-AppBuilder's own `ModelRestApi.post`/`put` in Superset (the resource's api.py has none of
   * its own, e.g. saved_query, css_template): a body that fails validation is 422 `{message: {field: [...]}}`,
   * where Superset's own endpoints answer 400.
   */
  modelRestApi?: boolean;
  /**
   * What a body field the schema does not declare gets, as marshmallow's `Meta.unknown` says it: 'raise' (its
   * default, and so of nearly every Superset schema) is a 400 `{message: {field: ['Unknown field.']}}` (422 on a
   * `modelRestApi` route); 'exclude' drops it silently, for the schemas that say `unknown = EXCLUDE` (database
   * POST/PUT and validate_parameters, the guest token's) and the doors that are forms rather than schemas.
   */
  unknown?: 'raise' | 'exclude';
}

const routeDocs = new WeakMap<FastifyInstance, RouteDoc[]>();

/** The documented routes of an app, for the OpenAPI document. */
export function documentedRoutes(app: FastifyInstance): RouteDoc[] {
  return routeDocs.get(app.server as unknown as FastifyInstance) ?? routeDocs.get(app) ?? [];
}

/**
 * Decodes Superset's rison `q` parameter. As Flask-AppBuilder does (FAB_API_ALLOW_JSON_QS, on by default), `q` that
 * is not rison is read as JSON, and what is neither is a 400 with its message.
 */
export function decodeRison(q: unknown): unknown {
  if (q === undefined || q === '') return undefined;
  const text = String(q);
  try {
    return rison.decode(text);
  } catch {
    try {
      return JSON.parse(text);
    } catch {
      throw new Invalid('Not a valid rison/json argument');
    }
  }
}

/** The `columns` and `keys` of a list call's `q` (already decoded or not); none when `q` is not a list query. */
function listQueryOf(q: unknown): Pick<ListQuery, 'columns' | 'keys'> {
  let decoded = q;
  try {
    if (typeof q === 'string') decoded = decodeRison(q);
  } catch {
    return {};
  }
  const parsed = ListQuerySchema.safeParse(decoded ?? {});
  return parsed.success ? parsed.data : {};
}

/** A list call's decoded and validated `q`. */
/** Superset's `extra_filters` of a warm-up: a JSON list of `{col, op, val}` query filters. */
export function extraFiltersOf(text: string | undefined): unknown[] {
  if (!text) return [];
  try {
    const value = JSON.parse(text);
    if (Array.isArray(value)) return value;
  } catch {
    // answered below
  }
  throw new Invalid({ extra_filters: ['Field cannot be decoded by JSON.'] });
}

/** The ids of a bulk call's rison `q=!(1,2)`; anything else is a 400 naming the expected list. */
export function idList(q: unknown, noun = ''): number[] {
  const ids = Array.isArray(q) ? q : q === undefined ? [] : [q];
  if (!ids.length || ids.some((id) => !Number.isInteger(Number(id)))) throw new Invalid(`Not a valid rison schema: expected a list of ${noun ? `${noun} ` : ''}ids, e.g. q=!(1,2)`);
  return ids.map(Number);
}

/** Flask-AppBuilder's FAB_API_MAX_PAGE_SIZE here: a larger page is cut to it, as FAB cuts it, not refused. */
const MAX_PAGE_SIZE = 1000;
/** ModelRestApi's `page_size`: the page a list call without one gets. */
const DEFAULT_PAGE_SIZE = 20;

/** A page size as Flask-AppBuilder's `_sanitize_page_args` takes it: none is the default, one over the maximum or below 1 is the maximum. */
function pageSizeOf(size: unknown): unknown {
  if (size === undefined || size === null) return DEFAULT_PAGE_SIZE;
  return typeof size === 'number' && size !== -1 && (size > MAX_PAGE_SIZE || size < 1) ? MAX_PAGE_SIZE : size;
}

/** The search text and page of a `related/` or `distinct/` call's decoded `q`: 20 a page unless asked, at most the maximum. */
export function pageOf(q: unknown): { filter: string; page: number; pageSize: number } {
  const v = (q && typeof q === 'object' ? q : {}) as { filter?: unknown; page?: unknown; page_size?: unknown };
  const size = Number(pageSizeOf(v.page_size));
  return { filter: String(v.filter ?? ''), page: Math.max(0, Number(v.page ?? 0) || 0), pageSize: Number.isInteger(size) && size >= 1 ? size : MAX_PAGE_SIZE };
}

/**
 * A list call's decoded and validated `q`, with Flask-AppBuilder's answers to what it cannot take: an operator
 * it does not know is 'Filter operation: zz not allowed on column: name', any other misfit 'Not a valid rison
 * schema ...' (its jsonschema check), each a 400 `{"message": "..."}`. The page size defaults to 20, and one
 * over the maximum (or below 1, but for -1: all) is the maximum.
 */
export function parseListQuery(q: unknown): ListQuery {
  const decoded = decodeRison(q) ?? {};
  const raw = decoded && typeof decoded === 'object' && !Array.isArray(decoded) ? { ...(decoded as Record<string, unknown>) } : decoded;
  if (raw && typeof raw === 'object' && !Array.isArray(raw)) {
    const args = raw as Record<string, unknown>;
    for (const filter of Array.isArray(args.filters) ? args.filters : []) {
      const { col, opr } = (filter ?? {}) as { col?: unknown; opr?: unknown };
      if (typeof opr === 'string' && !FilterOperatorSchema.safeParse(opr).success) throw new Invalid(`Filter operation: ${opr} not allowed on column: ${String(col)}`);
    }
    args.page_size = pageSizeOf(args.page_size);
  }
  const parsed = ListQuerySchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new Invalid(`Not a valid rison schema ${issue.path.length ? `${issue.path.join('.')}: ` : ''}${issue.message}`);
  }
  return parsed.data;
}

/** A route's query parameters; a rison `q` that misfits its schema is Flask-AppBuilder's 400 'Not a valid rison schema ...'. */
function parseQuery(schema: ZodType, raw: Record<string, unknown>, rison: boolean): unknown {
  const parsed = schema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  if (rison && issue.path[0] === 'q') throw new Invalid(`Not a valid rison schema ${issue.path.length > 1 ? `${issue.path.slice(1).join('.')}: ` : ''}${issue.message}`);
  throw parsed.error;
}

/**
 * A body parsed with its schema; with `unknown: 'raise'` a field the schema does not declare is refused with the
 * field errors of the rest of the body, in one map, as marshmallow reports them together.
 */
function parseBody(schema: ZodType, raw: unknown, unknown: 'raise' | 'exclude'): unknown {
  const refused = unknown === 'raise' ? unknownFields(schema, raw) : {};
  if (!Object.keys(refused).length) return schema.parse(raw);
  const parsed = schema.safeParse(raw);
  throw new Invalid({ ...(parsed.success ? {} : zodToFieldErrors(parsed.error)), ...refused });
}

/**
 * Registers one REST route: resolves the actor (401 when a signed-in route has none), checks the
 * route's permission (403), parses params, query and body with the contract's zod schemas (a body field the
 * schema does not declare is refused, as Superset's marshmallow schemas refuse it, unless the route says
 * `unknown: 'exclude'`), calls the handler (one service call) and sends its result; a list answer gets the `columns` projection
 * and list metadata of `projectList`. Errors go through the app's one error handler (Superset's envelope).
 */
export function route<Q extends ZodType = z.ZodUnknown, B extends ZodType = z.ZodUnknown, P extends ZodType = z.ZodUnknown>(
  app: FastifyInstance,
  spec: RouteSpec<Q, B, P>,
  handler: (input: RestInput<z.output<Q>, z.output<B>, z.output<P>>) => Promise<unknown> | unknown,
): void {
  const key = app.server as unknown as FastifyInstance;
  const docs = routeDocs.get(key) ?? [];
  routeDocs.set(key, docs);
  docs.push({ method: spec.method, url: spec.url, summary: spec.summary, tags: spec.tags, query: spec.query, body: spec.body, rison: spec.rison, status: spec.status, public: spec.public, permission: spec.permission, list: !!spec.list });

  app.route({
    method: spec.method,
    url: spec.url,
    handler: async (req, reply) => {
      const actor = req.auth?.actor ?? null;
      if (!spec.public && !actor) throw new Unauthorized();
      if (spec.permission && !(actor && hasPermission(actor, spec.permission[0], spec.permission[1]))) throw new Forbidden();
      const rawQuery = { ...(req.query as Record<string, unknown>) };
      if (spec.rison) rawQuery.q = decodeRison(rawQuery.q);
      // Text with a NUL character cannot be stored or bound in PostgreSQL: refused here, for every route.
      refuseNulText(req.body);
      refuseNulText(rawQuery);
      const query = spec.query ? parseQuery(spec.query, rawQuery, !!spec.rison) : rawQuery;
      const params = spec.params ? spec.params.parse(req.params) : req.params;
      let body: unknown;
      let result: unknown;
      try {
        body = spec.body ? parseBody(spec.body, req.body ?? {}, spec.unknown ?? 'raise') : req.body;
        result = await handler({ actor, query, body, params, req, reply } as RestInput<z.output<Q>, z.output<B>, z.output<P>>);
      } catch (error) {
        if (spec.modelRestApi && error instanceof ZodError) throw new Unprocessable(zodToFieldErrors(error));
        if (spec.modelRestApi && error instanceof Invalid) throw new Unprocessable(error.fields);
        throw error;
      }
      if (reply.sent) return reply;
      reply.code(spec.status ?? 200);
      if (result === undefined) return reply.send();
      if (spec.item && isItemAnswer(result)) return reply.send(projectItem(result, listQueryOf(rawQuery.q), spec.item));
      return reply.send(isListAnswer(result) ? projectList(result, listQueryOf(rawQuery.q), spec.list) : result);
    },
  });
}

/**
 * The `{column}` path parameter of a `related/` or `distinct/` route: a column the resource does not offer is
 * 404 `Not found`, as Flask-AppBuilder answers a column outside `allowed_rel_fields` / `allowed_distinct_fields`.
 */
export function columnParams<T extends string>(columns: readonly T[]) {
  return z.object({ column: z.string() }).transform(({ column }) => {
    if (!(columns as readonly string[]).includes(column)) throw new NotFound();
    return { column: column as T };
  });
}

/** `{pk}` path parameter of Superset's item routes. */
export const PkParams = z.object({ pk: z.coerce.number().int() });

/**
 * A saved object as Superset's POST and PUT answers give it back: as the request carried it, so relations are
 * ids (`owners`, `roles`, `dashboards`) and the database is its id.
 */
export function withRelationIds<T extends object>(view: T): T {
  const ids = (v: unknown) => (Array.isArray(v) ? v.map((x) => (x && typeof x === 'object' && 'id' in x ? (x as { id: unknown }).id : x)) : v);
  const out: Record<string, unknown> = { ...(view as Record<string, unknown>) };
  for (const key of ['owners', 'roles', 'dashboards']) if (key in out) out[key] = ids(out[key]);
  if (out.database && typeof out.database === 'object' && 'id' in (out.database as object)) out.database = (out.database as { id: unknown }).id;
  return out as T;
}

/** The Server-Timing header's value: the time the server spent on the request so far (browsers show it beside the network time; scripts/bench reads it). */
export function serverTiming(reply: FastifyReply): string {
  return `app;dur=${reply.elapsedTime.toFixed(1)}`;
}

/** The address the client reached this server at, for links the server hands out (permalinks). */
export const baseUrl = (req: { protocol: string; headers: Record<string, unknown> }) => `${req.protocol}://${String(req.headers.host ?? 'localhost')}`;
