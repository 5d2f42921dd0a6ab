import type { MetadataDb } from '../db/database';

/** Explore permalinks, stored in the key_value table under resource `explore_permalink`. */
export class ExploreRepository {
  constructor(private readonly db: MetadataDb) {}

  async createPermalink(value: string, userId: number): Promise<string> {
    const row = await this.db.insertInto('key_value').values({ resource: 'explore_permalink', value, created_by_fk: userId }).returning('uuid').executeTakeFirstOrThrow();
    return row.uuid;
  }

  async permalink(uuid: string): Promise<string | null> {
    if (!/^[0-9a-f-]{36}$/i.test(uuid)) return null;
    const row = await this.db.selectFrom('key_value').select('value').where('resource', '=', 'explore_permalink').where('uuid', '=', uuid).executeTakeFirst();
    return row?.value ?? null;
  }
}
