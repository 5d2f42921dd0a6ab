import { describe, expect, it } from 'vitest';
import { hasUnsavedChanges, pushHistory, redo, startHistory, undo, undoCapacity, undoRedoKey, undoSlotsWarning } from './undo';

describe('layout undo/redo (spec 02 §4, §9)', () => {
  it("'Undo history: the configured maximum plus 2'", () => {
    expect(undoCapacity(50)).toBe(52);
  });

  it('undoes and redoes; a new edit clears the future', () => {
    let h = startHistory('a');
    h = pushHistory(h, 'b', 50).history;
    h = pushHistory(h, 'c', 50).history;
    h = undo(h);
    expect(h.present).toBe('b');
    h = redo(h);
    expect(h.present).toBe('c');
    h = undo(undo(h));
    expect(h.present).toBe('a');
    expect(undo(h)).toBe(h);
    h = pushHistory(redo(h), 'x', 50).history;
    expect(h.future).toEqual([]);
  });

  it('warns once, with the exact text, when the slots are used up, and undo cannot reach the start any more', () => {
    let h = startHistory(0);
    const warnings: string[] = [];
    for (let i = 1; i <= 6; i++) {
      const r = pushHistory(h, i, 3);
      h = r.history;
      if (r.warning) warnings.push(r.warning);
    }
    expect(warnings).toEqual(['You have used all 3 undo slots and will not be able to fully undo subsequent actions. You may save your current state to reset the history.']);
    expect(undoSlotsWarning(3)).toBe(warnings[0]);
    expect(h.past.length + 1).toBe(5);
    while (h.past.length) h = undo(h);
    expect(h.present).not.toBe(0);
    expect(hasUnsavedChanges(h, false)).toBe(true);
  });

  it('unsaved changes clear on undoing back to the empty history, unless the colour scheme was updated', () => {
    let h = startHistory('saved');
    h = pushHistory(h, 'edited', 50).history;
    expect(hasUnsavedChanges(h, false)).toBe(true);
    h = undo(h);
    expect(hasUnsavedChanges(h, false)).toBe(false);
    expect(hasUnsavedChanges(h, true)).toBe(true);
  });

  it('Ctrl+Z (Cmd+Z) undoes; Ctrl+Shift+Z and Ctrl+Y redo, as in Superset; plain keys do nothing', () => {
    const press = (key: string, mods: Partial<{ ctrlKey: boolean; metaKey: boolean; shiftKey: boolean; altKey: boolean }>) => undoRedoKey({ key, ctrlKey: false, metaKey: false, shiftKey: false, altKey: false, ...mods });
    expect(press('z', { ctrlKey: true })).toBe('undo');
    expect(press('z', { metaKey: true })).toBe('undo');
    expect(press('Z', { ctrlKey: true, shiftKey: true })).toBe('redo');
    expect(press('z', { metaKey: true, shiftKey: true })).toBe('redo');
    expect(press('y', { ctrlKey: true })).toBe('redo');
    expect(press('z', {})).toBeNull();
    expect(press('z', { ctrlKey: true, altKey: true })).toBeNull();
    expect(press('c', { ctrlKey: true })).toBeNull();
  });
});
