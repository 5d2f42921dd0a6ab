import { Redis, type RedisOptions } from 'ioredis';

/**
 * A Redis connection of the server. It reconnects by itself after Redis restarts; meanwhile commands
 * fail (or wait, with `maxRetriesPerRequest: null`) and their callers answer, so connection errors
 * are not also 'error' events, which ioredis prints when nobody listens.
 */
export function redisConnection(url: string, options: RedisOptions = {}): Redis {
  const redis = new Redis(url, { maxRetriesPerRequest: 2, ...options });
  redis.on('error', () => undefined);
  return redis;
}
