import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { PermissionViewSchema, PermissionViewUpdateSchema, RoleNameSchema, RolePermissionsSchema, RoleUsersSchema, SecurityNameSchema } from '@meridian/contracts';
import { Invalid } from '../errors/domain-errors';
import { infoAnswer, type InfoSpec } from '../rest/info';
import { parseListQuery, PkParams, route } from '../rest/rest';
import type { Services } from '../services';

const ListParams = z.object({ q: z.unknown().optional() });
const InfoParams = z.object({ q: z.unknown().optional() });
const RoleIdParams = z.object({ role_id: z.coerce.number().int() });

const ROLE_INFO: InfoSpec = { view: 'Role', title: 'Role', add: RoleNameSchema, edit: RoleNameSchema, filters: { name: ['eq', 'ct', 'sw', 'ew'], user: ['rel_m_m'] }, permissions: ['can_read', 'can_write'] };
const PERMISSION_INFO: InfoSpec = { view: 'Permission', title: 'Permission', filters: { name: ['eq', 'ct', 'sw', 'ew'] }, permissions: ['can_read'] };
const RESOURCE_INFO: InfoSpec = { view: 'ViewMenu', title: 'View Menu', add: SecurityNameSchema, edit: SecurityNameSchema, filters: { name: ['eq', 'ct', 'sw', 'ew'] }, permissions: ['can_read', 'can_write'] };
const PAIR_INFO: InfoSpec = { view: 'PermissionViewMenu', title: 'Permission View Menu', add: PermissionViewSchema, edit: PermissionViewUpdateSchema, filters: { permission: ['rel_o_m'], view_menu: ['rel_o_m'] }, permissions: ['can_read', 'can_write'] };

/** `roles/search/`'s q: filters by name, user_ids or permission_ids (a value, a list, or comma-separated). */
const SearchQuery = z.object({
  filters: z.array(z.object({ col: z.enum(['name', 'user_ids', 'permission_ids']), value: z.unknown() })).default([]),
  order_column: z.enum(['id', 'name']).default('id'),
  order_direction: z.enum(['asc', 'desc']).default('asc'),
  page: z.number().int().min(0).default(0),
  page_size: z.number().int().min(1).max(1000).default(100),
});

/** A search value as ids: one, a list, or comma-separated. */
const idsOf = (v: unknown): number[] => (Array.isArray(v) ? v : String(v ?? '').split(',')).map((x) => Number(x)).filter((n) => Number.isInteger(n));

