import type { ModalProps } from '@mantine/core';

/**
 * Styles for a modal whose fields may be taller than the window: the body is a column that fits the modal, so a
 * part given {@link SCROLLING_FIELDS} scrolls inside it and the footer after that part stays on screen (Mantine's
 * default scrolls the whole modal, and the footer starts below the window's foot).
 */
export const FOOTER_IN_VIEW_MODAL_STYLES: ModalProps['styles'] = {
  content: { display: 'flex', flexDirection: 'column', overflow: 'hidden' },
  body: { display: 'flex', flexDirection: 'column', flex: 1, minHeight: 0 },
};

/** The style of the scrolling part of a modal laid out with {@link FOOTER_IN_VIEW_MODAL_STYLES}. */
export const SCROLLING_FIELDS = { overflowY: 'auto', minHeight: 0, flex: '0 1 auto' } as const;
