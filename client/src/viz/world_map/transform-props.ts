import countries from 'i18n-iso-countries';
import en from 'i18n-iso-countries/langs/en.json';
import type { TransformInput } from '../types';
import { hasSelection, selectionStyle, UNSELECTED_OPACITY } from '../shared/cross-filter';
import { mapScale } from '../shared/map-scale';
import { rowsOf, type EChartsTransformed } from '../shared/echarts-chart';
import { getNumberFormatter } from '../shared/format';
import { columnLabel, displayNames, metricLabel, toNumber, type ColumnEntry, type MetricEntry } from '../shared/metrics';
import { chartTheme, echartsBase } from '../shared/theme';

countries.registerLocale(en);

/** A country value → its ISO 3166 numeric code (world-atlas's key), by the field type Superset names. */
export function countryCode(value: unknown, fieldType: string): string | null {
  const text = String(value ?? '').trim();
  if (!text) return null;
  const numeric =
    fieldType === 'cca2' ? countries.alpha2ToNumeric(text) : fieldType === 'name' ? countries.alpha2ToNumeric(countries.getAlpha2Code(text, 'en') ?? countries.getSimpleAlpha2Code(text, 'en') ?? '') : countries.alpha3ToNumeric(text);
  return numeric ? String(numeric).padStart(3, '0') : null;
}

/** Countries coloured by the metric on a sequential scale; with bubbles, sized by the secondary metric. */
export function transformWorldMap({ formData: fd, queriesData, datasource, theme, filterState }: TransformInput): EChartsTransformed & { map: 'world' } {
  const names = displayNames(datasource);
  const entity = columnLabel(fd.entity as ColumnEntry);
  const metric = metricLabel(fd.metric as MetricEntry);
  const secondary = fd.secondary_metric ? metricLabel(fd.secondary_metric as MetricEntry) : null;
  const fieldType = String(fd.country_fieldtype ?? 'cca3');
  const format = getNumberFormatter(fd.y_axis_format);
  const t = chartTheme(theme);
  const groups: Record<string, unknown[]> = {};
  const data = rowsOf(queriesData).flatMap((row) => {
    const code = countryCode(row[entity], fieldType);
    if (!code) return [];
    groups[code] = [row[entity]];
    const selection = selectionStyle(filterState, [row[entity]]);
    return [{ name: code, label: String(row[entity]), value: toNumber(row[metric]) ?? 0, secondary: secondary ? (toNumber(row[secondary]) ?? 0) : null, ...(selection.opacity ? { itemStyle: selection } : {}) }];
  });
  const scale = mapScale(data.map((d) => d.value), format, fd.linear_color_scheme as string | undefined, theme);
  return {
    map: 'world',
    groupby: [entity],
    groups,
    option: {
      ...echartsBase(theme),
      animation: false,
      tooltip: { ...echartsBase(theme).tooltip, trigger: 'item', formatter: (p: any) => (p.data ? `${p.data.label}: ${format(p.data.value)}${p.data.secondary !== null && secondary ? `<br/>${names(secondary)}: ${format(p.data.secondary)}` : ''}` : '') },
      visualMap: { ...scale.visualMap, seriesIndex: 0 },
      series: [
        {
          type: 'map',
          map: 'world',
          nameProperty: 'code',
          roam: true,
          ...scale.mapBox,
          // Fitted into the box with the world's proportions kept (a box given by its four sides stretched it to the cell).
          preserveAspect: 'contain',
          // While the chart's own cross-filter is in effect every country is faded but the selected one (as Superset's charts).
          itemStyle: { areaColor: t.noData, borderColor: t.tooltipBackground, borderWidth: 0.5, ...(hasSelection(filterState) ? { opacity: UNSELECTED_OPACITY } : {}) },
          emphasis: { label: { show: false }, itemStyle: { areaColor: '#FCC700' } },
          select: { disabled: true },
          data,
        },
      ],
    },
  };
}
