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
    if (event.key !== 'Escape' || (event.target as HTMLElement).getAttribute('data-mantine-stop-propagation') === 'true') return;
    close();
  };
}
