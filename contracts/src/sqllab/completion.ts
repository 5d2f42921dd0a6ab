/** Kinds of words the SQL editor's autocomplete offers. */
export type CompletionKind = 'column' | 'table' | 'schema' | 'function' | 'keyword';

/**
 * Score of each kind: tables and columns first, then schemas, then functions, then keywords. The gaps are wider
 * than any caption, so the editor's penalty for a match further into a word never lets a later kind overtake.
 */
export const COMPLETION_KIND_SCORE: Record<CompletionKind, number> = {
  column: 4000,
  table: 4000,
  schema: 3000,
  function: 2000,
  keyword: 1000,
};

export interface RankedCompletion {
  caption: string;
  kind: CompletionKind;
  score: number;
}

/**
 * The words matching what was typed, best first, in the order the editor's popup shows them: words that start
 * with the typed text before words that only contain it; then by kind (tables and columns, schemas, functions,
 * keywords); then the earlier the match, the better; then alphabetically. Matching ignores case.
 *
 * @example rankCompletions([{ caption: 'NULLS LAST', kind: 'keyword' }, { caption: 'numbers', kind: 'table' }], 'nu')
 *   // numbers, then NULLS LAST
 */
export function rankCompletions<T extends { caption: string; kind: CompletionKind }>(words: readonly T[], typed: string): (T & { score: number })[] {
  const needle = typed.toLowerCase();
  const matched: { word: T & { score: number }; at: number }[] = [];
  for (const word of words) {
    const at = word.caption.toLowerCase().indexOf(needle);
    if (at < 0) continue;
    matched.push({ word: { ...word, score: COMPLETION_KIND_SCORE[word.kind] }, at });
  }
  matched.sort(
    (a, b) =>
      Number(b.at === 0) - Number(a.at === 0) ||
      b.word.score - b.at - (a.word.score - a.at) ||
      a.word.caption.localeCompare(b.word.caption),
  );
  return matched.map((m) => m.word);
}

const TABLE_REFERENCE = /\b(?:from|join|update|into)\s+((?:"[^"]+"|`[^`]+`|[\w$]+)(?:\s*\.\s*(?:"[^"]+"|`[^`]+`|[\w$]+))*)/gi;

/**
 * Table names a statement refers to (after FROM, JOIN, UPDATE or INTO), unquoted and without their schema, in order
 * of appearance. The whole statement counts, so a select list typed before (or above) its FROM gets the columns.
 *
 * @example referencedTableNames('SELECT  FROM main."Sales" s JOIN regions r ON ...') // ['Sales', 'regions']
 */
export function referencedTableNames(sql: string): string[] {
  const names: string[] = [];
  for (const match of sql.matchAll(TABLE_REFERENCE)) {
    const parts = match[1].split('.').map((part) => part.trim().replace(/^["`]|["`]$/g, ''));
    const name = parts[parts.length - 1];
    if (name && !names.includes(name)) names.push(name);
  }
  return names;
}
