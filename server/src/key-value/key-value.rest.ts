import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { KvStorePayloadSchema } from '@meridian/contracts';
import { route } from '../rest/rest';
import type { Services } from '../services';

const tags = ['SQL Lab'];

/** `/kv/store/` and `/kv/{id}` (Superset's legacy key-value view, used by SQL Lab's share link). */
export function registerKeyValueRest(app: FastifyInstance, services: Services): void {
  route(app, { method: 'POST', url: '/kv/store/', permission: ['can_sqllab', 'Superset'], summary: 'Store a shared query', tags, body: KvStorePayloadSchema }, async ({ actor, body }) => ({
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
}
