import { getSequentialColors } from './colors';
import { extent } from './extent';
import { chartTheme } from './theme';

/** The colour scale's bar: its length and thickness, and the room its handles' labels take below it. */
const SCALE_LENGTH = 140;
const SCALE_THICKNESS = 12;
const SCALE_LABELS = 26;
const MARGIN = 8;

/**
 * A map's colour scale (a calculable visualMap) lying along the bottom edge, and the box the map's shapes are fitted
 * into above it. Standing over the map at its lower left, the scale's labels covered states and countries (the
 * births dashboard's '10.5M' over California); a map is usually limited by the cell's width, so the height it gives
 * up is height it did not use. Regions with no value are drawn in the theme's 'no data' grey, off the scale.
 */
export function mapScale(values: readonly number[], format: (v: number) => string, scheme: string | null | undefined, theme: 'light' | 'dark') {
  const [min, max] = extent(values, [0, 1]);
  return {
    visualMap: {
      min,
      max,
      calculable: true,
      orient: 'horizontal',
      left: 'center',
      bottom: MARGIN,
      itemHeight: SCALE_LENGTH,
      itemWidth: SCALE_THICKNESS,
      textStyle: { color: chartTheme(theme).subtleText },
      formatter: format,
      inRange: { color: getSequentialColors(scheme, 9, theme) },
      // Regions without a value (NaN to ECharts) fall out of the range and are drawn 'no data' grey, as Superset's.
      // Unbounded (ECharts' default), NaN counted as in range and took the scale's colour: with one value (a
      // dashboard filtered to CA) every state was drawn that value's blue.
      unboundedRange: false,
      outOfRange: { color: [chartTheme(theme).noData] },
    },
    mapBox: { left: MARGIN, right: MARGIN, top: MARGIN, bottom: MARGIN + SCALE_THICKNESS + SCALE_LABELS + MARGIN },
  };
}
