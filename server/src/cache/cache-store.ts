import type { Redis } from 'ioredis';
import { redisConnection } from '../common/redis';

/**
 * A key/value cache with per-entry time to live: chart data results, explore form data, async
 * events. In-process (bounded by bytes, least recently used evicted) by default, Redis when
 * REDIS_URL is set so every web node shares it.
 */
export interface CacheStore {
  get(key: string): Promise<string | null>;
  /** `ttlSeconds` 0 or null keeps the entry until evicted. */
  set(key: string, value: string, ttlSeconds?: number | null): Promise<void>;
  delete(key: string): Promise<void>;
  close(): Promise<void>;
}

/** In-process LRU cache bounded by total bytes of its values. */
export class MemoryCacheStore implements CacheStore {
  private readonly entries = new Map<string, { value: string; expires: number | null }>();
  private bytes = 0;

  constructor(
    private readonly maxBytes = 256 * 1024 * 1024,
    private readonly now: () => number = Date.now,
  ) {}

  async get(key: string): Promise<string | null> {
    const entry = this.entries.get(key);
    if (!entry) return null;
    if (entry.expires !== null && entry.expires <= this.now()) {
      this.remove(key);
      return null;
    }
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  async set(key: string, value: string, ttlSeconds?: number | null): Promise<void> {
    this.remove(key);
    if (value.length * 2 > this.maxBytes) return;
    this.entries.set(key, { value, expires: ttlSeconds ? this.now() + ttlSeconds * 1000 : null });
    this.bytes += value.length * 2;
    for (const oldest of this.entries.keys()) {
      if (this.bytes <= this.maxBytes) break;
      this.remove(oldest);
    }
  }

  async delete(key: string): Promise<void> {
    this.remove(key);
  }

  private remove(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.bytes -= entry.value.length * 2;
    this.entries.delete(key);
  }

  async close(): Promise<void> {
    this.entries.clear();
    this.bytes = 0;
  }
}

/** Redis-backed cache (`SET key value EX ttl`) under a key prefix. */
export class RedisCacheStore implements CacheStore {
  readonly redis: Redis;

  constructor(url: string, private readonly prefix = 'meridian:cache:') {
    this.redis = redisConnection(url);
  }

  async get(key: string): Promise<string | null> {
    return this.redis.get(this.prefix + key);
  }

  async set(key: string, value: string, ttlSeconds?: number | null): Promise<void> {
    if (ttlSeconds) await this.redis.set(this.prefix + key, value, 'EX', Math.ceil(ttlSeconds));
    else await this.redis.set(this.prefix + key, value);
  }

  async delete(key: string): Promise<void> {
    await this.redis.del(this.prefix + key);
  }

  async close(): Promise<void> {
    this.redis.disconnect();
  }
}

/** The cache for this process: Redis when a URL is given, else in memory. */
export function createCacheStore(opts: { redisUrl?: string | null; prefix?: string; maxBytes?: number }): CacheStore {
  return opts.redisUrl ? new RedisCacheStore(opts.redisUrl, opts.prefix) : new MemoryCacheStore(opts.maxBytes);
}

