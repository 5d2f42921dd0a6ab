// How wide a chart's label will be, estimated before ECharts draws it (transformProps runs without a canvas), for
// ECharts' 12px labels in the charts' font stack, which resolves to DejaVu Sans on Debian (wider than most sans
// fonts, so the estimate is generous elsewhere). Each character counts by its class, at about the widest of its class
// (measured in Chromium): a flat 7.5px a character counted 'Medium' 45px where it draws 48px, and the pie cut it to
// 'Medi…'. The pie, radar, funnel and heatmap size themselves so that their labels fit beside them.

import { legendPlace } from './theme';

/** An average character of those labels, where a label is cut to a number of characters (the radar's axis names). */
export const LABEL_CHAR_PX = 7.5;

/** i, l, t, r, f, I, J, spaces and punctuation: 3.3–4.9px. */
const NARROW = new Set([...'fijlrtIJ .,:;!|\'"()[]{}-/\\']);
/** m, w, M, W, %, &, @: 9.4–11.9px. */
const WIDE = new Set([...'mwMW%&@']);

const charPx = (ch: string): number => (NARROW.has(ch) ? 4.5 : WIDE.has(ch) ? 11.7 : ch >= 'A' && ch <= 'Z' ? 9.3 : 7.7);

/** The estimated width in pixels of a label of `text`. */
export const labelWidth = (text: string): number => {
  let px = 0;
  for (const ch of text) px += charPx(ch);
  return px;
};

/** The estimated width of the widest of the labels (0 for none). */
export const widestLabel = (texts: Iterable<string>): number => {
  let widest = 0;
  for (const text of texts) widest = Math.max(widest, labelWidth(text));
  return widest;
};

/** Superset's 'X Tick Layout' as the labels' turn: '45°' and 'staggered' turn them -45°, '90°' -90°, 'flat' none; 'auto' leaves ECharts to choose. */
export function tickLayoutRotate(layout: unknown): number | undefined {
  return layout === '45°' || layout === 'staggered' ? -45 : layout === '90°' ? -90 : layout === 'flat' ? 0 : undefined;
}

/**
 * The room kept clear of a legend on the side it stands ('Orientation'): `band` px above or below, `column` px beside,
 * and `margin` more; none while it is hidden. Only that side is set, so a chart's other box edges keep their defaults.
 *
 * @example legendSideRoom(true, 'left', { band: 40, column: 120 }) // { left: 120 }
 */
export function legendSideRoom(show: boolean, orientation: unknown, size: { band: number; column: number; margin?: number }): Partial<Record<'top' | 'bottom' | 'left' | 'right', number>> {
  if (!show) return {};
  const side = legendPlace(orientation);
  return { [side]: (side === 'top' || side === 'bottom' ? size.band : size.column) + (size.margin ?? 0) };
}

/**
 * The room a chart keeps for its legend (Superset's 'Show legend', 'Orientation' and 'Margin'): a band above or below,
 * or a column beside it as wide as the widest name (at most 40% of the chart); 'Margin' adds to it.
 */
export function legendRoom(fd: Record<string, unknown>, names: readonly string[], width: number): { top: number; bottom: number; left: number; right: number } {
  const size = { band: 30, column: Math.min(widestLabel(names) + 48, width * 0.4), margin: Math.max(0, Number(fd.legendMargin) || 0) };
  return { top: 0, bottom: 0, left: 0, right: 0, ...legendSideRoom(fd.show_legend !== false, fd.legendOrientation, size) };
}
