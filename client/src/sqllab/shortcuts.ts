/** Keyboard shortcuts of the SQL editor, as Superset binds them (its KEY_MAP), listed in the help popover. */
export type ShortcutName = 'runQuery' | 'runStatement' | 'stopQuery' | 'formatQuery' | 'newTab' | 'previousTab' | 'nextTab' | 'saveQuery';

export interface Shortcut {
  name: ShortcutName;
  label: string;
  /** Ace bindKey strings. */
  win: string;
  mac: string;
  /** Bound inside the editor (Ace commands); the others are also bound on the whole screen. */
  inEditor: boolean;
}

export const SHORTCUTS: readonly Shortcut[] = [
  { name: 'runQuery', label: 'Run query (the selection when there is one)', win: 'Ctrl-Enter|Ctrl-R|Alt-Enter', mac: 'Command-Enter|Ctrl-R|Ctrl-Enter', inEditor: true },
  { name: 'runStatement', label: 'Run the statement under the cursor', win: 'Ctrl-Shift-Enter', mac: 'Command-Shift-Enter|Ctrl-Shift-Enter', inEditor: true },
  { name: 'stopQuery', label: 'Stop running query', win: 'Ctrl-E', mac: 'Ctrl-E', inEditor: true },
  { name: 'formatQuery', label: 'Format SQL', win: 'Ctrl-Shift-F', mac: 'Command-Shift-F|Ctrl-Shift-F', inEditor: true },
  { name: 'saveQuery', label: 'Save query', win: 'Ctrl-S', mac: 'Command-S|Ctrl-S', inEditor: true },
  { name: 'newTab', label: 'New tab', win: 'Ctrl-Q', mac: 'Ctrl-Q|Ctrl-T', inEditor: true },
  { name: 'previousTab', label: 'Previous tab', win: 'Ctrl-[', mac: 'Ctrl-[', inEditor: true },
  { name: 'nextTab', label: 'Next tab', win: 'Ctrl-]', mac: 'Ctrl-]', inEditor: true },
];

export const isMac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);

/** Key labels for display: the first binding of the platform, e.g. ['Ctrl', 'Enter']. */
export function shortcutKeys(shortcut: Shortcut): string[] {
  const binding = (isMac ? shortcut.mac : shortcut.win).split('|')[0];
  return binding.split('-').map((key) => (key === 'Command' ? '⌘' : key));
}

/** True when a keyboard event outside the editor matches a shortcut (screen-wide bindings). */
export function matchesShortcut(event: KeyboardEvent, shortcut: Shortcut): boolean {
  const bindings = (isMac ? shortcut.mac : shortcut.win).split('|');
  return bindings.some((binding) => {
    const parts = binding.split('-');
    const key = parts[parts.length - 1].toLowerCase();
    const want = new Set(parts.slice(0, -1).map((p) => p.toLowerCase()));
    const pressed = event.key.toLowerCase() === key || (key === 'enter' && event.key === 'Enter');
    return (
      pressed &&
      want.has('ctrl') === event.ctrlKey &&
      want.has('command') === event.metaKey &&
      want.has('shift') === event.shiftKey &&
      want.has('alt') === event.altKey
    );
  });
}
