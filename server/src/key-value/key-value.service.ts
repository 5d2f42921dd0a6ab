import { NotFound } from '../errors/domain-errors';
import type { Actor } from '../security/actor';
import type { SecurityService } from '../security/security.service';
import type { KeyValueRepository } from './key-value.repository';

/** Resource name of SQL Lab's shared queries in `key_value`. */
export const SQLLAB_SHARED = 'sqllab_shared';

/** Superset's legacy `/kv/` store: SQL Lab keeps shared queries here and builds a link from the id. */
export class KeyValueService {
  constructor(private readonly deps: { keyValues: KeyValueRepository; security: SecurityService }) {}

  async store(actor: Actor | null, data: string): Promise<number> {
    this.deps.security.require(actor, 'can_sqllab', 'Superset');
    return this.deps.keyValues.put(SQLLAB_SHARED, data, actor.userId);
  }

  /** The stored text; any signed-in user may open a shared link. */
  async get(actor: Actor | null, id: number): Promise<string> {
    if (!actor) this.deps.security.require(actor, 'can_sqllab', 'Superset');
    const row = await this.deps.keyValues.get(SQLLAB_SHARED, id);
    if (!row || (row.expires_on && new Date(row.expires_on).getTime() < Date.now())) throw new NotFound();
    return row.value;
  }
}
