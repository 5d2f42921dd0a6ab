import type { TransformInput } from '../types';
import { rowsOf, type EChartsTransformed } from '../shared/echarts-chart';
import { getNumberFormatter } from '../shared/format';
import { usStateCode } from '../shared/geo-codes';
import { hasSelection, selectionStyle, UNSELECTED_OPACITY } from '../shared/cross-filter';
import { mapScale } from '../shared/map-scale';
import { columnLabel, metricLabel, toNumber, type ColumnEntry, type MetricEntry } from '../shared/metrics';
import { chartTheme, echartsBase } from '../shared/theme';

/** The countries whose subdivision shapes ship with Meridian (from us-atlas); Superset's other countries need shapes no npm package carries. */
export const COUNTRY_MAP_COUNTRIES = [['usa', 'USA']] as const;

/** Subdivisions (ISO 3166-2 codes, e.g. US-CA, or their names) coloured by the metric. */
export function transformCountryMap({ formData: fd, queriesData, theme, filterState }: TransformInput): EChartsTransformed & { map: 'usa' | null } {
  const entity = columnLabel(fd.entity as ColumnEntry);
  const metric = metricLabel(fd.metric as MetricEntry);
  const format = getNumberFormatter(fd.number_format);
  const t = chartTheme(theme);
  const country = String(fd.select_country ?? 'usa').toLowerCase();
  if (country !== 'usa') throw new Error(`No shapes for ${fd.select_country}: country maps are available for ${COUNTRY_MAP_COUNTRIES.map((c) => c[1]).join(', ')}`);
  const groups: Record<string, unknown[]> = {};
  const data = rowsOf(queriesData).flatMap((row) => {
    const code = usStateCode(row[entity]);
    if (!code) return [];
    groups[code] = [row[entity]];
    const selection = selectionStyle(filterState, [row[entity]]);
    return [{ name: code, value: toNumber(row[metric]) ?? 0, ...(selection.opacity ? { itemStyle: selection } : {}) }];
  });
  const scale = mapScale(data.map((d) => d.value), format, fd.linear_color_scheme as string | undefined, theme);
  return {
    map: 'usa',
    groupby: [entity],
    groups,
    option: {
      ...echartsBase(theme),
      animation: false,
      tooltip: { ...echartsBase(theme).tooltip, trigger: 'item', formatter: (p: any) => (p.data ? `${p.name}: ${format(p.data.value)}` : p.name) },
      visualMap: scale.visualMap,
      series: [
        {
          type: 'map',
          map: 'usa',
          nameProperty: 'code',
          aspectScale: 1,
          roam: true,
          ...scale.mapBox,
          // While the chart's own cross-filter is in effect every region is faded but the selected one (as Superset's charts).
          itemStyle: { areaColor: t.noData, borderColor: t.tooltipBackground, borderWidth: 0.7, ...(hasSelection(filterState) ? { opacity: UNSELECTED_OPACITY } : {}) },
          emphasis: { label: { show: false }, itemStyle: { areaColor: '#FCC700' } },
          select: { disabled: true },
          data,
        },
      ],
    },
  };
}
