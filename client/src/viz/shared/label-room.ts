/**
 * How wide a chart's label will be, estimated before ECharts draws it (transformProps runs without a canvas):
 * generously, at 7.5px a character of ECharts' 12px sans-serif (DejaVu Sans, Debian's default, is wide). The
 * pie, radar and funnel size themselves so that their labels fit beside them.
 */
export const LABEL_CHAR_PX = 7.5;

/** The estimated width in pixels of a label of `text`. */
export const labelWidth = (text: string): number => text.length * LABEL_CHAR_PX;
