/**
 * How wide a chart's label will be, estimated before ECharts draws it (transformProps runs without a canvas):
 * generously, at 7.5px a character of ECharts' 12px sans-serif (DejaVu Sans, Debian's default, is wide). The
 * pie, radar and funnel size themselves so that their labels fit beside them.
 */
export const LABEL_CHAR_PX = 7.5;

/** The estimated width in pixels of a label of `text`. */
export const labelWidth = (text: string): number => text.length * LABEL_CHAR_PX;

/** The estimated width of the widest of the labels (0 for none). */
export const widestLabel = (texts: Iterable<string>): number => {
  let widest = 0;
  for (const text of texts) widest = Math.max(widest, labelWidth(text));
  return widest;
};
