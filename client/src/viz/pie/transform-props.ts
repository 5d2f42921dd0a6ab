import type { TransformInput } from '../types';
import { getCategoricalColor } from '../shared/colors';
import { hasSelection, selectionStyle, UNSELECTED_OPACITY } from '../shared/cross-filter';
import { escapeHtml, getNumberFormatter, getValueFormatter, groupValueFormatter } from '../shared/format';
import { asList, columnLabel, displayNames, metricLabel, toNumber, type ColumnEntry, type MetricEntry } from '../shared/metrics';
import { legendRoom, widestLabel } from '../shared/label-room';
import { labelOfType } from '../shared/label-type';
import { chartTheme, echartsBase, legendPlace, legendStyle } from '../shared/theme';

export interface PieProps {
  option: Record<string, any>;
  groupby: string[];
  /** Each slice's name → its group-by values, for clicks ('Other' has none: it selects nothing). */
  sliceGroups: Record<string, string[]>;
}

/** The slice the small ones are gathered into ('Threshold for Other'), drawn grey as Superset's. */
const OTHER = 'Other';

/**
 * Superset's 'Label Template': `{name}`, `{value}` and `{percent}` as the labels format them, ECharts' own `{a}` (the
 * series), `{b}` (the name), `{c}` (the raw value) and `{d}` (the raw percent), and `\n` for a new line.
 *
 * @example pieLabelTemplate('{name}: {percent}', { name: 'boy', value: '3k', percent: '75.00%' }, { value: 3000, percent: 75 }) // 'boy: 75.00%'
 */
function pieLabelTemplate(template: string, shown: { name: string; value: string; percent: string }, raw: { seriesName?: string; value: unknown; percent: unknown }): string {
  const parts: Record<string, string> = { '{name}': shown.name, '{value}': shown.value, '{percent}': shown.percent, '{a}': raw.seriesName ?? '', '{b}': shown.name, '{c}': String(raw.value), '{d}': String(raw.percent), '\\n': '\n' };
  return Object.entries(parts).reduce((text, [key, value]) => text.split(key).join(value), template);
}

/**
 * An outside label's line: ECharts' own (15px out, 30px along) where there is room, shorter in a narrow cell, where
 * the text needs the room more than the line does.
 */
const labelLineOf = (width: number): { length: number; length2: number } => (width < 480 ? { length: 10, length2: 12 } : { length: 15, length2: 30 });
/** What ECharts keeps beside the pie before an outside label's text: the line, 5px to the text, 10px from the edge (bleedMargin). */
const labelLinePx = (line: { length: number; length2: number }): number => line.length + line.length2 + 5 + 10;
/** The most room kept beside the pie for an outside label. */
const LABEL_MAX_PX = 90;

/**
 * One slice per row of the answer (group-by values joined, times in 'Date format'), sized by the metric; Superset's
 * pie options: labels hidden on slices under 'Percentage threshold', slices under 'Threshold for Other' gathered into
 * 'Other', 'Rose Type', the label types and template, the legend's place, 'Show Total'.
 */
