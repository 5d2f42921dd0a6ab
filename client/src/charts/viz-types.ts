/** Superset's names of its common chart types, for the list (the chart registry of Explore is the owner of types). */
export const VIZ_TYPE_NAMES: Readonly<Record<string, string>> = {
  table: 'Table',
  pivot_table_v2: 'Pivot Table',
  big_number_total: 'Big Number',
  big_number: 'Big Number with Trendline',
  echarts_timeseries: 'Generic Chart',
  echarts_timeseries_line: 'Line Chart',
  echarts_timeseries_bar: 'Bar Chart',
  echarts_area: 'Area Chart',
  echarts_timeseries_scatter: 'Scatter Plot',
  echarts_timeseries_smooth: 'Smooth Line',
  echarts_timeseries_step: 'Stepped Line',
  mixed_timeseries: 'Mixed Chart',
  pie: 'Pie Chart',
  funnel: 'Funnel Chart',
  gauge_chart: 'Gauge Chart',
  treemap_v2: 'Treemap',
  sunburst_v2: 'Sunburst Chart',
  heatmap_v2: 'Heatmap',
  histogram_v2: 'Histogram',
  box_plot: 'Box Plot',
  bubble_v2: 'Bubble Chart',
  radar: 'Radar Chart',
  word_cloud: 'Word Cloud',
  sankey_v2: 'Sankey Chart',
  graph_chart: 'Graph Chart',
  waterfall: 'Waterfall Chart',
  world_map: 'World Map',
  country_map: 'Country Map',
  line: 'Line Chart (legacy)',
  bar: 'Bar Chart (legacy)',
};

/** The display name of a viz type key ('echarts_timeseries_line' → 'Line Chart'); unknown keys are humanised. */
export function vizTypeName(key: string | null | undefined): string {
  if (!key) return 'Unknown';
  return VIZ_TYPE_NAMES[key] ?? key.replace(/_/g, ' ').replace(/^\w/, (c) => c.toUpperCase());
}
