import { describe, it, expect } from 'vitest';
import {
  MAX_TAG_COUNT,
  SELECT_PAGE_SIZE,
  deselectValue,
  isAllSelected,
  selectPageCacheKey,
  shouldFetchNextPage,
  splitPastedText,
  toggleSelectAll,
  truncateTag,
  type SelectOption,
} from './select';

const options: SelectOption<string>[] = [
  { value: 'a', label: 'A' },
  { value: 'b', label: 'B' },
  { value: 'c', label: 'C', disabled: true },
];

describe('select inputs (spec 01 §4, §5, §9)', () => {
  it("'separators comma, CRLF, newline, tab, semicolon'", () => {
    expect(splitPastedText('a,b\r\nc\nd\te;f')).toEqual(['a', 'b', 'c', 'd', 'e', 'f']);
  });

  it('trims pieces, drops empty ones and duplicates', () => {
    expect(splitPastedText(' a , ,b;;a\n\n')).toEqual(['a', 'b']);
  });

  it("'tags longer than 20 characters are shortened with an ellipsis'", () => {
    expect(truncateTag('12345678901234567890')).toBe('12345678901234567890');
    expect(truncateTag('123456789012345678901')).toBe('12345678901234567890…');
  });

  it("'default max tags 4' and 'page size 100'", () => {
    expect(MAX_TAG_COUNT).toBe(4);
    expect(SELECT_PAGE_SIZE).toBe(100);
  });

  it("\"'Select All' toggles all enabled options\"", () => {
    expect(toggleSelectAll([], options)).toEqual(['a', 'b']);
    expect(isAllSelected(['a', 'b'], options)).toBe(true);
    expect(toggleSelectAll(['a', 'b'], options)).toEqual([]);
    expect(toggleSelectAll(['b'], options)).toEqual(['b', 'a']);
  });

  it("'deselecting any option drops it'", () => {
    const after = deselectValue(['a', 'b'], 'a');
    expect(after).toEqual(['b']);
    expect(isAllSelected(after, options)).toBe(false);
  });

  it("'fetches pages of 100 when scrolling past 70 percent ... and stops when all options are loaded'", () => {
    // scrollable range is 1000 - 200 = 800; 70% is 560
    expect(shouldFetchNextPage(560, 200, 1000, false)).toBe(false);
    expect(shouldFetchNextPage(561, 200, 1000, false)).toBe(true);
    expect(shouldFetchNextPage(800, 200, 1000, true)).toBe(false);
  });

  it("'caches by search text and page'", () => {
    expect(selectPageCacheKey('abc', 2)).toBe(selectPageCacheKey('abc', 2));
    expect(selectPageCacheKey('abc', 2)).not.toBe(selectPageCacheKey('abc', 1));
    expect(selectPageCacheKey('ab', 2)).not.toBe(selectPageCacheKey('abc', 2));
  });
});
