import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { KvStorePayloadSchema, SqlLabPermalinkSchema } from '@meridian/contracts';
import { baseUrl, route } from '../rest/rest';
import type { Services } from '../services';

const tags = ['SQL Lab'];

/** `/kv/store/` and `/kv/{id}` (Superset's legacy key-value view, used by SQL Lab's share link). */
export function registerKeyValueRest(app: FastifyInstance, services: Services): void {
  route(app, { method: 'POST', url: '/kv/store/', permission: ['can_sqllab', 'Superset'], summary: 'Store a shared query', tags, body: KvStorePayloadSchema, unknown: 'exclude' }, async ({ actor, body }) => ({
    id: await services.keyValues.store(actor, typeof body.data === 'string' ? body.data : JSON.stringify(body.data)),
  }));
  route(app, { method: 'GET', url: '/kv/:id', summary: 'Read a shared query', tags, params: z.object({ id: z.coerce.number().int() }) }, async ({ actor, params, reply }) => {
    const value = await services.keyValues.get(actor, params.id);
    let isJson = true;
    try {
      JSON.parse(value);
    } catch {
      isJson = false;
    }
    reply.type(isJson ? 'application/json; charset=utf-8' : 'text/plain; charset=utf-8');
    return value;
  });

  // SQL Lab's share link (Superset's SqlLabPermalinkRestApi). Superset answers the state's fields at the top
  // level, while its published document names them `state`: both are given.
  route(app, { method: 'POST', url: '/api/v1/sqllab/permalink', permission: ['can_write', 'SqlLabPermalinkRestApi'], summary: "Keep a SQL Lab tab's query as a permalink", tags, body: SqlLabPermalinkSchema, status: 201 }, ({ actor, body, req }) =>
    services.keyValues.createSqlLabPermalink(actor, body, baseUrl(req as never)),
  );
  route(app, { method: 'GET', url: '/api/v1/sqllab/permalink/:key', permission: ['can_read', 'SqlLabPermalinkRestApi'], summary: 'Read a SQL Lab permalink', tags, params: z.object({ key: z.string().min(1) }) }, async ({ actor, params }) => {
    const state = await services.keyValues.sqlLabPermalink(actor, params.key);
    return { ...state, state };
  });
}
