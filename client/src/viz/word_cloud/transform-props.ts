import type { TransformInput } from '../types';
import { getCategoricalColor } from '../shared/colors';
import { rowsOf, type EChartsTransformed } from '../shared/echarts-chart';
import { getNumberFormatter } from '../shared/format';
import { columnLabel, metricLabel, toNumber, type ColumnEntry, type MetricEntry } from '../shared/metrics';
import { echartsBase } from '../shared/theme';

/**
 * Superset's rotations ([least, most, step] in degrees): 'square' turns a word 0° or 90° clockwise (so a turned word
 * reads top to bottom), 'random' by a multiple of 30° from 90° anticlockwise to 60° clockwise. ECharts turns
 * anticlockwise for a positive angle, so Superset's clockwise angles are negated here.
 */
export const ROTATIONS: Record<string, [number, number, number]> = { flat: [0, 0, 0], square: [-90, 0, 90], random: [-60, 90, 30] };

/** The layout's grid in px: each word takes whole cells of it, and a cell's gap around it. */
const GRID_SIZE = 6;
/** A lower bound of a character's width, in em, in the cloud's font (narrow letters such as i and l are about 0.3 em). */
const MIN_CHAR_EM = 0.3;

/** A word of the cloud: its text and the metric's value that sizes it. */
export interface Word {
  name: string;
  value: number;
}

/** A word's font size: its value mapped linearly from [min, max] onto [sizeFrom, sizeTo], as echarts-wordcloud maps it. */
export function wordSize(value: number, min: number, max: number, sizeFrom: number, sizeTo: number): number {
  return max === min ? (sizeFrom + sizeTo) / 2 : sizeFrom + ((value - min) / (max - min)) * (sizeTo - sizeFrom);
}

/**
 * How many of the words (largest value first) the box can show. Each is given about the least room it takes at
 * the size the layout will give it (its value mapped linearly from the smallest to the largest kept value onto
 * [sizeFrom, sizeTo], as echarts-wordcloud does): narrow letters and a grid cell around it, in the ellipse the
 * cloud fills (96% of the box). Keeping one more word makes the others no smaller, so the room taken grows with
 * the count and the largest count that fits is found by halving. An estimate, not a proof: the layout marks only
 * the grid cells a word's ink touches, so a cloud of short lower-case words could hold a few more. Trying words
 * that cannot fit is the costly part of the layout (each is tried at every spot before it is dropped).
 */
export function wordsThatFit(words: readonly Word[], width: number, height: number, sizeFrom: number, sizeTo: number): number {
  const room = (Math.PI / 4) * (0.96 * width) * (0.96 * height);
  const fits = (count: number): boolean => {
    const max = words[0]!.value;
    const min = words[count - 1]!.value;
    let used = 0;
    for (let i = 0; i < count; i++) {
      const size = Math.max(wordSize(words[i]!.value, min, max, sizeFrom, sizeTo), 4);
      used += (MIN_CHAR_EM * size * Math.max(words[i]!.name.length, 1) + GRID_SIZE) * (size + GRID_SIZE);
      if (used > room) return false;
    }
    return true;
  };
  if (words.length <= 20 || fits(words.length)) return words.length;
  let low = 20; // kept whatever the estimate says
  let high = words.length; // does not fit
  while (high - low > 1) {
    const mid = (low + high) >> 1;
    if (fits(mid)) low = mid;
    else high = mid;
  }
  return low;
}

/** Words sized between size_from and size_to by the metric (linear), rotated as the rotation says; largest first. */
export function transformWordCloud({ formData: fd, queriesData, theme, width, height }: TransformInput): EChartsTransformed {
  const series = columnLabel(fd.series as ColumnEntry);
  const metric = metricLabel(fd.metric as MetricEntry);
  const format = getNumberFormatter(fd.number_format);
  const groups: Record<string, unknown[]> = {};
  const sizeFrom = Number(fd.size_from ?? 10);
  const sizeTo = Number(fd.size_to ?? 70);
  const rows = [...rowsOf(queriesData)].sort((a, b) => (toNumber(b[metric]) ?? 0) - (toNumber(a[metric]) ?? 0));
  const words = rows.map((row) => ({ name: String(row[series] ?? 'NULL'), value: toNumber(row[metric]) ?? 0 }));
  const kept = words.slice(0, wordsThatFit(words, width, height, sizeFrom, sizeTo));
  const [least, most] = [kept.at(-1)?.value ?? 0, kept[0]?.value ?? 0];
  const data = kept.map(({ name, value }, i) => {
    groups[name] = [rows[i]![series]];
    // Whole pixels: the layout measures each word at its size, and the first text at a size the page has not used
    // makes the browser load the font at that size (~2-3 ms); sizes as they come gave each word its own.
    const fontSize = Math.round(wordSize(value, least, most, sizeFrom, sizeTo));
    return { name, value, textStyle: { color: getCategoricalColor(fd.color_scheme, name), fontSize } };
  });
  const [min, max, step] = ROTATIONS[String(fd.rotation ?? 'square')] ?? ROTATIONS.square!;
  return {
    groupby: [series],
    groups,
    option: {
      ...echartsBase(theme),
      tooltip: { ...echartsBase(theme).tooltip, formatter: (p: any) => `${p.name}: ${format(p.value)}` },
      series: [
        {
          type: 'wordCloud',
          shape: 'circle',
          left: 'center',
          top: 'center',
          width: '96%',
          height: '96%',
          sizeRange: [sizeFrom, sizeTo],
          rotationRange: [min, max],
          rotationStep: step,
          gridSize: GRID_SIZE,
          drawOutOfBound: false,
          // Without the animation (each word placed in a task of its own, so on a busy page, a dashboard drawing,
          // each word waited behind every other task and the cloud came last), the words are placed in tasks of
          // about 40 ms (patches/echarts-wordcloud): all at once, 80 words held the main thread for 200-300 ms.
          layoutAnimation: false,
          textStyle: { fontFamily: echartsBase(theme).textStyle.fontFamily, fontWeight: 600 },
          emphasis: { textStyle: { shadowBlur: 4, shadowColor: '#0006' } },
          data,
        },
      ],
    },
  };
}
