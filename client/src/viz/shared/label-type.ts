/** Superset's label types (form data `label_type`), in the order of the funnel's stored numbers (Key 0 … 6). */
export const LABEL_TYPES = ['key', 'value', 'percent', 'key_value', 'key_percent', 'key_value_percent', 'value_percent'] as const;
export type LabelType = (typeof LABEL_TYPES)[number];

/** What each label type reads, from the category name, its formatted value and its formatted share. */
const LABEL_TEXTS: Record<LabelType, (name: string, value: string, percent: string) => string> = {
  key: (n) => n,
  value: (_n, v) => v,
  percent: (_n, _v, p) => p,
  key_value: (n, v) => `${n}: ${v}`,
  key_percent: (n, _v, p) => `${n}: ${p}`,
  key_value_percent: (n, v, p) => `${n}: ${v} (${p})`,
  value_percent: (_n, v, p) => `${v} (${p})`,
};

/**
 * A label's text as its label type says, among the types a chart offers: a type it does not offer (or none) reads as
 * the first offered, so a chart with no shares never shows an empty percent.
 *
 * @example labelOfType('key_value_percent', { name: 'boy', value: '3k', percent: '75.00%' }) // 'boy: 3k (75.00%)'
 * @example labelOfType(undefined, { name: 'CA', value: '50' }, ['value', 'key_value']) // '50'
 */
export function labelOfType(type: unknown, parts: { name: string; value: string; percent?: string }, offered: readonly LabelType[] = LABEL_TYPES): string {
  const shown = offered.find((t) => t === type) ?? offered[0]!;
  return LABEL_TEXTS[shown](parts.name, parts.value, parts.percent ?? '');
}
