/**
 * Every chart type, found by folder: each `viz/<viz_type>/meta.ts` default-exports what lists and the
 * gallery show (loaded with the registry), and `viz/<viz_type>/index.ts` its ChartPlugin (control panel,
 * buildQuery, transformProps), loaded the first time that type is used; its component (and ECharts parts)
 * loads later still, through `loadChart`, when first drawn. Adding a type is adding a folder.
 */
import { useEffect, useState } from 'react';
import { loadOnce } from './shared/load-once';
import type { ChartMeta, ChartPlugin } from './types';

const metaModules = import.meta.glob<{ default: ChartMeta }>('./*/meta.ts', { eager: true });
const pluginModules = import.meta.glob<{ default: ChartPlugin }>('./*/index.ts');

const metas: ChartMeta[] = Object.values(metaModules)
  .map((module) => module.default)
  .sort((a, b) => a.name.localeCompare(b.name));
const metaByKey = new Map(metas.map((meta) => [meta.key, meta]));
const loaderByKey = new Map(Object.entries(pluginModules).map(([path, load]) => [path.split('/')[1]!, load]));

const plugins = loadOnce((vizType: string) => loaderByKey.get(vizType)!().then((module) => module.default));

/** All registered chart types, by name. */
export function allChartTypes(): readonly ChartMeta[] {
  return metas;
}

/** What is known of a viz_type before its code loads, or undefined when it is not registered. */
export function getChartMeta(vizType: string | null | undefined): ChartMeta | undefined {
  return vizType ? metaByKey.get(vizType) : undefined;
}

/** The chart type of a viz_type key once loaded (see loadChartPlugin / useChartPlugin), else undefined. */
export function getChartPlugin(vizType: string | null | undefined): ChartPlugin | undefined {
  return vizType ? plugins.get(vizType) : undefined;
}

/** Loads a chart type's code (once); undefined for a viz_type that is not registered. */
export function loadChartPlugin(vizType: string | null | undefined): Promise<ChartPlugin | undefined> {
  return vizType && loaderByKey.has(vizType) ? plugins.load(vizType) : Promise.resolve(undefined);
}

/**
 * A chart type for a component: `plugin` once its code is loaded (at once when it already is), `unknown`
 * when the viz_type is not registered, `failed` when its code could not load.
 */
export function useChartPlugin(vizType: string | null | undefined): { plugin: ChartPlugin | undefined; unknown: boolean; failed: boolean } {
  const [, setLoadedType] = useState<string | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  const plugin = getChartPlugin(vizType);
  const unknown = !getChartMeta(vizType);
  useEffect(() => {
    if (plugin || unknown || !vizType) return;
    let live = true;
    loadChartPlugin(vizType).then(
      () => live && setLoadedType(vizType),
      () => live && setFailed(vizType),
    );
    return () => {
      live = false;
    };
  }, [vizType, plugin, unknown]);
  return { plugin, unknown, failed: !!vizType && failed === vizType };
}
