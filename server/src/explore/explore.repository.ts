import type { MetadataDb } from '../db/database';
import { PermalinkRepository } from '../key-value/permalink.repository';

/** Explore permalinks, stored in the key_value table under resource `explore_permalink`. */
export class ExploreRepository {
  private readonly permalinks: PermalinkRepository;
  constructor(db: MetadataDb) {
    this.permalinks = new PermalinkRepository(db);
  }

  createPermalink(value: string, userId: number): Promise<string> {
    return this.permalinks.create('explore_permalink', value, userId);
  }

  permalink(uuid: string): Promise<string | null> {
    return this.permalinks.get('explore_permalink', uuid);
  }
}
