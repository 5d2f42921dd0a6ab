/**
 * Undo/redo of dashboard layout edits (spec 02 §4 "Undo/redo", "Unsaved changes"; §9 'Undo history:
 * the configured maximum plus 2').
 */
import { fmt, UNDO_SLOTS_USED } from '../messages';
import { undoHistoryLimit } from '../rules/constants';

export interface UndoHistory<T> {
  past: T[];
  present: T;
  future: T[];
  /** Set once an edit pushed the oldest state out: undo can no longer reach the saved layout. */
  exceeded: boolean;
}

/** Snapshots kept (past and present): the configured maximum plus 2. */
export const undoCapacity = undoHistoryLimit;

/** spec 02 §8, verbatim, with the number of slots. */
export function undoSlotsWarning(slots: number): string {
  return fmt(UNDO_SLOTS_USED, slots);
}

export function startHistory<T>(present: T): UndoHistory<T> {
  return { past: [], present, future: [], exceeded: false };
}

/**
 * Records a layout-changing edit. Answers the next history and, the first time the slots run out, the
 * warning toast's text (the caller shows it once).
 */
export function pushHistory<T>(history: UndoHistory<T>, next: T, configuredMax: number): { history: UndoHistory<T>; warning: string | null } {
  if (next === history.present) return { history, warning: null };
  const past = [...history.past, history.present];
  const capacity = undoCapacity(configuredMax);
  let exceeded = history.exceeded;
  let warning: string | null = null;
  while (past.length + 1 > capacity) {
    past.shift();
    if (!exceeded) warning = undoSlotsWarning(configuredMax);
    exceeded = true;
  }
  return { history: { past, present: next, future: [], exceeded }, warning };
}

export function undo<T>(history: UndoHistory<T>): UndoHistory<T> {
  if (!history.past.length) return history;
  const past = history.past.slice(0, -1);
  return { ...history, past, present: history.past[history.past.length - 1], future: [history.present, ...history.future] };
}

export function redo<T>(history: UndoHistory<T>): UndoHistory<T> {
  if (!history.future.length) return history;
  const [present, ...future] = history.future;
  return { ...history, past: [...history.past, history.present], present, future };
}

/**
 * spec 02 §4: unsaved changes are set by any layout change and cleared on undoing back to the empty
 * history, unless the undo limit was exceeded or the colour scheme was updated.
 */
export function hasUnsavedChanges<T>(history: UndoHistory<T>, colorSchemeUpdated: boolean, otherEdits = false): boolean {
  return otherEdits || colorSchemeUpdated || history.exceeded || history.past.length > 0;
}

/**
 * The undo/redo command of a key press in dashboard edit mode, as Superset's: Ctrl+Z (Cmd+Z on a Mac)
 * undoes; Ctrl+Shift+Z and Ctrl+Y redo. Null for any other key.
 *
 * @example undoRedoKey({ key: 'z', ctrlKey: true, metaKey: false, shiftKey: true, altKey: false }) // 'redo'
 */
export function undoRedoKey(event: { key: string; ctrlKey: boolean; metaKey: boolean; shiftKey: boolean; altKey: boolean }): 'undo' | 'redo' | null {
  if (!(event.ctrlKey || event.metaKey) || event.altKey) return null;
  const key = event.key.toLowerCase();
  if (key === 'z') return event.shiftKey ? 'redo' : 'undo';
  if (key === 'y' && !event.shiftKey) return 'redo';
  return null;
}
