import type { TransformInput } from '../types';
import { getCategoricalColor } from '../shared/colors';
import { rowsOf, type EChartsTransformed } from '../shared/echarts-chart';
import { getNumberFormatter } from '../shared/format';
import { columnLabel, metricLabel, toNumber, type ColumnEntry, type MetricEntry } from '../shared/metrics';
import { echartsBase } from '../shared/theme';

const ROTATIONS: Record<string, [number, number, number]> = { flat: [0, 0, 0], square: [-90, 90, 90], random: [-90, 90, 15] };

/**
 * At most how many words a box can show: even a short word at the smallest size takes about
 * 2 × size_from² pixels with its gap, so words past that count are never placed. Trying to place them
 * is the costly part of the layout (each is tried at every spot before it is dropped).
 */
export function wordsThatFit(width: number, height: number, sizeFrom: number): number {
  return Math.max(20, Math.floor((width * height) / (2 * Math.max(sizeFrom, 4) ** 2)));
}

/** Words sized between size_from and size_to by the metric (linear), rotated as the rotation says; largest first. */
export function transformWordCloud({ formData: fd, queriesData, theme, width, height }: TransformInput): EChartsTransformed {
  const series = columnLabel(fd.series as ColumnEntry);
  const metric = metricLabel(fd.metric as MetricEntry);
  const format = getNumberFormatter(fd.number_format);
  const groups: Record<string, unknown[]> = {};
  const sizeFrom = Number(fd.size_from ?? 10);
  const rows = [...rowsOf(queriesData)].sort((a, b) => (toNumber(b[metric]) ?? 0) - (toNumber(a[metric]) ?? 0));
  const data = rows.slice(0, wordsThatFit(width, height, sizeFrom)).map((row) => {
    const name = String(row[series] ?? 'NULL');
    groups[name] = [row[series]];
    return { name, value: toNumber(row[metric]) ?? 0, textStyle: { color: getCategoricalColor(fd.color_scheme, name) } };
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
          sizeRange: [sizeFrom, Number(fd.size_to ?? 70)],
          rotationRange: [min, max],
          rotationStep: step,
          gridSize: 6,
          drawOutOfBound: false,
          // Each word placed in its own task: laid out all at once, a cloud of hundreds of words held the
          // main thread for 400-600 ms (the longest task of a scrolled dashboard); word by word it never blocks.
          layoutAnimation: true,
          textStyle: { fontFamily: echartsBase(theme).textStyle.fontFamily, fontWeight: 600 },
          emphasis: { textStyle: { shadowBlur: 4, shadowColor: '#0006' } },
          data,
        },
      ],
    },
  };
}
