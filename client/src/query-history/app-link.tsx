import { Anchor, type AnchorProps } from '@mantine/core';
import { useNavigate } from '@tanstack/react-router';
import { COPIED_TO_CLIPBOARD, COPY_NOT_SUPPORTED } from '@meridian/contracts/messages';
import type { MouseEvent, ReactNode } from 'react';
import { addDangerToast, addSuccessToast } from '../notify';

/**
 * A link to another screen of the app by its full href (`/sqllab/?queryId=3`): a plain click navigates inside
 * the app; modified clicks (new tab, new window) keep the browser's behaviour.
 */
export function AppLink({ href, children, ...props }: AnchorProps & { href: string; children: ReactNode; 'aria-label'?: string }) {
  const navigate = useNavigate();
  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    void navigate({ href });
  };
  return (
    <Anchor href={href} onClick={onClick} {...props}>
      {children}
    </Anchor>
  );
}

/** Copies text to the clipboard; false when the browser refuses. */
export async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.style.position = 'fixed';
    area.style.opacity = '0';
    document.body.append(area);
    area.select();
    try {
      return document.execCommand('copy');
    } catch {
      return false;
    } finally {
      area.remove();
    }
  }
}

/** Copies text and says so in a toast ('Copied to clipboard!', or that the browser does not support it). */
export async function copyWithToast(text: string): Promise<void> {
  if (await copyText(text)) addSuccessToast(COPIED_TO_CLIPBOARD);
  else addDangerToast(COPY_NOT_SUPPORTED);
}