/** /api/v1/security/{roles,permissions,resources,permissions-resources}/, as Superset's security API. */
export function registerRoleRest(app: FastifyInstance, services: Services): void {
  const { roles } = services;
  const tags = ['Security Roles'];
  route(app, { method: 'GET', url: '/api/v1/security/roles/_info', permission: ['can_read', 'Role'], summary: "What can be added and filtered, and the caller's permissions on roles", tags, query: InfoParams, rison: true }, ({ actor, query }) => infoAnswer(ROLE_INFO, actor!, query.q));
  route(app, { method: 'GET', url: '/api/v1/security/roles/', permission: ['can_read', 'Role'], summary: 'List roles', tags, query: ListParams, list: { title: 'List Role', columns: ['id', 'name', 'permissions', 'user_ids'], orderColumns: ['id', 'name'] } }, ({ actor, query }) =>
    roles.list(actor, parseListQuery(query.q)),
  );
  route(app, { method: 'GET', url: '/api/v1/security/roles/search/', permission: ['can_read', 'Role'], summary: 'Search roles by name, user or permission', tags, query: ListParams, rison: true }, ({ actor, query }) => {
    const parsed = SearchQuery.safeParse(query.q ?? {});
    if (!parsed.success) throw new Invalid({ q: parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`) });
    const { filters, order_column, order_direction, page, page_size } = parsed.data;
    const value = (col: string) => filters.find((f) => f.col === col)?.value;
    return roles.search(actor, {
      name: value('name') === undefined ? undefined : String(value('name')),
      userIds: value('user_ids') === undefined ? undefined : idsOf(value('user_ids')),
      permissionIds: value('permission_ids') === undefined ? undefined : idsOf(value('permission_ids')),
      orderColumn: order_column,
      orderDirection: order_direction,
      page,
      pageSize: page_size,
    });
  });
  route(app, { method: 'GET', url: '/api/v1/security/roles/:pk', permission: ['can_read', 'Role'], summary: 'Get a role with its permissions and users', tags, params: PkParams }, async ({ actor, params }) => ({ id: params.pk, result: await roles.get(actor, params.pk) }));
  route(app, { method: 'POST', url: '/api/v1/security/roles/', modelRestApi: true, permission: ['can_write', 'Role'], summary: 'Create a role', tags, body: RoleNameSchema, status: 201 }, async ({ actor, body }) => {
    const role = await roles.create(actor, body.name);
    return { id: role.id, result: { name: role.name } };
  });
  route(app, { method: 'PUT', url: '/api/v1/security/roles/:pk', modelRestApi: true, permission: ['can_write', 'Role'], summary: 'Rename a role', tags, params: PkParams, body: RoleNameSchema }, async ({ actor, params, body }) => ({
    result: { name: (await roles.rename(actor, params.pk, body.name)).name },
  }));
  route(app, { method: 'DELETE', url: '/api/v1/security/roles/:pk', permission: ['can_write', 'Role'], summary: 'Delete a role', tags, params: PkParams }, async ({ actor, params }) => {
    await roles.delete(actor, params.pk);
    return { message: 'OK' };
  });
  route(app, { method: 'GET', url: '/api/v1/security/roles/:role_id/permissions/', permission: ['can_read', 'Role'], summary: "A role's permissions on resources", tags, params: RoleIdParams }, async ({ actor, params }) => ({
    result: await roles.permissionsOf(actor, params.role_id),
  }));
  route(app, { method: 'POST', url: '/api/v1/security/roles/:role_id/permissions', permission: ['can_write', 'Role'], summary: "Set a role's permissions (replacing the ones it had)", tags, params: RoleIdParams, body: RolePermissionsSchema }, async ({ actor, params, body }) => ({
    result: { permission_view_menu_ids: await roles.setPermissions(actor, params.role_id, body.permission_view_menu_ids) },
  }));
  route(app, { method: 'PUT', url: '/api/v1/security/roles/:role_id/users', permission: ['can_write', 'Role'], summary: "Set a role's users (replacing the ones it had)", tags, params: RoleIdParams, body: RoleUsersSchema }, async ({ actor, params, body }) => ({
    result: { user_ids: await roles.setUsers(actor, params.role_id, body.user_ids) },
  }));

  const ptags = ['Security Permissions'];
  route(app, { method: 'GET', url: '/api/v1/security/permissions/_info', permission: ['can_read', 'Permission'], summary: 'Filters and permissions of the permissions list', tags: ptags, query: InfoParams, rison: true }, ({ actor, query }) => infoAnswer(PERMISSION_INFO, actor!, query.q));
  route(app, { method: 'GET', url: '/api/v1/security/permissions/', list: { title: 'List Permission', orderColumns: ['id', 'name'] }, permission: ['can_read', 'Permission'], summary: 'List permissions', tags: ptags, query: ListParams }, ({ actor, query }) => roles.listPermissions(actor, parseListQuery(query.q)));
  route(app, { method: 'GET', url: '/api/v1/security/permissions/:pk', permission: ['can_read', 'Permission'], summary: 'Get a permission', tags: ptags, params: PkParams }, async ({ actor, params }) => ({ id: params.pk, result: await roles.getPermission(actor, params.pk) }));

  const rtags = ['Security Resources (View Menus)'];
  route(app, { method: 'GET', url: '/api/v1/security/resources/_info', permission: ['can_read', 'ViewMenu'], summary: 'What can be added and filtered on resources', tags: rtags, query: InfoParams, rison: true }, ({ actor, query }) => infoAnswer(RESOURCE_INFO, actor!, query.q));
  route(app, { method: 'GET', url: '/api/v1/security/resources/', list: { title: 'List View Menu', orderColumns: ['id', 'name'] }, permission: ['can_read', 'ViewMenu'], summary: 'List resources', tags: rtags, query: ListParams }, ({ actor, query }) => roles.listResources(actor, parseListQuery(query.q)));
  route(app, { method: 'GET', url: '/api/v1/security/resources/:pk', permission: ['can_read', 'ViewMenu'], summary: 'Get a resource', tags: rtags, params: PkParams }, async ({ actor, params }) => ({ id: params.pk, result: await roles.getResource(actor, params.pk) }));
  route(app, { method: 'POST', url: '/api/v1/security/resources/', modelRestApi: true, permission: ['can_write', 'ViewMenu'], summary: 'Create a resource', tags: rtags, body: SecurityNameSchema, status: 201 }, async ({ actor, body }) => {
    const row = await roles.createResource(actor, body.name);
    return { id: row.id, result: { name: row.name } };
  });
  route(app, { method: 'PUT', url: '/api/v1/security/resources/:pk', modelRestApi: true, permission: ['can_write', 'ViewMenu'], summary: 'Rename a resource', tags: rtags, params: PkParams, body: SecurityNameSchema }, async ({ actor, params, body }) => ({
    result: { name: (await roles.renameResource(actor, params.pk, body.name)).name },
  }));
  route(app, { method: 'DELETE', url: '/api/v1/security/resources/:pk', permission: ['can_write', 'ViewMenu'], summary: 'Delete a resource and every permission on it', tags: rtags, params: PkParams }, async ({ actor, params }) => {
    await roles.deleteResource(actor, params.pk);
    return { message: 'OK' };
  });

  const vtags = ['Security Permissions on Resources (View Menus)'];
  route(app, { method: 'GET', url: '/api/v1/security/permissions-resources/_info', permission: ['can_read', 'PermissionViewMenu'], summary: 'What can be added and filtered on permissions on resources', tags: vtags, query: InfoParams, rison: true }, ({ actor, query }) => infoAnswer(PAIR_INFO, actor!, query.q));
  route(app, { method: 'GET', url: '/api/v1/security/permissions-resources/', list: { title: 'List Permission View', orderColumns: ['id', 'permission', 'view_menu', 'permission_id', 'view_menu_id'] }, permission: ['can_read', 'PermissionViewMenu'], summary: 'List permissions on resources', tags: vtags, query: ListParams }, ({ actor, query }) => roles.listPairs(actor, parseListQuery(query.q)));
  route(app, { method: 'GET', url: '/api/v1/security/permissions-resources/:pk', permission: ['can_read', 'PermissionViewMenu'], summary: 'Get a permission on a resource', tags: vtags, params: PkParams }, async ({ actor, params }) => ({ id: params.pk, result: await roles.getPair(actor, params.pk) }));
  route(app, { method: 'POST', url: '/api/v1/security/permissions-resources/', modelRestApi: true, permission: ['can_write', 'PermissionViewMenu'], summary: 'Create a permission on a resource', tags: vtags, body: PermissionViewSchema, status: 201 }, async ({ actor, body }) => {
    const { id, ...result } = await roles.createPair(actor, body);
    return { id, result };
  });
  route(app, { method: 'PUT', url: '/api/v1/security/permissions-resources/:pk', modelRestApi: true, permission: ['can_write', 'PermissionViewMenu'], summary: 'Change a permission on a resource', tags: vtags, params: PkParams, body: PermissionViewUpdateSchema }, async ({ actor, params, body }) => ({
    result: await roles.updatePair(actor, params.pk, body),
  }));
  route(app, { method: 'DELETE', url: '/api/v1/security/permissions-resources/:pk', permission: ['can_write', 'PermissionViewMenu'], summary: 'Delete a permission on a resource (every role loses it)', tags: vtags, params: PkParams }, async ({ actor, params }) => {
    await roles.deletePair(actor, params.pk);
    return { message: 'OK' };
  });
}
