import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { MemoryEventStream, RedisEventStream } from '../async-event/async-event.service';
import { MemoryCacheStore, RedisCacheStore } from './cache-store';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379/0';
const prefix = `meridian:test:${randomBytes(4).toString('hex')}:`;

describe('MemoryCacheStore', () => {
  it('expires entries after their time to live', async () => {
    let clock = 0;
    const cache = new MemoryCacheStore(1024, () => clock);
    await cache.set('a', 'x', 10);
    expect(await cache.get('a')).toBe('x');
    clock = 10_001;
    expect(await cache.get('a')).toBeNull();
  });
  it('evicts the least recently used entry past its byte bound', async () => {
    const cache = new MemoryCacheStore(40);
    await cache.set('a', '1234567890');
    await cache.set('b', '1234567890');
    await cache.get('a');
    await cache.set('c', '1234567890');
    expect(await cache.get('b')).toBeNull();
    expect(await cache.get('a')).toBe('1234567890');
  });
});

describe('Redis cache and event stream (shared by every web node)', () => {
  const cache = new RedisCacheStore(REDIS_URL, `${prefix}cache:`);
  const stream = new RedisEventStream(REDIS_URL, `${prefix}events:`);
  afterAll(async () => {
    const keys = await cache.redis.keys(`${prefix}*`);
    if (keys.length) await cache.redis.del(...keys);
    await cache.close();
    await stream.close();
  });

  it('stores with a time to live and deletes', async () => {
    await cache.set('k', 'v', 60);
    expect(await cache.get('k')).toBe('v');
    expect(await cache.redis.ttl(`${prefix}cache:k`)).toBeGreaterThan(0);
    await cache.delete('k');
    expect(await cache.get('k')).toBeNull();
  });

  it('reads events after last_id, in order, like the in-process stream', async () => {
    for (const s of [stream, new MemoryEventStream()]) {
      const job = { channel_id: 'c', job_id: 'j', user_id: 1, status: 'done' as const, errors: [], result_url: '/x' };
      const first = await s.add('c', job);
      const second = await s.add('c', { ...job, job_id: 'k' });
      expect((await s.range('c', null, 10)).map((e) => e.job_id)).toEqual(['j', 'k']);
      expect((await s.range('c', first, 10)).map((e) => e.id)).toEqual([second]);
      expect(await s.range('c', second, 10)).toEqual([]);
    }
  });
});
