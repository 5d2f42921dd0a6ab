/**
 * Dashboard auto-refresh (spec 02 §2 autorefresh modal, §4 staggered refresh): the intervals offered,
 * and when each chart refreshes within one periodic refresh.
 */

/** The intervals of the auto-refresh modal, in seconds, with their labels (0: no refresh). */
export const REFRESH_INTERVALS: ReadonlyArray<readonly [number, string]> = [
  [0, "Don't refresh"],
  [10, '10 seconds'],
  [30, '30 seconds'],
  [60, '1 minute'],
  [300, '5 minutes'],
  [1800, '30 minutes'],
  [3600, '1 hour'],
  [21600, '6 hours'],
  [43200, '12 hours'],
  [86400, '24 hours'],
];

export const DEFAULT_STAGGER_TIME_MS = 5000;

/**
 * The delay of each chart's refresh after a periodic refresh fires. spec 02 §4: 'Staggered refresh:
 * enabled by default. The interval is the larger of the refresh interval and stagger_time (default
 * 5000 ms), divided across charts.' As Superset, the refresh interval here is a fifth of the period, and
 * charts listed as timed-refresh-immune are left out.
 */
export function staggerDelays(chartIds: number[], periodSeconds: number, metadata: { stagger_refresh?: unknown; stagger_time?: unknown; timed_refresh_immune_slices?: unknown }): Map<number, number> {
  const immune = new Set(Array.isArray(metadata.timed_refresh_immune_slices) ? metadata.timed_refresh_immune_slices.map(Number) : []);
  const charts = chartIds.filter((id) => !immune.has(id));
  const stagger = metadata.stagger_refresh !== false;
  const staggerTime = Number(metadata.stagger_time) > 0 ? Number(metadata.stagger_time) : DEFAULT_STAGGER_TIME_MS;
  const window = Math.max(periodSeconds * 1000 * 0.2, staggerTime);
  const step = stagger && charts.length > 1 ? window / (charts.length - 1) : 0;
  return new Map(charts.map((id, i) => [id, Math.round(step * i)]));
}
