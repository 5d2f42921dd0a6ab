import { isBuiltInRole, type ListQuery, type ListResult, type PermissionViewView, type RoleSearchView, type RoleView } from '@meridian/contracts';
import { NotFound, Unprocessable } from '../errors/domain-errors';
import type { Actor } from '../security/actor';
import type { SecurityService } from '../security/security.service';
import type { NamedRow, RoleRepository, RoleSearch } from './role.repository';

const ALREADY_EXISTS = ['Already exists.'];

/**
 * Roles and what they grant, as Superset's security API: roles with their permission-view pairs and users,
 * the permissions and resources (view menus) those pairs are made of. Built-in roles keep their names (they
 * are seeded by name at every start); any change to grants or members takes effect on the next request.
 */
export class RoleService {
  constructor(private readonly deps: { roles: RoleRepository; security: SecurityService }) {}

  async list(actor: Actor | null, query: ListQuery): Promise<ListResult<RoleView>> {
    this.deps.security.require(actor, 'can_read', 'Role');
    const { count, rows } = await this.deps.roles.list(query);
    return { count, ids: rows.map((r) => r.id), result: rows };
  }

  async get(actor: Actor | null, id: number): Promise<RoleView> {
    this.deps.security.require(actor, 'can_read', 'Role');
    return this.existing(id);
  }

  async search(actor: Actor | null, search: RoleSearch): Promise<{ count: number; ids: number[]; result: RoleSearchView[] }> {
    this.deps.security.require(actor, 'can_read', 'Role');
    const { count, rows } = await this.deps.roles.search(search);
    return { count, ids: rows.map((r) => r.id), result: rows };
  }

  async create(actor: Actor | null, name: string): Promise<RoleView> {
    this.deps.security.require(actor, 'can_write', 'Role');
    if (await this.deps.roles.findByName(name)) throw new Unprocessable({ name: ALREADY_EXISTS });
    return (await this.deps.roles.get(await this.deps.roles.create(name)))!;
  }

  async rename(actor: Actor | null, id: number, name: string): Promise<RoleView> {
    this.deps.security.require(actor, 'can_write', 'Role');
    const role = await this.existing(id);
    if (role.name === name) return role;
    this.refuseBuiltIn(role);
    const clash = await this.deps.roles.findByName(name);
    if (clash && clash.id !== id) throw new Unprocessable({ name: ALREADY_EXISTS });
    await this.deps.roles.rename(id, name);
    this.deps.security.invalidateActors();
    return (await this.deps.roles.get(id))!;
  }

  async delete(actor: Actor | null, id: number): Promise<void> {
    this.deps.security.require(actor, 'can_write', 'Role');
    this.refuseBuiltIn(await this.existing(id));
    await this.deps.roles.delete(id);
    this.deps.security.invalidateActors();
  }

  async permissionsOf(actor: Actor | null, id: number): Promise<RoleView['permissions']> {
    this.deps.security.require(actor, 'can_read', 'Role');
    return (await this.existing(id)).permissions;
  }

  /** Sets a role's permission-view pairs to exactly these (Superset's `POST roles/{id}/permissions`). */
  async setPermissions(actor: Actor | null, id: number, permissionViewIds: number[]): Promise<number[]> {
    this.deps.security.require(actor, 'can_write', 'Role');
    await this.existing(id);
    const known = new Set(await this.deps.roles.existingPairIds(permissionViewIds));
    const missing = permissionViewIds.filter((p) => !known.has(p));
    if (missing.length) throw new Unprocessable({ permission_view_menu_ids: [`Permission(s) not found: ${missing.join(', ')}`] });
    await this.deps.roles.setPermissions(id, permissionViewIds);
    this.deps.security.invalidateActors();
    return permissionViewIds;
  }

  /** Sets a role's users to exactly these (Superset's `PUT roles/{id}/users`). */
  async setUsers(actor: Actor | null, id: number, userIds: number[]): Promise<number[]> {
    this.deps.security.require(actor, 'can_write', 'Role');
    await this.existing(id);
    const known = new Set(await this.deps.roles.existingUserIds(userIds));
    const missing = userIds.filter((u) => !known.has(u));
    if (missing.length) throw new Unprocessable({ user_ids: [`User(s) not found: ${missing.join(', ')}`] });
    await this.deps.roles.setUsers(id, userIds);
    this.deps.security.invalidateActors();
    return userIds;
  }

  // Permissions: read only, as Superset's PermissionRestApi (they come with the code, not from users).

  async listPermissions(actor: Actor | null, query: ListQuery): Promise<ListResult<NamedRow>> {
    this.deps.security.require(actor, 'can_read', 'Permission');
    return listAnswer(await this.deps.roles.listNamed('ab_permission', query));
  }

