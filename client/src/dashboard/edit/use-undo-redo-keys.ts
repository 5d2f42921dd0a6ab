import { undoRedoKey } from '@meridian/contracts';
import { useEffect, useRef } from 'react';

/** Inputs that take no typed text: the keys stay the layout's there. */
const NOT_TEXT = new Set(['checkbox', 'radio', 'button', 'submit', 'reset', 'range', 'color', 'file', 'image']);

/** Whether a key press belongs to the text being typed (a field, a Markdown or CSS editor), not to the layout. */
function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof Element)) return false;
  if (target instanceof HTMLInputElement) return !NOT_TEXT.has(target.type);
  return !!target.closest('textarea, select, [contenteditable=""], [contenteditable="true"], .ace_editor');
}

/**
 * Ctrl+Z / Ctrl+Shift+Z (Cmd on a Mac) undo and redo layout edits while `enabled` (dashboard edit mode),
 * except while typing, where the keys edit the text.
 */
export function useUndoRedoKeys(enabled: boolean, onUndo: () => void, onRedo: () => void) {
  const handlers = useRef({ onUndo, onRedo });
  handlers.current = { onUndo, onRedo };
  useEffect(() => {
    if (!enabled) return;
    const onKeyDown = (event: KeyboardEvent) => {
      const command = undoRedoKey(event);
      if (!command || event.defaultPrevented) return;
      if (isTyping(event.target)) return;
      event.preventDefault();
      if (command === 'undo') handlers.current.onUndo();
      else handlers.current.onRedo();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [enabled]);
}
