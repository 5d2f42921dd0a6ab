/**
 * Slows down repeated failed logins: after each failure for a username (or client address) the next
 * attempt must wait an exponentially growing delay, capped at 30 s; a success clears the count.
 */
export class LoginThrottle {
  private readonly failures = new Map<string, { count: number; last: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Milliseconds the caller must still wait before this key may try again (0 = go ahead). */
  waitFor(key: string): number {
    const entry = this.failures.get(key);
    if (!entry || entry.count < 3) return 0;
    const delay = Math.min(30_000, 500 * 2 ** (entry.count - 3));
    return Math.max(0, entry.last + delay - this.now());
  }

  fail(key: string): void {
    const entry = this.failures.get(key) ?? { count: 0, last: 0 };
    this.failures.set(key, { count: entry.count + 1, last: this.now() });
    if (this.failures.size > 10_000) this.failures.delete(this.failures.keys().next().value!);
  }

  succeed(key: string): void {
    this.failures.delete(key);
  }
}
