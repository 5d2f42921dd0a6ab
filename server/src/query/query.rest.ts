import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { StopQuerySchema, UpdatedSinceQuerySchema } from '@meridian/contracts';
import { columnParams, pageOf, parseListQuery, PkParams, route } from '../rest/rest';
import type { Services } from '../services';
import { registerRelated, relatedDatabases } from '../rest/related';
import { QUERY_ORDER_COLUMNS } from './query.repository';

const tags = ['Queries'];

/** /api/v1/query/ as Superset's QueryRestApi. */
export function registerQueryRest(app: FastifyInstance, services: Services): void {
  const { queries } = services;
  registerRelated(app, services, { resource: 'query', view: 'Query', tags, users: ['user'], others: { database: (actor, page) => relatedDatabases(services, actor, page) } });
  route(
    app,
    { method: 'GET', url: '/api/v1/query/distinct/:column', permission: ['can_read', 'Query'], summary: 'Distinct values of a query column (status)', tags, params: columnParams(['status'] as const), query: z.object({ q: z.unknown().optional() }), rison: true },
    ({ actor, params, query }) => queries.distinct(actor, params.column, pageOf(query.q)),
  );
  route(app, { method: 'GET', url: '/api/v1/query/', list: { title: 'List Query', orderColumns: QUERY_ORDER_COLUMNS }, permission: ['can_read', 'Query'], summary: 'Query history (own queries unless all_query_access)', tags, query: z.object({ q: z.unknown().optional() }) }, ({ actor, query }) =>
    queries.list(actor, parseListQuery(query.q)),
  );
  route(
    app,
    { method: 'GET', url: '/api/v1/query/updated_since', permission: ['can_read', 'Query'], summary: "The user's queries changed since last_updated_ms", tags, rison: true, query: z.object({ q: UpdatedSinceQuerySchema }) },
    async ({ actor, query }) => ({ result: await queries.updatedSince(actor, query.q.last_updated_ms) }),
  );
  route(app, { method: 'GET', url: '/api/v1/query/:pk', item: { title: 'Show Query' }, permission: ['can_read', 'Query'], summary: 'Get a query', tags, params: PkParams }, async ({ actor, params }) => ({
    id: params.pk,
    result: await queries.get(actor, params.pk),
  }));
  route(app, { method: 'POST', url: '/api/v1/query/stop', permission: ['can_read', 'Query'], summary: 'Stop a running query (cancelled on the database)', tags, body: StopQuerySchema }, async ({ actor, body }) => {
    await queries.stop(actor, body.client_id);
    return { result: 'OK' };
  });
}
