/**
 * Every chart type, found by folder: each `viz/<viz_type>/index.ts` default-exports its ChartPlugin, so
 * adding a type is adding a folder. Index files hold only data and pure functions; each type's
 * component (and its ECharts parts) loads through `loadChart` when first drawn.
 */
import type { ChartPlugin } from './types';

const modules = import.meta.glob<{ default: ChartPlugin }>('./*/index.ts', { eager: true });

const plugins: ChartPlugin[] = Object.values(modules)
  .map((module) => module.default)
  .sort((a, b) => a.name.localeCompare(b.name));

const byKey = new Map(plugins.map((plugin) => [plugin.key, plugin]));

/** All registered chart types, by name. */
export function allChartPlugins(): readonly ChartPlugin[] {
  return plugins;
}

/** The chart type of a viz_type key, or undefined when it is not registered. */
export function getChartPlugin(vizType: string | null | undefined): ChartPlugin | undefined {
  return vizType ? byKey.get(vizType) : undefined;
}
