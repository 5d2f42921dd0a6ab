import { NotFound } from '../errors/domain-errors';
import type { Actor } from '../security/actor';
import type { SecurityService } from '../security/security.service';
import type { SqlLabPermalinkState } from '@meridian/contracts';
import type { KeyValueRepository } from './key-value.repository';
import type { PermalinkRepository } from './permalink.repository';

/** Resource name of SQL Lab's shared queries in `key_value`. */
export const SQLLAB_SHARED = 'sqllab_shared';

/** Superset's legacy `/kv/` store: SQL Lab keeps shared queries here and builds a link from the id. */
export class KeyValueService {
  constructor(private readonly deps: { keyValues: KeyValueRepository; permalinks: PermalinkRepository; security: SecurityService }) {}

  /** `POST /api/v1/sqllab/permalink`: a tab's query (database, schema, SQL, name) kept under a key. */
  async createSqlLabPermalink(actor: Actor | null, state: SqlLabPermalinkState, baseUrl: string): Promise<{ key: string; url: string }> {
    this.deps.security.require(actor, 'can_write', 'SqlLabPermalinkRestApi');
    const key = await this.deps.permalinks.create('sqllab_permalink', JSON.stringify(state), actor.userId);
    return { key, url: `${baseUrl}/sqllab/p/${key}` };
  }

  /** `GET /api/v1/sqllab/permalink/{key}`: the kept state; any SQL Lab user with the link may open it. */
  async sqlLabPermalink(actor: Actor | null, key: string): Promise<SqlLabPermalinkState> {
    this.deps.security.require(actor, 'can_read', 'SqlLabPermalinkRestApi');
    const value = await this.deps.permalinks.get('sqllab_permalink', key);
    if (!value) throw new NotFound();
    return JSON.parse(value) as SqlLabPermalinkState;
  }

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
