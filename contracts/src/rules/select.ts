import { SELECT_ALL } from '../messages';

/** Select option of spec 01 §3. */
export interface SelectOption<V = string | number> {
  value: V;
  label: string;
  disabled?: boolean;
  isNewOption?: boolean;
  customLabel?: string;
}

/** Spec 01 §9 select limits. */
export const SELECT_PAGE_SIZE = 100;
export const SELECT_TOKEN_SEPARATORS = [',', '\r\n', '\n', '\t', ';'] as const;
export const MAX_TAG_COUNT = 4;
export const TAG_MAX_LENGTH = 20;
export const LAZY_LOAD_THRESHOLD = 0.7;
/** Value of the synthetic 'Select All' option. */
export const SELECT_ALL_VALUE = SELECT_ALL;

/** Splits pasted text on comma, CRLF, newline, tab and semicolon; trims, drops empty pieces and duplicates. */
export function splitPastedText(text: string): string[] {
  const pieces = text.split(/\r\n|[,\n\t;]/).map((piece) => piece.trim()).filter((piece) => piece.length > 0);
  return [...new Set(pieces)];
}

/** Tags longer than 20 characters are shortened with an ellipsis. Example: 21 chars → first 20 + '…'. */
export function truncateTag(label: string, maxLength: number = TAG_MAX_LENGTH): string {
  return label.length > maxLength ? `${label.slice(0, maxLength)}…` : label;
}

/** Values of all enabled options. */
export function enabledValues<V>(options: readonly SelectOption<V>[]): V[] {
  return options.filter((option) => !option.disabled).map((option) => option.value);
}

/** True when every enabled option is selected (the 'Select All' checkbox state). */
export function isAllSelected<V>(selected: readonly V[], options: readonly SelectOption<V>[]): boolean {
  const values = enabledValues(options);
  return values.length > 0 && values.every((value) => selected.includes(value));
}

/**
 * 'Select All' toggles all enabled options: when all are selected, it clears them (disabled ones stay as
 * they were); otherwise it selects them all.
 */
export function toggleSelectAll<V>(selected: readonly V[], options: readonly SelectOption<V>[]): V[] {
  const values = enabledValues(options);
  if (isAllSelected(selected, options)) return selected.filter((value) => !values.includes(value));
  return [...selected, ...values.filter((value) => !selected.includes(value))];
}

/** Deselecting any option drops it (and therefore also un-ticks 'Select All'). */
export function deselectValue<V>(selected: readonly V[], value: V): V[] {
  return selected.filter((item) => item !== value);
}

/** Lazy paging: fetch the next page once scrolled past 70% of the scrollable height, unless all are loaded. */
export function shouldFetchNextPage(
  scrollTop: number,
  clientHeight: number,
  scrollHeight: number,
  allLoaded: boolean,
): boolean {
  if (allLoaded) return false;
  return scrollTop > (scrollHeight - clientHeight) * LAZY_LOAD_THRESHOLD;
}

/** Pages already fetched are cached by search text and page number. */
export function selectPageCacheKey(search: string, page: number): string {
  return `${search};${page}`;
}

/** All options are loaded when the fetched count reaches the total count reported by the server. */
export function isAllLoaded(loadedCount: number, totalCount: number): boolean {
  return loadedCount >= totalCount;
}
