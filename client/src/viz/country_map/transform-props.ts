import type { TransformInput } from '../types';
import { rowsOf, type EChartsTransformed } from '../shared/echarts-chart';
import { escapeHtml, getNumberFormatter } from '../shared/format';
import { COUNTRY_MAP_PREFIX, regionName } from '../shared/geo-codes';
import { hasSelection, selectionStyle, UNSELECTED_OPACITY } from '../shared/cross-filter';
import { mapScale } from '../shared/map-scale';
import { columnLabel, metricLabel, toNumber, type ColumnEntry, type MetricEntry } from '../shared/metrics';
import { chartTheme, echartsBase } from '../shared/theme';
import { COUNTRY_MAP_COUNTRIES, countryKey, regionCodeOf } from './countries';

/**
 * Regions coloured by the metric: each row's ISO 3166-2 code (FR-75, DE-BY) matched against each region's code, as
 * Superset's Country Map; the USA's states also by postal code or name. A code that matches no region is not drawn.
 */
export function transformCountryMap({ formData: fd, queriesData, theme, filterState }: TransformInput): EChartsTransformed & { map: string | null } {
  const entity = columnLabel(fd.entity as ColumnEntry);
  const metric = metricLabel(fd.metric as MetricEntry);
  const format = getNumberFormatter(fd.number_format);
  const t = chartTheme(theme);
  const country = countryKey(fd.select_country);
  if (!country) throw new Error(`No shapes for ${fd.select_country}: choose one of the ${COUNTRY_MAP_COUNTRIES.length} countries under Country`);
  const map = country === 'usa' ? 'usa' : `${COUNTRY_MAP_PREFIX}${country}`;
  const groups: Record<string, unknown[]> = {};
  const data = rowsOf(queriesData).flatMap((row) => {
    const code = regionCodeOf(country, row[entity]);
    if (!code) return [];
    groups[code] = [row[entity]];
    const selection = selectionStyle(filterState, [row[entity]]);
    return [{ name: code, value: toNumber(row[metric]) ?? 0, ...(selection.opacity ? { itemStyle: selection } : {}) }];
  });
  const scale = mapScale(data.map((d) => d.value), format, fd.linear_color_scheme as string | undefined, theme);
  return {
    map,
    groupby: [entity],
    groups,
    option: {
      ...echartsBase(theme),
      animation: false,
      // The region's name and value (its code until its name is known).
      tooltip: {
        ...echartsBase(theme).tooltip,
        trigger: 'item',
        formatter: (p: any) => {
          const name = escapeHtml(regionName(map, p.name) ?? p.name);
          return p.data ? `${name}: ${format(p.data.value)}` : name;
        },
      },
      visualMap: scale.visualMap,
      series: [
        {
          type: 'map',
          map,
          nameProperty: 'code',
          aspectScale: 1,
          roam: true,
          ...scale.mapBox,
          // Fitted into the box with its proportions kept: a box given by its four sides otherwise stretches the
          // country to the cell's shape (Albania as wide as it is tall).
          preserveAspect: 'contain',
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
