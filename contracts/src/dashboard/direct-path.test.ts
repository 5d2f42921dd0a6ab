import { describe, expect, it } from 'vitest';
import { directPathToChild, tabsShowingPath } from './direct-path';
import { GRID_ID, layoutOfRows, ROOT_ID } from './layout-reducer';

// spec 02 §2 'Dashboard permalinks carry URL params, data mask, active tabs and an anchor': the anchor's component is
// shown (its tabs opened) and scrolled to, as Superset's directPathToChild does.
describe('a permalink anchor: the path to its component and the tabs that show it', () => {
  const layout = layoutOfRows('Tabbed', [
    { tab: 'First', rows: [[{ chartId: 1, width: 6 }]] },
    { tab: 'Second', rows: [[{ chartId: 2, width: 6 }]] },
  ]);
  const chartComponent = (chartId: number) => Object.values(layout).find((c) => c.type === 'CHART' && c.meta.chartId === chartId)!.id;
  const tabsId = layout[GRID_ID]!.children[0]!;
  const [first, second] = layout[tabsId]!.children;

  it("runs from the root to the anchor's component, itself last", () => {
    const path = directPathToChild(layout, chartComponent(2));
    expect(path.slice(0, 4)).toEqual([ROOT_ID, GRID_ID, tabsId, second]);
    expect(path.at(-1)).toBe(chartComponent(2));
    expect(layout[path.at(-2)!]!.type).toBe('ROW');
  });

  it('opens the tab holding the anchor, and the tab that is the anchor', () => {
    expect(tabsShowingPath(layout, directPathToChild(layout, chartComponent(2)))).toEqual({ [tabsId]: second });
    expect(tabsShowingPath(layout, directPathToChild(layout, first!))).toEqual({ [tabsId]: first });
  });

  it('finds nothing for a component the layout does not hold (a chart removed since the link was made)', () => {
    expect(directPathToChild(layout, 'CHART-gone')).toEqual([]);
    expect(tabsShowingPath(layout, [])).toEqual({});
  });
});
