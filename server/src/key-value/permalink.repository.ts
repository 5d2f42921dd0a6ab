import type { MetadataDb } from '../db/database';

/** Where each kind of permalink lives in `key_value` (Superset's KeyValueResource). */
export type PermalinkResource = 'explore_permalink' | 'dashboard_permalink' | 'sqllab_permalink';

/** Permalinks of every kind: a state stored in `key_value` under its resource, found again by its uuid. */
export class PermalinkRepository {
  constructor(private readonly db: MetadataDb) {}

  async create(resource: PermalinkResource, value: string, userId: number): Promise<string> {
    const row = await this.db.insertInto('key_value').values({ resource, value, created_by_fk: userId }).returning('uuid').executeTakeFirstOrThrow();
    return row.uuid;
  }

  /** The stored value, or null for an unknown (or malformed) key. */
  async get(resource: PermalinkResource, key: string): Promise<string | null> {
    if (!/^[0-9a-f-]{36}$/i.test(key)) return null;
    const row = await this.db.selectFrom('key_value').select('value').where('resource', '=', resource).where('uuid', '=', key).executeTakeFirst();
    return row?.value ?? null;
  }
}
