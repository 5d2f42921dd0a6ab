import { describe, it, expect } from 'vitest';
import { TOAST_DURATION_MS, ToastType, addToast, makeToast, removeToast } from './toast';

describe('toasts (spec 01 §4, §9; spec 02 §5)', () => {
  it("'Toast durations: info 4000 ms, success 4000, warning 6000, danger 8000'", () => {
    expect(TOAST_DURATION_MS).toEqual({ INFO_TOAST: 4000, SUCCESS_TOAST: 4000, WARNING_TOAST: 6000, DANGER_TOAST: 8000 });
    expect(makeToast('a', ToastType.WARNING, 'w').duration).toBe(6000);
    expect(makeToast('a', ToastType.DANGER, 'd', { duration: 100 }).duration).toBe(100);
  });

  it('adds new toasts at the front', () => {
    const first = makeToast('1', ToastType.INFO, 'one');
    const second = makeToast('2', ToastType.INFO, 'two');
    expect(addToast(addToast([], first), second).map((t) => t.id)).toEqual(['2', '1']);
  });

  it("'Toasts flagged noDuplicate are not added if one with the same text already exists'", () => {
    const list = [makeToast('1', ToastType.DANGER, 'Oops')];
    expect(addToast(list, makeToast('2', ToastType.DANGER, 'Oops', { noDuplicate: true }))).toBe(list);
    expect(addToast(list, makeToast('3', ToastType.DANGER, 'Other', { noDuplicate: true }))).toHaveLength(2);
    expect(addToast(list, makeToast('4', ToastType.DANGER, 'Oops'))).toHaveLength(2);
  });

  it('removes a toast by id', () => {
    const list = [makeToast('1', ToastType.INFO, 'a'), makeToast('2', ToastType.INFO, 'b')];
    expect(removeToast(list, '1').map((t) => t.id)).toEqual(['2']);
  });
});
