import type { Redis } from 'ioredis';
import { redisConnection } from '../common/redis';

/** How a throttle slows a key down; see `delayAfter`. */
export interface LoginThrottleOptions {
  freeFailures: number;
  firstDelayMs: number;
  maxDelayMs: number;
  forgetAfterMs: number;
}

/**
 * Slows down repeated failed logins for one key: after `freeFailures` failures the next attempt
 * must wait `firstDelayMs`, doubling with each further failure up to `maxDelayMs`. A success, or
 * `forgetAfterMs` without a failure, clears the count.
 */
export interface LoginThrottle {
  /** Milliseconds the caller must still wait before this key may try again (0 = go ahead). */
  waitFor(key: string): Promise<number>;
  fail(key: string): Promise<void>;
  succeed(key: string): Promise<void>;
}

/** The wait left for `count` failures, the last at `last` (epoch ms). */
function waitLeft(opts: LoginThrottleOptions, count: number, last: number, now: number): number {
  if (count < opts.freeFailures) return 0;
  const delay = Math.min(opts.maxDelayMs, opts.firstDelayMs * 2 ** (count - opts.freeFailures));
  return Math.max(0, last + delay - now);
}

/** Counts in this process's memory (bounded): the single-process default. */
export class MemoryLoginThrottle implements LoginThrottle {
  private readonly failures = new Map<string, { count: number; last: number }>();

  constructor(
    private readonly opts: LoginThrottleOptions,
    private readonly now: () => number = Date.now,
  ) {}

  async waitFor(key: string): Promise<number> {
    const entry = this.current(key);
    return entry ? waitLeft(this.opts, entry.count, entry.last, this.now()) : 0;
  }

  async fail(key: string): Promise<void> {
    const entry = this.current(key) ?? { count: 0, last: 0 };
    this.failures.delete(key);
    this.failures.set(key, { count: entry.count + 1, last: this.now() });
    // Forget the least recently failed keys first.
    if (this.failures.size > 10_000) this.failures.delete(this.failures.keys().next().value!);
  }

  private current(key: string): { count: number; last: number } | undefined {
    const entry = this.failures.get(key);
    return entry && this.now() - entry.last < this.opts.forgetAfterMs ? entry : undefined;
  }

  async succeed(key: string): Promise<void> {
    this.failures.delete(key);
  }
}

/**
 * Counts in Redis, shared by every web process: one hash per key under
 * `meridian:login-throttle:<name>:` holding `count` (HINCRBY) and `last` (epoch ms), expiring
 * `forgetAfterMs` after the last failure (PEXPIRE), which is the memory throttle's forgetting.
 */
export class RedisLoginThrottle implements LoginThrottle {
  private readonly prefix: string;

  constructor(
    private readonly redis: Redis,
    name: string,
    private readonly opts: LoginThrottleOptions,
    private readonly now: () => number = Date.now,
  ) {
    this.prefix = `meridian:login-throttle:${name}:`;
  }

  async waitFor(key: string): Promise<number> {
    const [count, last] = await this.redis.hmget(this.prefix + key, 'count', 'last');
    return count ? waitLeft(this.opts, Number(count), Number(last), this.now()) : 0;
  }

  async fail(key: string): Promise<void> {
    const k = this.prefix + key;
    await this.redis.multi().hincrby(k, 'count', 1).hset(k, 'last', this.now()).pexpire(k, this.opts.forgetAfterMs).exec();
  }

  async succeed(key: string): Promise<void> {
    await this.redis.del(this.prefix + key);
  }
}

/**
 * The throttles of this process, one per name: in Redis when a URL is given (N web processes
 * share the counts, over one connection), else in memory. `close` releases the connection.
 */
export function createLoginThrottles<N extends string>(
  names: Record<N, LoginThrottleOptions>,
  redisUrl?: string | null,
): { throttles: Record<N, LoginThrottle>; close: () => Promise<void> } {
  const redis = redisUrl ? redisConnection(redisUrl) : null;
  const throttles = Object.fromEntries(
    Object.entries<LoginThrottleOptions>(names).map(([name, opts]) => [name, redis ? new RedisLoginThrottle(redis, name, opts) : new MemoryLoginThrottle(opts)]),
  ) as unknown as Record<N, LoginThrottle>;
  return { throttles, close: async () => redis?.disconnect() };
}
