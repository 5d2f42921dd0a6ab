import { notifications, notificationsStore } from '@mantine/notifications';
import { TOAST_DURATION_MS, ToastType } from '@meridian/contracts/rules/toast';
import { errorOf } from './trpc';

const COLOR: Record<ToastType, string> = {
  [ToastType.INFO]: 'blue',
  [ToastType.SUCCESS]: 'teal',
  [ToastType.WARNING]: 'yellow',
  [ToastType.DANGER]: 'red',
};

/** Shows a toast with the duration of its kind (spec 01 §9); a `noDuplicate` toast is skipped while one with the same text shows. */
export function toast(toastType: ToastType, text: string, opts: { noDuplicate?: boolean; duration?: number } = {}): void {
  if (opts.noDuplicate) {
    const { notifications: shown, queue } = notificationsStore.getState();
    if ([...shown, ...queue].some((n) => n.message === text)) return;
  }
  notifications.show({
    message: text,
    color: COLOR[toastType],
    autoClose: opts.duration ?? TOAST_DURATION_MS[toastType],
    withBorder: true,
    'data-toast-type': toastType,
  });
}

export const addInfoToast = (text: string, opts?: { noDuplicate?: boolean; duration?: number }) => toast(ToastType.INFO, text, opts);
export const addSuccessToast = (text: string, opts?: { noDuplicate?: boolean; duration?: number }) => toast(ToastType.SUCCESS, text, opts);
export const addWarningToast = (text: string, opts?: { noDuplicate?: boolean; duration?: number }) => toast(ToastType.WARNING, text, opts);
export const addDangerToast = (text: string, opts?: { noDuplicate?: boolean; duration?: number }) => toast(ToastType.DANGER, text, opts);

/** A danger toast with a failed call's normalised message, verbatim. */
export function toastError(error: unknown): void {
  addDangerToast(errorOf(error).error);
}
