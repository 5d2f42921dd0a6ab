import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { SavedQueryCreateSchema, SavedQueryUpdateSchema } from '@meridian/contracts';
import { parseListQuery, PkParams, route } from '../rest/rest';
import type { Services } from '../services';

const tags = ['Queries'];

/** /api/v1/saved_query/ as Superset's SavedQueryRestApi. */
export function registerSavedQueryRest(app: FastifyInstance, services: Services): void {
  const { savedQueries } = services;
  route(app, { method: 'GET', url: '/api/v1/saved_query/', permission: ['can_read', 'SavedQuery'], summary: 'List saved queries', tags, query: z.object({ q: z.unknown().optional() }) }, ({ actor, query }) =>
    savedQueries.list(actor, parseListQuery(query.q)),
  );
  route(app, { method: 'GET', url: '/api/v1/saved_query/:pk', permission: ['can_read', 'SavedQuery'], summary: 'Get a saved query', tags, params: PkParams }, async ({ actor, params }) => ({
    id: params.pk,
    result: await savedQueries.get(actor, params.pk),
  }));
  route(app, { method: 'POST', url: '/api/v1/saved_query/', permission: ['can_write', 'SavedQuery'], summary: 'Save a query', tags, body: SavedQueryCreateSchema, status: 201 }, async ({ actor, body }) => {
    const saved = await savedQueries.create(actor, body);
    return { id: saved.id, result: saved };
  });
  route(app, { method: 'PUT', url: '/api/v1/saved_query/:pk', permission: ['can_write', 'SavedQuery'], summary: 'Update a saved query', tags, params: PkParams, body: SavedQueryUpdateSchema }, async ({ actor, params, body }) => {
    const saved = await savedQueries.update(actor, params.pk, body);
    return { id: saved.id, result: saved };
  });
  route(app, { method: 'DELETE', url: '/api/v1/saved_query/:pk', permission: ['can_write', 'SavedQuery'], summary: 'Delete a saved query', tags, params: PkParams }, async ({ actor, params }) => {
    await savedQueries.delete(actor, [params.pk]);
    return { message: 'OK' };
  });
  route(
    app,
    { method: 'DELETE', url: '/api/v1/saved_query/', permission: ['can_write', 'SavedQuery'], summary: 'Delete saved queries in bulk (q=!(1,2))', tags, rison: true, query: z.object({ q: z.array(z.coerce.number().int()) }) },
    async ({ actor, query }) => {
      const n = await savedQueries.delete(actor, query.q);
      return { message: n === 1 ? `Deleted ${n} saved query` : `Deleted ${n} saved queries` };
    },
  );
}
