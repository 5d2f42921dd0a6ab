/** Toast kinds, with Superset's values. */
export const ToastType = {
  INFO: 'INFO_TOAST',
  SUCCESS: 'SUCCESS_TOAST',
  WARNING: 'WARNING_TOAST',
  DANGER: 'DANGER_TOAST',
} as const;
export type ToastType = (typeof ToastType)[keyof typeof ToastType];

/** Toast durations of spec 01 §9 / spec 02 §9, in milliseconds. */
export const TOAST_DURATION_MS: Readonly<Record<ToastType, number>> = {
  [ToastType.INFO]: 4000,
  [ToastType.SUCCESS]: 4000,
  [ToastType.WARNING]: 6000,
  [ToastType.DANGER]: 8000,
};

export interface Toast {
  id: string;
  toastType: ToastType;
  text: string;
  duration: number;
  noDuplicate: boolean;
}

export type ToastOptions = Partial<Pick<Toast, 'duration' | 'noDuplicate'>>;

/** Builds a toast with its type's default duration. The id comes from the caller so this stays pure. */
export function makeToast(id: string, toastType: ToastType, text: string, options: ToastOptions = {}): Toast {
  return { id, toastType, text, duration: TOAST_DURATION_MS[toastType], noDuplicate: false, ...options };
}

/** Adds a toast at the front; a noDuplicate toast is not added when one with the same text exists. */
export function addToast(list: readonly Toast[], toast: Toast): Toast[] {
  if (toast.noDuplicate && list.some((existing) => existing.text === toast.text)) return list as Toast[];
  return [toast, ...list];
}

/** Removes the toast with this id. */
export function removeToast(list: readonly Toast[], id: string): Toast[] {
  return list.filter((toast) => toast.id !== id);
}
