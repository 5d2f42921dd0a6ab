import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { Invalid } from '../errors/domain-errors';
import { infoAnswer, type InfoSpec } from '../rest/info';
import { registerRelated } from '../rest/related';
import { parseListQuery, PkParams, route } from '../rest/rest';
import type { Services } from '../services';
import type { ClientEvent } from './log.service';

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

function eventsOf(body: z.infer<typeof LogPostSchema>): ClientEvent[] {
  if (!('events' in body)) return [body as ClientEvent];
  const events = body.events as ClientEvent[] | string;
  if (Array.isArray(events)) return events;
  try {
    const parsed = JSON.parse(events) as unknown;
    if (Array.isArray(parsed) && parsed.every((e) => e && typeof e === 'object' && !Array.isArray(e))) return parsed as ClientEvent[];
  } catch {
    // answered below
  }
  throw new Invalid({ events: ['Not a valid JSON list of events.'] });
}

/** /api/v1/log/ as Superset's LogRestApi: admins read the action log; signed-in clients post their events. */
export function registerLogRest(app: FastifyInstance, services: Services): void {
  const { logs } = services;
  route(app, { method: 'GET', url: '/api/v1/log/', permission: ['can_read', 'Log'], summary: 'The action log, newest first', tags, query: ListParams }, ({ actor, query }) => logs.list(actor, parseListQuery(query.q)));
  route(app, { method: 'GET', url: '/api/v1/log/_info', permission: ['can_read', 'Log'], summary: 'Filters and permissions of the action log', tags, query: ListParams, rison: true }, ({ actor, query }) =>
    infoAnswer(LOG_INFO, actor!, (query.q as { keys?: unknown } | undefined)?.keys),
  );
  registerRelated(app, services, { resource: 'log', view: 'Log', tags, users: ['user'] });
  route(app, { method: 'GET', url: '/api/v1/log/:pk', permission: ['can_read', 'Log'], summary: 'One action log entry', tags, params: PkParams }, async ({ actor, params }) => ({ id: params.pk, result: await logs.get(actor, params.pk) }));
  route(app, { method: 'POST', url: '/api/v1/log/', permission: ['can_write', 'Log'], summary: "Record the caller's client events", tags, body: LogPostSchema, status: 201 }, async ({ actor, body, req }) => {
    const ids = await logs.post(actor, eventsOf(body), (req.headers.referer as string | undefined) ?? null);
    return { id: ids[0] ?? null, result: { id: ids[0] ?? null, ids } };
  });
}
