/**
 * Reading Superset's stored layout (`position_json`, spec 02 §3 Layout): a map of components by id,
 * each with type, children, parents and meta. These helpers only read it; the edit actions are reducers
 * of their own.
 */

export interface LayoutComponent {
  id: string;
  type: string;
  children?: string[];
  parents?: string[];
  meta?: { chartId?: number; text?: string; sliceName?: string; [key: string]: unknown };
}

export type Layout = Record<string, LayoutComponent | unknown>;

export interface TabNode {
  title: string;
  value: string;
  children?: TabNode[];
}

const componentOf = (layout: Layout, id: string): LayoutComponent | null => {
  const c = layout[id] as LayoutComponent | undefined;
  return c && typeof c === 'object' && typeof c.type === 'string' ? c : null;
};

/** Parses position_json text; anything that is not a JSON object reads as no layout. */
export function parseLayout(text: string | null | undefined): Layout {
  if (!text) return {};
  try {
    const value = JSON.parse(text);
    return value && typeof value === 'object' && !Array.isArray(value) ? value : {};
  } catch {
    return {};
  }
}

/** The chart ids placed in a layout (CHART components' meta.chartId), each once, in layout order. */
export function chartIdsOf(layout: Layout): number[] {
  const ids: number[] = [];
  for (const key of Object.keys(layout)) {
    const c = componentOf(layout, key);
    const id = c?.type === 'CHART' ? Number(c.meta?.chartId) : NaN;
    if (Number.isInteger(id) && !ids.includes(id)) ids.push(id);
  }
  return ids;
}

/**
 * The layout with each chart component's `meta.uuid` set to its chart's uuid, as Superset's save fills it (a chart's
 * meta is `{chartId, width, height, sliceName, uuid}`). Charts `uuids` does not know keep what they had; the layout
 * given is not changed. Example: `withChartUuids(layout, new Map([[7, '3f2a…']]))`.
 */
export function withChartUuids(layout: Layout, uuids: ReadonlyMap<number, string | null | undefined>): Layout {
  const out: Layout = { ...layout };
  for (const key of Object.keys(layout)) {
    const c = componentOf(layout, key);
    const uuid = c?.type === 'CHART' ? uuids.get(Number(c.meta?.chartId)) : undefined;
    if (c && uuid && c.meta?.uuid !== uuid) out[key] = { ...c, meta: { ...c.meta, uuid } };
  }
  return out;
}

/**
 * The tabs of a layout as `GET /api/v1/dashboard/{id}/tabs` answers them: every tab by id with its
 * title, and the tree of tabs nested in tabs, walked from the root.
 */
export function tabsOf(layout: Layout): { all_tabs: Record<string, string>; tab_tree: TabNode[] } {
  const all_tabs: Record<string, string> = {};
  const seen = new Set<string>();
  const walk = (id: string): TabNode[] => {
    if (seen.has(id)) return [];
    seen.add(id);
    const c = componentOf(layout, id);
    if (!c) return [];
    const below = (c.children ?? []).flatMap(walk);
    if (c.type !== 'TAB') return below;
    const title = String(c.meta?.text ?? '');
    all_tabs[c.id] = title;
    return [below.length ? { title, value: c.id, children: below } : { title, value: c.id }];
  };
  const root = Object.keys(layout).find((k) => componentOf(layout, k)?.type === 'ROOT') ?? 'ROOT_ID';
  return { all_tabs, tab_tree: walk(root) };
}
