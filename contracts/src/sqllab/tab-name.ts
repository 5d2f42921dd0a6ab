import { COPY_OF_TAB, UNTITLED_QUERY_PREFIX, fmt } from '../messages';

const UNTITLED_PATTERN = new RegExp(`^${UNTITLED_QUERY_PREFIX}(\\d+)$`);

/**
 * New tab names are 'Untitled Query N', where N is the next number after the highest in use.
 * Example: `newQueryTabName(['Untitled Query 2', 'Sales'])` → 'Untitled Query 3'; no untitled tab → 'Untitled Query 1'.
 */
export function newQueryTabName(existingNames: readonly (string | null | undefined)[]): string {
  const numbers = existingNames
    .map((name) => (name ? UNTITLED_PATTERN.exec(name) : null))
    .filter((match): match is RegExpExecArray => match !== null)
    .map((match) => Number(match[1]));
  const next = numbers.length > 0 ? Math.max(...numbers) + 1 : 1;
  return `${UNTITLED_QUERY_PREFIX}${next}`;
}

/** Copied tabs are 'Copy of {name}'. */
export function copyTabName(name: string): string {
  return fmt(COPY_OF_TAB, name);
}
