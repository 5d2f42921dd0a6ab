import { createRequire } from 'node:module';
import type { Redis, RedisOptions } from 'ioredis';

// Required on the first connection: the embedded default (no REDIS_URL) never loads ioredis.
const load = createRequire(import.meta.url);

/**
 * A Redis connection of the server. It reconnects by itself after Redis restarts; meanwhile commands
 * fail (or wait, with `maxRetriesPerRequest: null`) and their callers answer, so connection errors
 * are not also 'error' events, which ioredis prints when nobody listens.
 */
export function redisConnection(url: string, options: RedisOptions = {}): Redis {
  const { Redis: RedisClient } = load('ioredis') as typeof import('ioredis');
  const redis = new RedisClient(url, { maxRetriesPerRequest: 2, ...options });
  redis.on('error', () => undefined);
  return redis;
}
