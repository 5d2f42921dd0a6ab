import type { AsyncEvent, AsyncJobMetadata } from '@meridian/contracts';
import type { Redis } from 'ioredis';
import { redisConnection } from '../common/redis';
import type { Actor } from '../security/actor';
import type { SecurityService } from '../security/security.service';

/** Where async events live: an in-process stream, or Redis Streams so any web node can serve any client. */
export interface AsyncEventStream {
  /** Appends an event and returns its id (`<ms>-<seq>`, as Redis stream ids). */
  add(channel: string, event: AsyncJobMetadata): Promise<string>;
  /** Events after `lastId` (all when null), oldest first. */
  range(channel: string, lastId: string | null, count: number): Promise<AsyncEvent[]>;
  close(): Promise<void>;
}

const MAX_EVENTS = 1000;

function compareIds(a: string, b: string): number {
  const [am, as] = a.split('-').map(Number);
  const [bm, bs] = b.split('-').map(Number);
  return am - bm || as - bs;
}

/** In-process event stream per channel (bounded). */
export class MemoryEventStream implements AsyncEventStream {
  private readonly channels = new Map<string, AsyncEvent[]>();
  private lastMs = 0;
  private seq = 0;

  async add(channel: string, event: AsyncJobMetadata): Promise<string> {
    const ms = Date.now();
    this.seq = ms === this.lastMs ? this.seq + 1 : 0;
    this.lastMs = Math.max(ms, this.lastMs);
    const id = `${this.lastMs}-${this.seq}`;
    const list = this.channels.get(channel) ?? [];
    list.push({ ...event, id });
    if (list.length > MAX_EVENTS) list.splice(0, list.length - MAX_EVENTS);
    this.channels.set(channel, list);
    return id;
  }

  async range(channel: string, lastId: string | null, count: number): Promise<AsyncEvent[]> {
    const list = this.channels.get(channel) ?? [];
    return (lastId ? list.filter((e) => compareIds(e.id, lastId) > 0) : list).slice(0, count);
  }

  async close(): Promise<void> {
    this.channels.clear();
  }
}

/** Redis Streams (`XADD` / `XRANGE`) under a key prefix. */
export class RedisEventStream implements AsyncEventStream {
  private readonly redis: Redis;

  constructor(url: string, private readonly prefix = 'meridian:async-events:') {
    this.redis = redisConnection(url);
  }

  async add(channel: string, event: AsyncJobMetadata): Promise<string> {
    const id = await this.redis.xadd(this.prefix + channel, 'MAXLEN', '~', String(MAX_EVENTS), '*', 'data', JSON.stringify(event));
    return id ?? '';
  }

  async range(channel: string, lastId: string | null, count: number): Promise<AsyncEvent[]> {
    const entries = await this.redis.xrange(this.prefix + channel, lastId ? `(${lastId}` : '-', '+', 'COUNT', count);
    return entries.map(([id, fields]) => ({ ...(JSON.parse(fields[fields.indexOf('data') + 1]) as AsyncJobMetadata), id }));
  }

  async close(): Promise<void> {
    this.redis.disconnect();
  }
}

/** Async query events (spec 01 §7 "Asynchronous events"): publish on job completion, read by polling or WebSocket. */
export class AsyncEventService {
  private readonly listeners = new Map<string, Set<(event: AsyncEvent) => void>>();

  constructor(
    private readonly deps: { stream: AsyncEventStream; security: SecurityService },
  ) {}

  /** The channel of a user's events. */
  channelFor(actor: Actor): string {
    return `user-${actor.userId}`;
  }

  async publish(channel: string, event: AsyncJobMetadata): Promise<void> {
    const id = await this.deps.stream.add(channel, event);
    for (const listener of this.listeners.get(channel) ?? []) listener({ ...event, id });
  }

  /** `GET /api/v1/async_event/?last_id=`: the caller's events after `last_id`. */
  async events(actor: Actor | null, lastId: string | null): Promise<AsyncEvent[]> {
    this.deps.security.require(actor, 'can_read', 'AsyncEventsRestApi');
    if (lastId && !/^\d+-\d+$/.test(lastId)) return this.deps.stream.range(this.channelFor(actor), null, 100);
    return this.deps.stream.range(this.channelFor(actor), lastId || null, 100);
  }

  /** Calls `listener` for each new event of the channel (the WebSocket door); returns the unsubscribe function. */
  subscribe(channel: string, listener: (event: AsyncEvent) => void): () => void {
    const set = this.listeners.get(channel) ?? new Set();
    set.add(listener);
    this.listeners.set(channel, set);
    return () => set.delete(listener);
  }

  close(): Promise<void> {
    return this.deps.stream.close();
  }
}
