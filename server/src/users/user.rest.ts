import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { UserCreateSchema, UserUpdateSchema } from '@meridian/contracts';
import { parseListQuery, PkParams, route, withRelationIds } from '../rest/rest';
import type { Services } from '../services';
import { USER_ORDER_COLUMNS } from './user.repository';
import { infoAnswer, type InfoSpec } from '../rest/info';

const USER_LIST = {
  title: 'List User',
  columns: ['id', 'first_name', 'last_name', 'username', 'email', 'active', 'last_login', 'login_count', 'fail_login_count', 'created_on', 'changed_on', 'roles'],
  orderColumns: USER_ORDER_COLUMNS,
};

const ListParams = z.object({ q: z.unknown().optional() });

const USER_INFO: InfoSpec = {
  view: 'User',
  title: 'User',
  add: UserCreateSchema,
  edit: UserUpdateSchema,
  filters: { username: ['eq', 'ct', 'sw', 'ew'], first_name: ['eq', 'ct', 'sw', 'ew'], last_name: ['eq', 'ct', 'sw', 'ew'], email: ['eq', 'ct', 'sw', 'ew'], active: ['eq'], roles: ['rel_m_m'] },
  permissions: ['can_read', 'can_write'],
};

/** /api/v1/security/users/, as Superset's security API. */
export function registerUserRest(app: FastifyInstance, services: Services): void {
  const { users } = services;
  route(app, { method: 'GET', url: '/api/v1/security/users/_info', permission: ['can_read', 'User'], summary: "What can be added, edited and filtered, and the caller's permissions on users", tags: ['Security Users'], query: z.object({ q: z.unknown().optional() }), rison: true }, ({ actor, query }) =>
    infoAnswer(USER_INFO, actor!, query.q),
  );
  route(app, { method: 'GET', url: '/api/v1/security/users/', permission: ['can_read', 'User'], summary: 'List users', tags: ['Security Users'], query: ListParams, list: USER_LIST }, ({ actor, query }) =>
    users.list(actor, parseListQuery(query.q)),
  );
  route(app, { method: 'GET', url: '/api/v1/security/users/:pk', permission: ['can_read', 'User'], summary: 'Get a user', tags: ['Security Users'], params: PkParams }, async ({ actor, params }) => ({
    id: params.pk,
    result: await users.get(actor, params.pk),
  }));
  route(app, { method: 'POST', url: '/api/v1/security/users/', permission: ['can_write', 'User'], summary: 'Create a user', tags: ['Security Users'], body: UserCreateSchema, status: 201 }, async ({ actor, body }) => {
    const user = await users.create(actor, body);
    return { id: user.id, result: withRelationIds(user) };
  });
  route(app, { method: 'PUT', url: '/api/v1/security/users/:pk', permission: ['can_write', 'User'], summary: 'Update a user (deactivate with active: false)', tags: ['Security Users'], params: PkParams, body: UserUpdateSchema }, async ({ actor, params, body }) => {
    const user = await users.update(actor, params.pk, body);
    return { id: user.id, result: withRelationIds(user) };
  });
  route(app, { method: 'DELETE', url: '/api/v1/security/users/:pk', permission: ['can_write', 'User'], summary: 'Delete a user', tags: ['Security Users'], params: PkParams }, async ({ actor, params }) => {
    await users.delete(actor, params.pk);
    return { message: 'OK' };
  });
}
