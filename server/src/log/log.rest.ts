import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { refuseNulText } from '../common/nul-text';
import { Invalid, Unauthorized } from '../errors/domain-errors';
import { infoAnswer, type InfoSpec } from '../rest/info';
import { registerRelated } from '../rest/related';
import { parseListQuery, PkParams, route } from '../rest/rest';
import type { Services } from '../services';
import type { ClientEvent } from './log.service';
import { LOG_ORDER_COLUMNS } from './log.repository';

const NOT_EVENTS = 'Not a valid JSON list of events.';

const tags = ['LogRestApi'];
const ListParams = z.object({ q: z.unknown().optional() });

/** A client event: any object (Superset's frontend logger adds its own keys). */
const EventSchema = z.record(z.string(), z.unknown());
/** `events` as a list, or as the JSON text Superset's frontend posts; or one event's own fields. */
const LogPostSchema = z.union([z.object({ events: z.union([z.array(EventSchema), z.string()]) }), EventSchema]);

const LOG_INFO: InfoSpec = {
  view: 'Log',
  title: 'Log',
  filters: { action: ['ct', 'eq', 'sw'], user: ['rel_o_m'], dttm: ['gt', 'lt'], dashboard_id: ['eq'], slice_id: ['eq'], referrer: ['ct'] },
  permissions: ['can_read', 'can_write'],
};

/**
 * The events a post holds: a list, the JSON text of one (as Superset's frontend sends it), or one event's fields.
 * Their text is checked for NUL characters here: a batch sent as text, or a beacon's form, escapes the JSON door's check.
 */
function eventsOf(body: z.infer<typeof LogPostSchema>): ClientEvent[] {
  const events = !('events' in body) ? [body] : typeof body.events !== 'string' ? body.events : parsedEvents(body.events);
  refuseNulText({ events });
  return events as ClientEvent[];
}

function parsedEvents(text: string): unknown[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new Invalid({ events: [NOT_EVENTS] });
  }
  if (!Array.isArray(parsed) || !parsed.every((e) => e && typeof e === 'object' && !Array.isArray(e))) throw new Invalid({ events: [NOT_EVENTS] });
  return parsed;
}

/** A beacon's fields: a multipart form (FormData) or a urlencoded one, or the JSON a fetch fallback posts. */
async function beaconFields(req: FastifyRequest): Promise<Record<string, unknown>> {
  if (!req.isMultipart()) {
    if (req.body === undefined || req.body === null) return {};
    // A JSON body that is not an object (a number, a list) holds no events.
    if (typeof req.body !== 'object' || Array.isArray(req.body)) throw new Invalid({ events: [NOT_EVENTS] });
    return req.body as Record<string, unknown>;
  }
  const fields: Record<string, unknown> = {};
  for await (const part of req.parts({ limits: { files: 0, fields: 10, fieldSize: 5 * 1024 * 1024 } })) if (part.type === 'field') fields[part.fieldname] = part.value;
  return fields;
}

/** /api/v1/log/ as Superset's LogRestApi: admins read the action log; signed-in clients post their events. */
export function registerLogRest(app: FastifyInstance, services: Services): void {
  const { logs } = services;
  route(app, { method: 'GET', url: '/api/v1/log/', list: { title: 'List Log', orderColumns: LOG_ORDER_COLUMNS }, permission: ['can_read', 'Log'], summary: 'The action log, newest first', tags, query: ListParams }, ({ actor, query }) => logs.list(actor, parseListQuery(query.q)));
  route(app, { method: 'GET', url: '/api/v1/log/_info', permission: ['can_read', 'Log'], summary: 'Filters and permissions of the action log', tags, query: ListParams, rison: true }, ({ actor, query }) =>
    infoAnswer(LOG_INFO, actor!, query.q),
  );
  registerRelated(app, services, { resource: 'log', view: 'Log', tags, users: ['user'] });
  route(app, { method: 'GET', url: '/api/v1/log/:pk', item: { title: 'Show Log' }, permission: ['can_read', 'Log'], summary: 'One action log entry', tags, params: PkParams }, async ({ actor, params }) => ({ id: params.pk, result: await logs.get(actor, params.pk) }));
  // Superset's event log door: the client's batches (a beacon when the page is left, so no CSRF header: exempt).
  // An embedded dashboard's beacon carries its guest token as a field.
  route(app, { method: 'POST', url: '/superset/log/', public: true, summary: "Record the caller's client events (beacon or fetch; explode=events)", tags, query: z.object({ explode: z.string().optional() }) }, async ({ actor, req, reply }) => {
    const fields = await beaconFields(req);
    const guest = !actor && typeof fields.guest_token === 'string' ? await services.embedded.guestActor(fields.guest_token) : null;
    const who = actor ?? guest;
    if (!who) throw new Unauthorized();
    const parsed = LogPostSchema.safeParse('events' in fields ? { events: fields.events } : fields);
    if (!parsed.success) throw new Invalid({ events: [NOT_EVENTS] });
    const ids = await logs.post(who, eventsOf(parsed.data), (req.headers.referer as string | undefined) ?? null);
    reply.code(200);
    return { message: 'OK', count: ids.length };
  });
  route(app, { method: 'POST', url: '/api/v1/log/', permission: ['can_write', 'Log'], summary: "Record the caller's client events", tags, body: LogPostSchema, status: 201 }, async ({ actor, body, req }) => {
    const ids = await logs.post(actor, eventsOf(body), (req.headers.referer as string | undefined) ?? null);
    return { id: ids[0] ?? null, result: { id: ids[0] ?? null, ids } };
  });
}
