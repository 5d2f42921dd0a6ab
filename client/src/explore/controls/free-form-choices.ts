/** One choice of a select: its value as the input holds it (text), its label, and the value the control stores. */
export interface FreeFormChoice {
  value: string;
  label: string;
  raw: unknown;
}

/**
 * The options of a creatable select (Superset's format pickers, row limit, ...): every choice, the current value when
 * it is none of them (a format the user typed earlier), and first, while the search text matches no choice exactly,
 * the search text itself, so a typed d3 format such as '$,.1f' can be picked. Numbers stay numbers when the choices
 * are numbers. The select filters these by its search text; when that text is the selected label it shows them all.
 *
 * @example freeFormChoices([{ value: ',d', label: ',d', raw: ',d' }], '$,.1f', ',d')[0] // { value: '$,.1f', label: '$,.1f', raw: '$,.1f' }
 */
export function freeFormChoices(choices: FreeFormChoice[], search: string, current: unknown): FreeFormChoice[] {
  const numeric = choices.length > 0 && choices.every((c) => typeof c.raw === 'number');
  const own = (text: string): FreeFormChoice | null => {
    const typed = text.trim();
    if (!typed || choices.some((c) => c.value === typed || c.label === typed)) return null;
    if (numeric) return Number.isNaN(Number(typed)) ? null : { value: typed, label: typed, raw: Number(typed) };
    return { value: typed, label: typed, raw: typed };
  };
  // The current value is kept as it is stored, even text the validators refuse (a row limit of 'abc').
  const currentText = current === null || current === undefined ? '' : String(current).trim();
  const kept: FreeFormChoice | null = currentText && !choices.some((c) => c.value === currentText) ? { value: currentText, label: currentText, raw: current } : null;
  const typed = own(search);
  return [...(typed && typed.value !== kept?.value ? [typed] : []), ...choices, ...(kept ? [kept] : [])];
}
