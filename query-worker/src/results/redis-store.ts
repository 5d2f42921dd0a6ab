import { createRequire } from 'node:module';
import type { Redis } from 'ioredis';
import type { ResultMeta } from '../types.ts';
import type { ResultsBackend } from './results-backend.ts';

export interface RedisResultsStoreOptions {
  url: string;
  keyPrefix: string;
  ttlSeconds: number;
}

/** Results in Redis: `<prefix><key>:meta` and `<prefix><key>:page:<n>`, each with the TTL. */
export class RedisResultsStore implements ResultsBackend {
  private readonly redis: Redis;
  private readonly options: RedisResultsStoreOptions;

  constructor(options: RedisResultsStoreOptions) {
    this.options = options;
    // Required here, not imported: a process without REDIS_URL never loads ioredis.
    const { Redis: RedisClient } = createRequire(import.meta.url)('ioredis') as typeof import('ioredis');
    this.redis = new RedisClient(options.url, { lazyConnect: false, maxRetriesPerRequest: 2, enableOfflineQueue: true });
    // Errors surface on commands; an unhandled 'error' event would crash the thread.
    this.redis.on('error', () => undefined);
  }

  private pageKey(key: string, pageIndex: number): string {
    return `${this.options.keyPrefix}${key}:page:${pageIndex}`;
  }

  private metaKey(key: string): string {
    return `${this.options.keyPrefix}${key}:meta`;
  }

  async putPage(key: string, pageIndex: number, bytes: Buffer): Promise<void> {
    await this.redis.set(this.pageKey(key, pageIndex), bytes, 'EX', this.options.ttlSeconds);
  }

  async putMeta(key: string, meta: ResultMeta): Promise<void> {
    await this.redis.set(this.metaKey(key), JSON.stringify(meta), 'EX', this.options.ttlSeconds);
  }

  async getPage(key: string, pageIndex: number): Promise<Buffer | null> {
    return this.redis.getBuffer(this.pageKey(key, pageIndex));
  }

  async getMeta(key: string): Promise<ResultMeta | null> {
    const text = await this.redis.get(this.metaKey(key));
    return text ? (JSON.parse(text) as ResultMeta) : null;
  }

  async delete(key: string): Promise<void> {
    const meta = await this.getMeta(key);
    const keys = [this.metaKey(key)];
    const known = meta?.pageCount ?? 0;
    for (let i = 0; i < known; i++) keys.push(this.pageKey(key, i));
    await this.redis.del(...keys);
    // Pages of a result that never got its meta (stopped, timed out): written in order from 0.
    for (let i = known; (await this.redis.del(this.pageKey(key, i))) > 0; i++);
  }

  async close(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}
