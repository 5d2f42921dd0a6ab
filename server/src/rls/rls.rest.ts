import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { RlsCreateSchema, RlsUpdateSchema } from '@meridian/contracts';
import { infoAnswer, type InfoSpec } from '../rest/info';
import { registerRelated, relatedFromList } from '../rest/related';
import { parseListQuery, PkParams, route } from '../rest/rest';
import type { Services } from '../services';
import { RLS_ORDER_COLUMNS } from './rls.service';

const tags = ['Row Level Security'];
const VIEW = 'Row Level Security';
const ListParams = z.object({ q: z.unknown().optional() });
const DeleteIds = z.object({ q: z.array(z.coerce.number().int()) });

const INFO: InfoSpec = {
  view: VIEW,
  title: 'Row Level Security',
  add: RlsCreateSchema,
  edit: RlsUpdateSchema,
  filters: {
    name: ['ct', 'eq', 'sw'], description: ['ct'], filter_type: ['eq'], tables: ['rel_m_m'], roles: ['rel_m_m'], group_key: ['ct', 'eq'], clause: ['ct'],
    created_by: ['rel_o_m'], changed_by: ['rel_o_m'],
  },
  permissions: ['can_read', 'can_write'],
};

/** /api/v1/rowlevelsecurity/ as Superset's RLSRestApi. */
export function registerRlsRest(app: FastifyInstance, services: Services): void {
  const { rls } = services;
  const read = ['can_read', VIEW] as const;
  const write = ['can_write', VIEW] as const;
  registerRelated(app, services, {
    resource: 'rowlevelsecurity',
    view: VIEW,
    tags,
    users: ['created_by', 'changed_by'],
    others: {
      roles: (actor, page) => relatedFromList((q) => services.roles.list(actor, q), 'name', page),
      tables: (actor, page) => relatedFromList((q) => services.datasets.list(actor, q) as never, 'table_name', page),
    },
  });
  route(app, { method: 'GET', url: '/api/v1/rowlevelsecurity/', list: { title: 'List Row Level Security Filter', orderColumns: RLS_ORDER_COLUMNS }, permission: [...read], summary: 'List row-level security rules', tags, query: ListParams }, ({ actor, query }) => rls.list(actor, parseListQuery(query.q)));
  route(app, { method: 'GET', url: '/api/v1/rowlevelsecurity/_info', permission: [...read], summary: 'Fields, filters and permissions of row-level security rules', tags, query: ListParams, rison: true }, ({ actor, query }) => infoAnswer(INFO, actor!, query.q));
  route(app, { method: 'GET', url: '/api/v1/rowlevelsecurity/:pk', item: { title: 'Show Row Level Security Filter' }, permission: [...read], summary: 'Get a row-level security rule', tags, params: PkParams }, async ({ actor, params }) => ({ id: params.pk, result: await rls.get(actor, params.pk) }));
  route(app, { method: 'POST', url: '/api/v1/rowlevelsecurity/', permission: [...write], summary: 'Create a row-level security rule', tags, body: RlsCreateSchema, status: 201 }, async ({ actor, body }) => ({ id: await rls.create(actor, body), result: body }));
  route(app, { method: 'PUT', url: '/api/v1/rowlevelsecurity/:pk', permission: [...write], summary: 'Update a row-level security rule', tags, params: PkParams, body: RlsUpdateSchema }, async ({ actor, params, body }) => {
    await rls.update(actor, params.pk, body);
    return { id: params.pk, result: body };
  });
  route(app, { method: 'DELETE', url: '/api/v1/rowlevelsecurity/:pk', permission: [...write], summary: 'Delete a row-level security rule', tags, params: PkParams }, async ({ actor, params }) => {
    await rls.delete(actor, [params.pk]);
    return { message: 'OK' };
  });
  route(app, { method: 'DELETE', url: '/api/v1/rowlevelsecurity/', permission: [...write], summary: 'Delete row-level security rules in bulk (q=!(1,2))', tags, rison: true, query: DeleteIds }, async ({ actor, query }) => {
    const n = await rls.delete(actor, query.q);
    return { message: `Deleted ${n} rules` };
  });
}
