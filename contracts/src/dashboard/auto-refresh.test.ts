import { describe, expect, it } from 'vitest';
import { REFRESH_INTERVALS, staggerDelays } from './auto-refresh';

describe('auto-refresh', () => {
  it("'Staggered refresh: enabled by default. The interval is the larger of the refresh interval and stagger_time (default 5000 ms), divided across charts.'", () => {
    expect([...staggerDelays([1, 2, 3], 10, {})]).toEqual([[1, 0], [2, 2500], [3, 5000]]);
    // A 1 hour period: a fifth of it (720 s) is larger than stagger_time.
    expect(staggerDelays([1, 2], 3600, { stagger_time: 1000 }).get(2)).toBe(720_000);
    expect(staggerDelays([1, 2], 10, { stagger_time: 8000 }).get(2)).toBe(8000);
  });

  it('refreshes every chart at once when staggering is off, and never the timed-refresh-immune ones', () => {
    expect([...staggerDelays([1, 2, 3], 60, { stagger_refresh: false })]).toEqual([[1, 0], [2, 0], [3, 0]]);
    expect([...staggerDelays([1, 2, 3], 10, { timed_refresh_immune_slices: [2] })]).toEqual([[1, 0], [3, 5000]]);
  });

  it('offers no refresh and intervals from 10 seconds to 24 hours', () => {
    expect(REFRESH_INTERVALS[0]).toEqual([0, "Don't refresh"]);
    expect(REFRESH_INTERVALS.map(([s]) => s)).toEqual([0, 10, 30, 60, 300, 1800, 3600, 21600, 43200, 86400]);
  });
});
