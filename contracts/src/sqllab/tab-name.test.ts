import { describe, it, expect } from 'vitest';
import { copyTabName, newQueryTabName } from './tab-name';

describe('tab naming (spec 01 §5)', () => {
  it("'New tab names are Untitled Query N, where N is the next number after the highest in use'", () => {
    expect(newQueryTabName([])).toBe('Untitled Query 1');
    expect(newQueryTabName(['Sales'])).toBe('Untitled Query 1');
    expect(newQueryTabName(['Untitled Query 1', 'Untitled Query 5', 'Untitled Query 2'])).toBe('Untitled Query 6');
    expect(newQueryTabName(['Untitled Query 3x', 'Untitled Query  4', undefined])).toBe('Untitled Query 1');
  });

  it("'Copied tabs are Copy of {name}'", () => {
    expect(copyTabName('Sales')).toBe('Copy of Sales');
  });
});
