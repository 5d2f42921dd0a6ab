import type { ListQuery, ListResult, UserCreate, UserUpdate, UserView } from '@meridian/contracts';
import { Forbidden, NotFound, Unprocessable } from '../errors/domain-errors';
import type { Actor } from '../security/actor';
import { hashPassword } from '../security/password';
import type { SecurityService } from '../security/security.service';
import type { UserRepository } from './user.repository';

/** A user as Superset's `related/{column}` answers one (owners, created_by, changed_by). */
export function relatedUser(u: { id: number; first_name: string; last_name: string; email: string }) {
  return { value: u.id, text: `${u.first_name} ${u.last_name}`.trim(), extra: { email: u.email, active: true } };
}

/** The user columns of `related/{column}` every resource offers. */
export const RELATED_USER_COLUMNS = ['owners', 'created_by', 'changed_by'] as const;

/** Admin use cases on users: list, create, edit, deactivate, assign roles. */
export class UserService {
  constructor(private readonly deps: { users: UserRepository; security: SecurityService }) {}

  /**
   * `GET /api/v1/<resource>/related/{owners,created_by,changed_by}`: the people a resource's list can be
   * filtered by or given, for a caller who may read that resource (`view`, e.g. 'Chart').
   */
  async related(actor: Actor | null, view: string, opts: { filter: string; page: number; pageSize: number }) {
    this.deps.security.require(actor, 'can_read', view);
    const { count, rows } = await this.deps.users.related(opts.filter, opts.page, opts.pageSize);
    return { count, result: rows.map(relatedUser) };
  }

  async list(actor: Actor | null, query: ListQuery): Promise<ListResult<UserView>> {
    this.deps.security.require(actor, 'can_read', 'User');
    const { count, rows } = await this.deps.users.list(query);
    return { count, ids: rows.map((r) => r.id), result: rows };
  }

  async get(actor: Actor | null, id: number): Promise<UserView> {
    this.deps.security.require(actor, 'can_read', 'User');
    const user = await this.deps.users.get(id);
    if (!user) throw new NotFound();
    return user;
  }

  async create(actor: Actor | null, input: UserCreate): Promise<UserView> {
    this.deps.security.require(actor, 'can_write', 'User');
    await this.checkUnique(input.username, input.email);
    await this.checkRoles(input.roles);
    const id = await this.deps.users.create(
      {
        first_name: input.first_name,
        last_name: input.last_name,
        username: input.username,
        email: input.email,
        active: input.active,
        password: await hashPassword(input.password),
        created_by_fk: actor.userId,
        changed_by_fk: actor.userId,
      },
      input.roles,
    );
    this.deps.security.invalidateActors(id);
    return (await this.deps.users.get(id))!;
  }

  async update(actor: Actor | null, id: number, input: UserUpdate): Promise<UserView> {
    this.deps.security.require(actor, 'can_write', 'User');
    if (!(await this.deps.users.get(id))) throw new NotFound();
    await this.checkUnique(input.username, input.email, id);
    if (input.roles) await this.checkRoles(input.roles);
    if (id === actor.userId && input.active === false) throw new Unprocessable('You cannot deactivate yourself.');
    const { roles, password, ...fields } = input;
    await this.deps.users.update(
      id,
      { ...fields, ...(password ? { password: await hashPassword(password) } : {}), changed_by_fk: actor.userId },
      roles,
    );
    this.deps.security.invalidateActors(id);
    return (await this.deps.users.get(id))!;
  }

  async delete(actor: Actor | null, id: number): Promise<void> {
    this.deps.security.require(actor, 'can_write', 'User');
    if (id === actor.userId) throw new Forbidden('You cannot delete yourself.');
    if (!(await this.deps.users.get(id))) throw new NotFound();
    await this.deps.users.delete(id);
    this.deps.security.invalidateActors(id);
  }

  private async checkUnique(username?: string, email?: string, exceptId?: number) {
    if (!username && !email) return;
    const clash = await this.deps.users.findConflicting(username, email, exceptId);
    if (clash) {
      const field = clash.username === username ? 'username' : 'email';
      throw new Unprocessable({ [field]: [`A user with this ${field} already exists.`] });
    }
  }

  private async checkRoles(ids: number[]) {
    const existing = await this.deps.users.existingRoleIds(ids);
    const missing = ids.filter((id) => !existing.includes(id));
    if (missing.length) throw new Unprocessable({ roles: [`Role(s) not found: ${missing.join(', ')}`] });
  }
}
