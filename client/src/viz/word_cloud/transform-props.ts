import type { TransformInput } from '../types';
import { getCategoricalColor } from '../shared/colors';
import { rowsOf, type EChartsTransformed } from '../shared/echarts-chart';
import { getNumberFormatter } from '../shared/format';
import { columnLabel, metricLabel, toNumber, type ColumnEntry, type MetricEntry } from '../shared/metrics';
import { echartsBase } from '../shared/theme';

const ROTATIONS: Record<string, [number, number, number]> = { flat: [0, 0, 0], square: [-90, 90, 90], random: [-90, 90, 15] };

/** Words sized between size_from and size_to by the metric (linear), rotated as the rotation says. */
export function transformWordCloud({ formData: fd, queriesData, theme }: TransformInput): EChartsTransformed {
  const series = columnLabel(fd.series as ColumnEntry);
  const metric = metricLabel(fd.metric as MetricEntry);
  const format = getNumberFormatter(fd.number_format);
  const groups: Record<string, unknown[]> = {};
  const data = rowsOf(queriesData).map((row) => {
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
          sizeRange: [Number(fd.size_from ?? 10), Number(fd.size_to ?? 70)],
          rotationRange: [min, max],
          rotationStep: step,
          gridSize: 6,
          drawOutOfBound: false,
          layoutAnimation: false,
          textStyle: { fontFamily: echartsBase(theme).textStyle.fontFamily, fontWeight: 600 },
          emphasis: { textStyle: { shadowBlur: 4, shadowColor: '#0006' } },
          data,
        },
      ],
    },
  };
}
