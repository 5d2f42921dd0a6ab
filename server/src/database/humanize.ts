const UNITS: [string, number][] = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
  ['second', 1],
];

/**
 * Superset's `changed_on_delta_humanized` (humanize.naturaltime): 'a minute ago', '3 days ago', 'now'.
 *
 * @example humanizedDelta(new Date(Date.now() - 120_000)) // '2 minutes ago'
 */
export function humanizedDelta(when: Date | string | null | undefined, now = Date.now()): string {
  if (!when) return '';
  const seconds = Math.round((now - new Date(when).getTime()) / 1000);
  const abs = Math.abs(seconds);
  if (abs < 1) return 'now';
  for (const [unit, size] of UNITS) {
    if (abs >= size) {
      const n = Math.floor(abs / size);
      const text = n === 1 ? `${unit === 'hour' ? 'an' : 'a'} ${unit}` : `${n} ${unit}s`;
      return seconds >= 0 ? `${text} ago` : `${text} from now`;
    }
  }
  return 'now';
}

/** ISO text of a timestamp column (PGlite and pg both give Date). */
export function isoOf(value: Date | string | null | undefined): string {
  if (!value) return '';
  return new Date(value).toISOString();
}

/** A creator or editor as Superset's answers give one (`created_by`, `changed_by`), from a row's joined names; null without one. */
export function auditPerson(id: number | null, first: string | null, last: string | null): { id: number; first_name: string; last_name: string } | null {
  return id ? { id, first_name: first ?? '', last_name: last ?? '' } : null;
}
