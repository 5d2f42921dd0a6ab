import type { TransformInput } from '../types';
import { getCategoricalColor } from '../shared/colors';
import { hasSelection, selectionStyle } from '../shared/cross-filter';
import { getNumberFormatter, getValueFormatter } from '../shared/format';
import { asList, columnLabel, displayNames, metricLabel, toNumber, type ColumnEntry, type MetricEntry } from '../shared/metrics';
import { widestLabel } from '../shared/label-room';
import { echartsBase, legendStyle } from '../shared/theme';

export interface PieProps {
  option: Record<string, any>;
  groupby: string[];
  /** Each slice's name → its group-by values, for clicks. */
  sliceGroups: Record<string, string[]>;
}

const LABEL_TEMPLATES: Record<string, (n: string, v: string, p: string) => string> = {
  key: (n) => n,
  value: (_n, v) => v,
  percent: (_n, _v, p) => p,
  key_value: (n, v) => `${n}: ${v}`,
  key_percent: (n, _v, p) => `${n}: ${p}`,
  key_value_percent: (n, v, p) => `${n}: ${v} (${p})`,
};

/**
 * An outside label's line: ECharts' own (15px out, 30px along) where there is room, shorter in a narrow cell, where
 * the text needs the room more than the line does.
 */
const labelLineOf = (width: number): { length: number; length2: number } => (width < 480 ? { length: 10, length2: 12 } : { length: 15, length2: 30 });
/** What ECharts keeps beside the pie before an outside label's text: the line, 5px to the text, 10px from the edge (bleedMargin). */
const labelLinePx = (line: { length: number; length2: number }): number => line.length + line.length2 + 5 + 10;
/** The most room kept beside the pie for an outside label. */
const LABEL_MAX_PX = 90;

/** One slice per row of the answer (group-by values joined), sized by the metric; Superset's pie options. */
export function transformPie(input: TransformInput): PieProps {
  const { formData: fd, queriesData, theme } = input;
  const names = displayNames(input.datasource);
  const rows = (queriesData[0]?.data ?? []) as Record<string, unknown>[];
  const groupby = asList<ColumnEntry>(fd.groupby).map(columnLabel);
  const metric = metricLabel(fd.metric as MetricEntry);
  const numberFormat = getValueFormatter(fd.number_format, fd.currency_format);
  const percentFormat = getNumberFormatter('.1%');
  const sliceGroups: Record<string, string[]> = {};
  const data = rows.map((row) => {
    const group = groupby.map((g) => String(row[g] ?? 'NULL'));
    const name = group.join(', ') || names(metric);
    sliceGroups[name] = group;
    // While the chart's own cross-filter is in effect its slice stays drawn in full and pulled out, the others faded (as Superset).
    const selection = selectionStyle(input.filterState, group);
    return { name, value: toNumber(row[metric]) ?? 0, itemStyle: { color: getCategoricalColor(fd.color_scheme, name), ...selection }, ...(selection.opacity === 1 ? { selected: true } : {}) };
  });
  const total = data.reduce((sum, d) => sum + d.value, 0);
  const template = LABEL_TEMPLATES[String(fd.label_type ?? 'key')] ?? LABEL_TEMPLATES.key!;
  const label = (p: { name: string; value: number; percent: number }) => template(p.name, numberFormat(p.value), percentFormat(p.percent / 100));
  const showLegend = fd.show_legend !== false;
  // Outside labels need room beside the pie: in a narrow cell the radius shrinks so that the label line and the
  // longest label fit on each side (its estimated width, at most 90px), not
  // below 35%. With only ~70px kept, a short label on the left ran off the cell ('Small' read 'mall').
  const labelsOutside = fd.show_labels !== false && fd.labels_outside !== false;
  const half = Math.min(input.width, input.height) / 2;
  const line = labelLineOf(input.width);
  const longest = Math.min(LABEL_MAX_PX, widestLabel(data.map((d) => label({ ...d, percent: total ? (d.value / total) * 100 : 0 }))));
  const roomy = labelsOutside && input.width > 0 && half > 0 ? Math.max(35, Math.floor(((input.width / 2 - labelLinePx(line) - longest) / half) * 100)) : 100;
  const outer = Math.min(Number(fd.outerRadius ?? 70), roomy);
  const inner = fd.donut ? Number(fd.innerRadius ?? 30) : 0;
  // ECharts 6 truncates outside labels far below their room when it moves them apart (avoidLabelOverlap): 'boy'
  // read '...' in a 300px cell. Each is given the room beside the pie instead: half the width less the radius
  // (a share of half the shorter side) and what ECharts keeps for the line (counted short of it, 'Medium' read 'Medi…').
  const labelRoom = Math.max(40, Math.floor(input.width / 2 - (outer / 100) * half - labelLinePx(line)));
  const option = {
    ...echartsBase(theme),
    animation: false,
    legend: { ...legendStyle(theme, { show: showLegend, orientation: (fd.legendOrientation as 'top') ?? 'top' }), data: data.map((d) => d.name) },
    tooltip: { ...echartsBase(theme).tooltip, trigger: 'item', formatter: (p: any) => `${p.name}: ${numberFormat(p.value)} (${percentFormat(p.percent / 100)})` },
    series: [
      {
        type: 'pie',
        radius: [`${inner}%`, `${outer}%`],
        center: ['50%', showLegend ? '55%' : '50%'],
        avoidLabelOverlap: true,
        data,
        label: {
          show: fd.show_labels !== false,
          position: fd.labels_outside === false ? 'inner' : 'outer',
          formatter: label,
          color: fd.labels_outside === false ? '#fff' : undefined,
          ...(labelsOutside ? { overflow: 'truncate', width: labelRoom } : {}),
        },
        labelLine: { show: fd.labels_outside !== false && fd.label_line !== false, ...line },
        emphasis: { scale: true },
        selectedMode: hasSelection(input.filterState) ? 'single' : false,
      },
    ],
    graphic: fd.show_total
      ? [{ type: 'text', left: 'center', top: 'middle', style: { text: `Total: ${numberFormat(total)}`, fontSize: 16, fontWeight: 'bold', fill: echartsBase(theme).textStyle.color } }]
      : undefined,
  };
  return { option, groupby, sliceGroups };
}
