import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { SavedQueryCreateSchema, SavedQueryUpdateSchema } from '@meridian/contracts';
import { columnParams, pageOf, parseListQuery, PkParams, route } from '../rest/rest';
import type { Services } from '../services';
import { infoAnswer, type InfoSpec } from '../rest/info';
import { registerRelated, relatedDatabases } from '../rest/related';
import { SAVED_QUERY_ORDER_COLUMNS } from './saved-query.repository';

const tags = ['Queries'];
const ListParams = z.object({ q: z.unknown().optional() });

/** /api/v1/saved_query/ as Superset's SavedQueryRestApi. */
const SAVED_QUERY_INFO: InfoSpec = {
  view: 'SavedQuery',
  title: 'Saved Query',
  add: SavedQueryCreateSchema,
  edit: SavedQueryUpdateSchema,
  filters: {
    id: [{ operator: 'saved_query_is_fav', name: 'Is favorite' }],
    label: [{ operator: 'all_text', name: 'All Text' }, 'ct', 'eq'],
    schema: ['eq', 'ct'],
    catalog: ['eq'],
    database: ['rel_o_m'],
    created_by: ['rel_o_m'],
    changed_by: ['rel_o_m'],
  },
  permissions: ['can_read', 'can_write', 'can_export', 'can_import'],
};

export function registerSavedQueryRest(app: FastifyInstance, services: Services): void {
  const { savedQueries } = services;
  route(app, { method: 'GET', url: '/api/v1/saved_query/_info', permission: ['can_read', 'SavedQuery'], summary: "What can be added, edited and filtered, and the caller's permissions on saved queries", tags, query: ListParams, rison: true }, ({ actor, query }) =>
    infoAnswer(SAVED_QUERY_INFO, actor!, query.q),
  );
  registerRelated(app, services, { resource: 'saved_query', view: 'SavedQuery', tags, users: ['created_by', 'changed_by'], others: { database: (actor, page) => relatedDatabases(services, actor, page) } });
  route(
    app,
    { method: 'GET', url: '/api/v1/saved_query/distinct/:column', permission: ['can_read', 'SavedQuery'], summary: 'Distinct values of a saved query column (schema, catalog)', tags, params: columnParams(['schema', 'catalog'] as const), query: ListParams, rison: true },
    ({ actor, params, query }) => savedQueries.distinct(actor, params.column, pageOf(query.q)),
  );
  route(app, { method: 'GET', url: '/api/v1/saved_query/', list: { title: 'List Saved Query', orderColumns: SAVED_QUERY_ORDER_COLUMNS }, permission: ['can_read', 'SavedQuery'], summary: 'List saved queries', tags, query: z.object({ q: z.unknown().optional() }) }, ({ actor, query }) =>
    savedQueries.list(actor, parseListQuery(query.q)),
  );
  route(app, { method: 'GET', url: '/api/v1/saved_query/:pk', item: { title: 'Show Saved Query' }, permission: ['can_read', 'SavedQuery'], summary: 'Get a saved query', tags, params: PkParams }, async ({ actor, params }) => ({
    id: params.pk,
    result: await savedQueries.get(actor, params.pk),
  }));
  route(app, { method: 'POST', url: '/api/v1/saved_query/', modelRestApi: true, permission: ['can_write', 'SavedQuery'], summary: 'Save a query', tags, body: SavedQueryCreateSchema, status: 201 }, async ({ actor, body }) => {
    const saved = await savedQueries.create(actor, body);
    return { id: saved.id, result: saved };
  });
  route(app, { method: 'PUT', url: '/api/v1/saved_query/:pk', modelRestApi: true, permission: ['can_write', 'SavedQuery'], summary: 'Update a saved query', tags, params: PkParams, body: SavedQueryUpdateSchema }, async ({ actor, params, body }) => {
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
