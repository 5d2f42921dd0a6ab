import type { KeyboardEvent } from 'react';

/**
 * Escape for a popover whose fields open dropdowns of their own (a Select's options): an open dropdown takes the
 * Escape and closes alone, otherwise the popover closes. Mantine's popover closes on Escape in the capture phase,
 * before the field's dropdown sees the key, so an Escape meant for the options discarded the edit. Give the popover
 * `closeOnEscape={false}` and its dropdown `onKeyDown={closeOnEscape(close)}`; a field marks its open dropdown with
 * `data-mantine-stop-propagation`, as Mantine's modal reads it.
 */
export function closeOnEscape(close: () => void) {
  return (event: KeyboardEvent<HTMLElement>) => {
    const target = event.target as HTMLElement;
    if (event.key !== 'Escape' || target.getAttribute('data-mantine-stop-propagation') === 'true') return;
    // In a SQL editor Escape closes its completions (Ace's own), never the popover with the SQL being written.
    if (target.closest('.ace_editor')) return;
    close();
  };
}
