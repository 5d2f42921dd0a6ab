import { parseServerTime } from '@meridian/contracts/rules/dates';
const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** A server timestamp (naive times are UTC, as Superset writes them) in the browser's locale and time zone, e.g. 'Mar 4, 2025, 10:12 AM'. */
export function formatDateTime(iso: string): string {
  const date = new Date(parseServerTime(iso));
  return Number.isNaN(date.getTime()) ? iso : dateTime.format(date);
}
