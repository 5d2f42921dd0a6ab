/**
 * A map whose entries count only until their own expiry time, for the short-lived caches of the
 * services (tokens, actors, dataset records, metadata, finished queries). Bounded crudely: a
 * `set` on a full map empties it first, which keeps memory flat without any bookkeeping.
 *
 * @example
 * const actors = new ExpiringMap<number, Actor>(10_000);
 * actors.set(1, actor, Date.now() + 5_000);
 * actors.get(1); // the actor for 5 s, then undefined
 */
export class ExpiringMap<K, V> {
  private readonly entries = new Map<K, { value: V; until: number }>();

  constructor(private readonly maxEntries = Infinity) {}

  /** The value of `key` while it has not expired at `now`. */
  get(key: K, now = Date.now()): V | undefined {
    const entry = this.entries.get(key);
    return entry && entry.until > now ? entry.value : undefined;
  }

  /** Keeps `value` until the time `until` (ms since the epoch). */
  set(key: K, value: V, until: number): void {
    if (this.entries.size >= this.maxEntries && !this.entries.has(key)) this.entries.clear();
    this.entries.set(key, { value, until });
  }

  delete(key: K): void {
    this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }

  keys(): IterableIterator<K> {
    return this.entries.keys();
  }
}