export function transformPie(input: TransformInput): PieProps {
  const { formData: fd, queriesData, theme } = input;
  const names = displayNames(input.datasource);
  const result = queriesData[0];
  const rows = (result?.data ?? []) as Record<string, unknown>[];
  const groupby = asList<ColumnEntry>(fd.groupby).map(columnLabel);
  const metric = metricLabel(fd.metric as MetricEntry);
  const numberFormat = getValueFormatter(fd.number_format, fd.currency_format);
  // Superset's shares read to two decimals (NumberFormats.PERCENT_2_POINT).
  const percentFormat = getNumberFormatter('.2%');
  const groupValue = groupValueFormatter(result, fd.date_format);
  const sliceGroups: Record<string, string[]> = {};
  const slices = rows.map((row) => {
    const group = groupby.map((g) => String(row[g] ?? 'NULL'));
    const shown = groupby.map((g) => groupValue(g, row[g]));
    return { name: shown.join(', ') || names(metric), group, value: toNumber(row[metric]) ?? 0 };
  });
  const total = slices.reduce((sum, d) => sum + d.value, 0);
  // 'Threshold for Other': slices with a share (of the rows answered) under the threshold go into one grey 'Other'.
  const otherThreshold = Number(fd.threshold_for_other) || 0;
  const isSmall = (value: number) => otherThreshold > 0 && total !== 0 && (value / total) * 100 < otherThreshold;
  const others = slices.filter((d) => isSmall(d.value));
  const kept = slices.filter((d) => !isSmall(d.value));
  const otherSum = others.reduce((sum, d) => sum + d.value, 0);
  const data: Array<Record<string, any>> = kept.map(({ name, group, value }) => {
    sliceGroups[name] = group;
    // While the chart's own cross-filter is in effect its slice stays drawn in full and pulled out, the others faded (as Superset).
    const selection = selectionStyle(input.filterState, group);
    return { name, value, itemStyle: { color: getCategoricalColor(fd.color_scheme, name), ...selection }, ...(selection.opacity === 1 ? { selected: true } : {}) };
  });
  if (otherSum) data.push({ name: OTHER, value: otherSum, isOther: true, itemStyle: { color: chartTheme(theme).subtleText, ...(hasSelection(input.filterState) ? { opacity: UNSELECTED_OPACITY } : {}) } });
  const labelTemplate = typeof fd.label_template === 'string' ? fd.label_template : '';
  const label = (p: { name: string; value: number; percent: number; seriesName?: string }) => {
    const shown = { name: p.name, value: numberFormat(p.value), percent: percentFormat(p.percent / 100) };
    return fd.label_type === 'template' ? pieLabelTemplate(labelTemplate, shown, p) : labelOfType(fd.label_type, shown);
  };
  const showLegend = fd.show_legend !== false;
  const room = legendRoom(fd, data.map((d) => d.name), input.width);
  // The pie's own box: the chart less the legend's room.
  const boxWidth = Math.max(0, input.width - room.left - room.right);
  const boxHeight = Math.max(0, input.height - room.top - room.bottom);
  // Outside labels need room beside the pie: in a narrow cell the radius shrinks so that the label line and the
  // longest label fit on each side (its estimated width, at most 90px), not
  // below 35%. With only ~70px kept, a short label on the left ran off the cell ('Small' read 'mall').
  const labelsOutside = fd.show_labels !== false && fd.labels_outside !== false;
  const half = Math.min(boxWidth, boxHeight) / 2;
  const line = labelLineOf(boxWidth);
  const longest = Math.min(LABEL_MAX_PX, widestLabel(data.map((d) => label({ name: d.name, value: d.value, percent: total ? (d.value / total) * 100 : 0 }))));
  const roomy = labelsOutside && boxWidth > 0 && half > 0 ? Math.max(35, Math.floor(((boxWidth / 2 - labelLinePx(line) - longest) / half) * 100)) : 100;
  const outer = Math.min(Number(fd.outerRadius ?? 70), roomy);
  const inner = fd.donut ? Number(fd.innerRadius ?? 30) : 0;
  // ECharts 6 truncates outside labels far below their room when it moves them apart (avoidLabelOverlap): 'boy'
  // read '...' in a 300px cell. Each is given the room beside the pie instead: half the width less the radius
  // (a share of half the shorter side) and what ECharts keeps for the line (counted short of it, 'Medium' read 'Medi…').
  const labelRoom = Math.max(40, Math.floor(boxWidth / 2 - (outer / 100) * half - labelLinePx(line)));
  // 'Percentage threshold' (5 unless set; emptied, none): no label on a slice under that share, as Superset's minShowLabelAngle.
  const labelThreshold = fd.show_labels_threshold === undefined ? 5 : Number(fd.show_labels_threshold) || 0;
  const rose = fd.roseType === 'area' || fd.roseType === 'radius' ? fd.roseType : undefined;
  const tooltipRow = (name: string, value: number, share: number) => `${escapeHtml(name)}: ${numberFormat(value)} (${percentFormat(share)})`;
  const option = {
    ...echartsBase(theme),
    animation: false,
    legend: { ...legendStyle(theme, { show: showLegend, orientation: legendPlace(fd.legendOrientation), type: fd.legendType === 'plain' ? 'plain' : 'scroll' }), data: data.map((d) => d.name) },
    tooltip: {
      ...echartsBase(theme).tooltip,
      trigger: 'item',
      // 'Other' lists the slices it gathers, and their total.
      formatter: (p: any) =>
        p.data?.isOther
          ? [...others.map((d) => tooltipRow(d.name, d.value, total ? d.value / total : 0)), tooltipRow('Total', otherSum, total ? otherSum / total : 0)].join('<br/>')
          : tooltipRow(p.name, p.value, p.percent / 100),
    },
    series: [
      {
        type: 'pie',
        ...room,
        roseType: rose,
        radius: [`${inner}%`, `${outer}%`],
        center: ['50%', '50%'],
        avoidLabelOverlap: true,
        minShowLabelAngle: labelThreshold * 3.6,
        data,
        label: {
          show: fd.show_labels !== false,
          position: fd.labels_outside === false ? 'inner' : 'outer',
          formatter: label,
          // An outside label in the theme's text colour: left to ECharts, it is outlined in a shade of the page
          // (zrender's automatic stroke), a dark halo around the text on the dark theme.
          color: fd.labels_outside === false ? '#fff' : chartTheme(theme).text,
          ...(labelsOutside ? { overflow: 'truncate', width: labelRoom } : {}),
        },
        // 'Label Line': off unless asked, as Superset's default.
        labelLine: { show: labelsOutside && !!fd.label_line, ...line },
        emphasis: { scale: true },
        selectedMode: hasSelection(input.filterState) ? 'single' : false,
      },
    ],
    // The total in the donut's hole, or above a whole pie (not over its slices), as Superset places it.
    graphic: fd.show_total
      ? [
          {
            type: 'text',
            // Anchored by its centre (x) in the pie's box, not by its left edge.
            x: room.left + boxWidth / 2,
            y: fd.donut ? room.top + boxHeight / 2 : room.top,
            style: { text: `Total: ${numberFormat(total)}`, fontSize: 16, fontWeight: 'bold', fill: echartsBase(theme).textStyle.color, align: 'center', verticalAlign: fd.donut ? 'middle' : 'top' },
            z: 10,
          },
        ]
      : undefined,
  };
  return { option, groupby, sliceGroups };
}