  async getPermission(actor: Actor | null, id: number): Promise<NamedRow> {
    this.deps.security.require(actor, 'can_read', 'Permission');
    return found(await this.deps.roles.getNamed('ab_permission', id));
  }

  // Resources (view menus).

  async listResources(actor: Actor | null, query: ListQuery): Promise<ListResult<NamedRow>> {
    this.deps.security.require(actor, 'can_read', 'ViewMenu');
    return listAnswer(await this.deps.roles.listNamed('ab_view_menu', query));
  }

  async getResource(actor: Actor | null, id: number): Promise<NamedRow> {
    this.deps.security.require(actor, 'can_read', 'ViewMenu');
    return found(await this.deps.roles.getNamed('ab_view_menu', id));
  }

  async createResource(actor: Actor | null, name: string): Promise<NamedRow> {
    this.deps.security.require(actor, 'can_write', 'ViewMenu');
    if (await this.deps.roles.findNamed('ab_view_menu', name)) throw new Unprocessable({ name: ALREADY_EXISTS });
    return { id: await this.deps.roles.createResource(name), name };
  }

  async renameResource(actor: Actor | null, id: number, name: string): Promise<NamedRow> {
    this.deps.security.require(actor, 'can_write', 'ViewMenu');
    found(await this.deps.roles.getNamed('ab_view_menu', id));
    const clash = await this.deps.roles.findNamed('ab_view_menu', name);
    if (clash && clash.id !== id) throw new Unprocessable({ name: ALREADY_EXISTS });
    await this.deps.roles.renameResource(id, name);
    this.deps.security.invalidateActors();
    return { id, name };
  }

  async deleteResource(actor: Actor | null, id: number): Promise<void> {
    this.deps.security.require(actor, 'can_write', 'ViewMenu');
    found(await this.deps.roles.getNamed('ab_view_menu', id));
    await this.deps.roles.deleteResource(id);
    this.deps.security.invalidateActors();
  }

  // Permission-view pairs ("permissions-resources").

  async listPairs(actor: Actor | null, query: ListQuery): Promise<ListResult<PermissionViewView>> {
    this.deps.security.require(actor, 'can_read', 'PermissionViewMenu');
    return listAnswer(await this.deps.roles.listPairs(query));
  }

  async getPair(actor: Actor | null, id: number): Promise<PermissionViewView> {
    this.deps.security.require(actor, 'can_read', 'PermissionViewMenu');
    return found(await this.deps.roles.getPair(id));
  }

  async createPair(actor: Actor | null, input: { permission_id: number; view_menu_id: number }): Promise<{ id: number; permission_id: number; view_menu_id: number }> {
    this.deps.security.require(actor, 'can_write', 'PermissionViewMenu');
    await this.checkPairParts(input);
    if (await this.deps.roles.findPair(input.permission_id, input.view_menu_id)) throw new Unprocessable({ permission_id: ALREADY_EXISTS });
    return { id: await this.deps.roles.createPair(input.permission_id, input.view_menu_id), ...input };
  }

  async updatePair(actor: Actor | null, id: number, patch: { permission_id?: number; view_menu_id?: number }): Promise<{ permission_id?: number; view_menu_id?: number }> {
    this.deps.security.require(actor, 'can_write', 'PermissionViewMenu');
    found(await this.deps.roles.getPair(id));
    await this.checkPairParts(patch);
    await this.deps.roles.updatePair(id, patch);
    this.deps.security.invalidateActors();
    return patch;
  }

  async deletePair(actor: Actor | null, id: number): Promise<void> {
    this.deps.security.require(actor, 'can_write', 'PermissionViewMenu');
    found(await this.deps.roles.getPair(id));
    await this.deps.roles.deletePair(id);
    this.deps.security.invalidateActors();
  }

  private async checkPairParts(input: { permission_id?: number; view_menu_id?: number }) {
    const errors: Record<string, string[]> = {};
    if (input.permission_id !== undefined && !(await this.deps.roles.getNamed('ab_permission', input.permission_id))) errors.permission_id = ['Permission not found.'];
    if (input.view_menu_id !== undefined && !(await this.deps.roles.getNamed('ab_view_menu', input.view_menu_id))) errors.view_menu_id = ['Resource not found.'];
    if (Object.keys(errors).length) throw new Unprocessable(errors);
  }

  private async existing(id: number): Promise<RoleView> {
    return found(await this.deps.roles.get(id));
  }

  private refuseBuiltIn(role: RoleView) {
    if (isBuiltInRole(role.name)) throw new Unprocessable(`${role.name} is a built-in role: it cannot be renamed or deleted.`);
  }
}

function found<T>(row: T | undefined): T {
  if (!row) throw new NotFound();
  return row;
}

function listAnswer<T extends { id: number }>({ count, rows }: { count: number; rows: T[] }): ListResult<T> {
  return { count, ids: rows.map((r) => r.id), result: rows };
}
