import { ROOT_ID, type LayoutMap } from './layout-reducer';

/**
 * Superset's directPathToChild: the component ids from the root down to `componentId` (a permalink's anchor, a
 * focused chart's component), itself last; empty when the layout does not reach it.
 *
 * @example directPathToChild(layout, 'CHART-a') // ['ROOT_ID', 'TABS-1', 'TAB-2', 'ROW-3', 'CHART-a']
 */
export function directPathToChild(layout: LayoutMap, componentId: string): string[] {
  const seen = new Set<string>();
  const walk = (id: string, path: string[]): string[] | null => {
    const c = layout[id];
    if (!c || seen.has(id)) return null;
    seen.add(id);
    const here = [...path, id];
    if (id === componentId) return here;
    for (const child of c.children) {
      const found = walk(child, here);
      if (found) return found;
    }
    return null;
  };
  return walk(ROOT_ID, []) ?? [];
}

/**
 * The tab each tabs container on a direct path must show for the path's last component to be seen, as
 * `{tabsId: tabId}` (a TAB on the path is the choice of the TABS above it).
 */
export function tabsShowingPath(layout: LayoutMap, path: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  path.forEach((id, i) => {
    const parent = path[i - 1];
    if (layout[id]?.type === 'TAB' && parent && layout[parent]?.type === 'TABS') out[parent] = id;
  });
  return out;
}
