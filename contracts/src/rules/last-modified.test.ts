import { describe, expect, it } from 'vitest';
import { isStaleCopy, lastModifiedTimeOf } from './last-modified';

// Issue 10: "The server must not let a save made from an older copy delete what it never saw ...
// A PUT without it, as scripts send, is not checked ... think about two saves within the same second."
describe('isStaleCopy', () => {
  it('never refuses a save that sends no last_modified_time, as scripts send', () => {
    expect(isStaleCopy(undefined, new Date())).toBe(false);
    expect(isStaleCopy(null, new Date())).toBe(false);
  });

  it('accepts the time of the stored copy itself, read back from the GET', () => {
    for (const ms of [1732475715000, 1732475715001, 1732475715123, 1732475715999, 1_000_000_000_007]) {
      const stored = new Date(ms);
      // The time travels as JSON text and back, as the screen sends it.
      const sent = JSON.parse(JSON.stringify(lastModifiedTimeOf(stored.toISOString())));
      expect(isStaleCopy(sent, stored)).toBe(false);
    }
  });

  it('refuses a copy older than the stored one by a millisecond, also within the same second', () => {
    const opened = new Date(1732475715123);
    expect(isStaleCopy(lastModifiedTimeOf(opened), new Date(1732475715124))).toBe(true);
    expect(isStaleCopy(lastModifiedTimeOf(opened), new Date(1732475715900))).toBe(true);
    expect(isStaleCopy(lastModifiedTimeOf(opened), new Date(1732475800000))).toBe(true);
  });

  it('treats whole seconds as an exact time: a copy truncated to its second is older than the stored one', () => {
    expect(isStaleCopy(1732475715, new Date(1732475715123))).toBe(true);
    expect(isStaleCopy(1732475716, new Date(1732475715123))).toBe(false);
  });
});
