import { parseServerTime } from './dates';

/**
 * Stale-copy rule of an editor that saves a whole object (dataset, dashboard): the screen sends the
 * `last_modified_time` of the copy it edited, and a save made from a copy older than the stored one is
 * refused, so it cannot delete what it never saw. Times are epoch seconds with a millisecond fraction,
 * so two saves within one second are told apart; comparison is in whole milliseconds, the precision a
 * stored time survives a JSON round trip with.
 */

/** The message of the refusal (409), naming what to do: `staleCopyMessage('dataset')`. */
export function staleCopyMessage(noun: string): string {
  return `This ${noun} was changed by another save since it was opened. Reload it to get the latest version, then make your changes again.`;
}

/** `last_modified_time` of a stored `changed_on`: epoch seconds with its milliseconds, e.g. `1732475715.123`. */
export function lastModifiedTimeOf(changedOn: Date | string): number {
  return (typeof changedOn === 'string' ? parseServerTime(changedOn) : changedOn.getTime()) / 1000;
}

/**
 * Whether a save made from the copy of `lastModifiedTime` must be refused because the stored copy
 * (`changedOn`) is newer. No time given (a script's PUT) is never refused; the time of the stored copy
 * itself is fresh, and any earlier time is stale.
 *
 * @example isStaleCopy(1732475715.123, new Date(1732475715500)) // true: another save 377 ms later
 */
export function isStaleCopy(lastModifiedTime: number | null | undefined, changedOn: Date | string): boolean {
  if (lastModifiedTime === null || lastModifiedTime === undefined) return false;
  return Math.round(lastModifiedTime * 1000) < (typeof changedOn === 'string' ? parseServerTime(changedOn) : changedOn.getTime());
}
