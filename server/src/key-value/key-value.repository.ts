import type { MetadataDb } from '../db/database';

/** The `key_value` store (shared SQL Lab queries and other small blobs). */
export class KeyValueRepository {
  constructor(private readonly db: MetadataDb) {}

  async put(resource: string, value: string, userId: number): Promise<number> {
    const { id } = await this.db.insertInto('key_value').values({ resource, value, created_by_fk: userId }).returning('id').executeTakeFirstOrThrow();
    return id;
  }

  get(resource: string, id: number) {
    return this.db.selectFrom('key_value').select(['id', 'value', 'expires_on']).where('resource', '=', resource).where('id', '=', id).executeTakeFirst();
  }
}
