import { describe, expect, it } from 'vitest';
import {
  depthOf,
  emptyLayout,
  GRID_ID,
  HEADER_ID,
  chartComponentIds,
  layoutOfRows,
  layoutReducer,
  newComponent,
  positionFromLayout,
  ONE_TOP_LEVEL_TABS,
  ROOT_ID,
  type LayoutMap,
  type LayoutResult,
} from './layout-reducer';
import { CANNOT_MOVE_TOP_LEVEL_TAB as TOP_LEVEL_TAB_INTO_NESTED, NOT_ENOUGH_SPACE } from '../messages';

const ok = (r: LayoutResult): LayoutMap => {
  if (!r.ok) throw new Error(r.error);
  return r.layout;
};

function chart(chartId: number, width = 4) {
  return newComponent('CHART', { chartId, width, height: 50 });
}

describe('dashboard layout actions (spec 02 §4, §5)', () => {
  it('a new layout starts with a root and a grid', () => {
    const l = emptyLayout('Sales');
    expect(l[ROOT_ID].children).toEqual([GRID_ID]);
    expect(l[GRID_ID].type).toBe('GRID');
    expect(positionFromLayout(l).DASHBOARD_VERSION_KEY).toBe('v2');
  });

  it('a chart dropped into the grid is wrapped in a row; another fits beside it until the row is full', () => {
    let l = emptyLayout();
    const a = chart(1, 6);
    l = ok(layoutReducer(l, { type: 'CREATE_COMPONENT', component: a, destination: { parentId: GRID_ID, index: 0 } }));
    const rowId = l[GRID_ID].children[0];
    expect(l[rowId].type).toBe('ROW');
    expect(l[rowId].children).toEqual([a.id]);
    expect(l[a.id].parents).toEqual([ROOT_ID, GRID_ID, rowId]);
    const b = chart(2, 6);
    l = ok(layoutReducer(l, { type: 'CREATE_COMPONENT', component: b, destination: { parentId: rowId, index: 1 } }));
    expect(l[rowId].children).toEqual([a.id, b.id]);
    // 'There is not enough space for this component. Try decreasing its width, or increasing the destination width.'
    const c = chart(3, 1);
    const refused = layoutReducer(l, { type: 'CREATE_COMPONENT', component: c, destination: { parentId: rowId, index: 2 } });
    expect(refused).toMatchObject({ ok: false, error: NOT_ENOUGH_SPACE });
    expect(refused.layout).toBe(l);
  });

  it('moving the last chart out of a row removes the empty row', () => {
    let l = emptyLayout();
    const a = chart(1);
    const b = chart(2);
    l = ok(layoutReducer(l, { type: 'CREATE_COMPONENT', component: a, destination: { parentId: GRID_ID, index: 0 } }));
    l = ok(layoutReducer(l, { type: 'CREATE_COMPONENT', component: b, destination: { parentId: GRID_ID, index: 1 } }));
    const [row1, row2] = l[GRID_ID].children;
    l = ok(layoutReducer(l, { type: 'MOVE_COMPONENT', id: b.id, destination: { parentId: row1, index: 1 } }));
    expect(l[row2]).toBeUndefined();
    expect(l[GRID_ID].children).toEqual([row1]);
    expect(l[row1].children).toEqual([a.id, b.id]);
  });

  it("'Empty tabs or rows are removed after a move': a new empty row stays until a move empties a row", () => {
    let l = emptyLayout();
    const row = newComponent('ROW');
    l = ok(layoutReducer(l, { type: 'CREATE_COMPONENT', component: row, destination: { parentId: GRID_ID, index: 0 } }));
    expect(l[GRID_ID].children).toEqual([row.id]);
    expect(l[row.id].parents).toEqual([ROOT_ID, GRID_ID]);
    const a = chart(1);
    l = ok(layoutReducer(l, { type: 'CREATE_COMPONENT', component: a, destination: { parentId: GRID_ID, index: 1 } }));
    const aRow = l[GRID_ID].children[1];
    const spare = newComponent('ROW');
    l = ok(layoutReducer(l, { type: 'CREATE_COMPONENT', component: spare, destination: { parentId: GRID_ID, index: 2 } }));
    l = ok(layoutReducer(l, { type: 'MOVE_COMPONENT', id: a.id, destination: { parentId: row.id, index: 0 } }));
    expect(l[row.id].children).toEqual([a.id]);
    expect(l[aRow]).toBeUndefined();
    // The row the chart left goes; an empty row the move did not touch stays.
    expect(l[GRID_ID].children).toEqual([row.id, spare.id]);
  });

  it("deleting a row's last chart removes the row; deleting a container removes what it holds", () => {
    let l = emptyLayout();
    const a = chart(1);
    l = ok(layoutReducer(l, { type: 'CREATE_COMPONENT', component: a, destination: { parentId: GRID_ID, index: 0 } }));
    const row = l[GRID_ID].children[0];
    const next = ok(layoutReducer(l, { type: 'DELETE_COMPONENT', id: a.id }));
    expect(next[row]).toBeUndefined();
    expect(next[GRID_ID].children).toEqual([]);
    const gone = ok(layoutReducer(l, { type: 'DELETE_COMPONENT', id: row }));
    expect(gone[a.id]).toBeUndefined();
  });

  it("top-level tabs take the grid's content and give it back; only tabs may sit at the root", () => {
    let l = emptyLayout();
    const a = chart(1);
    l = ok(layoutReducer(l, { type: 'CREATE_COMPONENT', component: a, destination: { parentId: GRID_ID, index: 0 } }));
    const row = l[GRID_ID].children[0];
    const tabbed = ok(layoutReducer(l, { type: 'CREATE_TOP_LEVEL_TABS' }));
    const tabsId = tabbed[ROOT_ID].children[0];
    expect(tabbed[tabsId].type).toBe('TABS');
    const tabId = tabbed[tabsId].children[0];
    expect(tabbed[tabId].children).toEqual([row]);
    expect(depthOf(tabbed, tabsId)).toBe(1);
    expect(depthOf(tabbed, row)).toBe(2);
    const back = ok(layoutReducer(tabbed, { type: 'DELETE_TOP_LEVEL_TABS' }));
    expect(back[ROOT_ID].children).toEqual([GRID_ID]);
    expect(back[GRID_ID].children).toEqual([row]);

  });

  it("'A chart dropped at the root gets a tab container': top-level tabs, the grid's content and the chart in the first tab", () => {
    let l = ok(layoutReducer(emptyLayout(), { type: 'CREATE_COMPONENT', component: chart(1), destination: { parentId: GRID_ID, index: 0 } }));
    const row = l[GRID_ID].children[0];
    const lone = chart(9);
    l = ok(layoutReducer(l, { type: 'CREATE_COMPONENT', component: lone, destination: { parentId: ROOT_ID, index: 0 } }));
    const tabsId = l[ROOT_ID].children[0];
    expect(l[ROOT_ID].children).toHaveLength(1);
    expect(l[tabsId].type).toBe('TABS');
    expect(l[GRID_ID]).toBeUndefined();
    const tab = l[l[tabsId].children[0]];
    expect(tab.children).toHaveLength(2);
    expect(tab.children[1]).toBe(row);
    expect(l[tab.children[0]]).toMatchObject({ type: 'ROW', children: [lone.id] });
    expect(l[lone.id].parents).toEqual([ROOT_ID, tabsId, tab.id, tab.children[0]]);

    // Tabs already at the root are not displaced: a second drop there is refused and nothing moves.
    const tabs = newComponent('TABS');
    const newTab = newComponent('TAB');
    tabs.children = [newTab.id];
    const refused = layoutReducer(l, { type: 'CREATE_COMPONENT', component: tabs, extra: [newTab], destination: { parentId: ROOT_ID, index: 0 } });
    expect(refused).toMatchObject({ ok: false, error: ONE_TOP_LEVEL_TABS });
    expect(refused.layout).toBe(l);
  });

  it('new tabs dropped at the root take the grid’s content; a row moved there goes to the top of the first tab', () => {
    let l = ok(layoutReducer(emptyLayout(), { type: 'CREATE_COMPONENT', component: chart(1), destination: { parentId: GRID_ID, index: 0 } }));
    l = ok(layoutReducer(l, { type: 'CREATE_COMPONENT', component: chart(2), destination: { parentId: GRID_ID, index: 1 } }));
    const [first, second] = l[GRID_ID].children;
    const moved = ok(layoutReducer(l, { type: 'MOVE_COMPONENT', id: second!, destination: { parentId: ROOT_ID, index: 0 } }));
    const movedTab = moved[moved[moved[ROOT_ID].children[0]].children[0]];
    expect(movedTab.children).toEqual([second, first]);

    const tabs = newComponent('TABS');
    const tab = newComponent('TAB');
    tabs.children = [tab.id];
    const tabbed = ok(layoutReducer(l, { type: 'CREATE_COMPONENT', component: tabs, extra: [tab], destination: { parentId: ROOT_ID, index: 0 } }));
    expect(tabbed[ROOT_ID].children).toEqual([tabs.id]);
    expect(tabbed[tab.id].children).toEqual([first, second]);
    expect(tabbed[GRID_ID]).toBeUndefined();
  });

  it("'Can not move top level tab into nested tabs'", () => {
    let l = ok(layoutReducer(emptyLayout(), { type: 'CREATE_TOP_LEVEL_TABS' }));
    const topTabs = l[ROOT_ID].children[0];
    const tab = l[topTabs].children[0];
    const nestedTabs = newComponent('TABS');
    const nestedTab = newComponent('TAB');
    nestedTabs.children = [nestedTab.id];
    l = ok(layoutReducer(l, { type: 'CREATE_COMPONENT', component: nestedTabs, extra: [nestedTab], destination: { parentId: tab, index: 0 } }));
    const refused = layoutReducer(l, { type: 'MOVE_COMPONENT', id: topTabs, destination: { parentId: nestedTab.id, index: 0 } });
    expect(refused).toMatchObject({ ok: false });
    if (!refused.ok) expect([TOP_LEVEL_TAB_INTO_NESTED, 'A component cannot be dropped into itself']).toContain(refused.error);
  });

  it('nesting is bounded: a column holds rows, but not a column, and a chart moved to another tab warns about filter scope', () => {
    let l = ok(layoutReducer(emptyLayout(), { type: 'CREATE_TOP_LEVEL_TABS' }));
    const topTabs = l[ROOT_ID].children[0];
    const tab1 = l[topTabs].children[0];
    const tab2 = newComponent('TAB');
    l = { ...l, [tab2.id]: { ...tab2, parents: [ROOT_ID, topTabs] }, [topTabs]: { ...l[topTabs], children: [tab1, tab2.id] } };
    const column = newComponent('COLUMN');
    l = ok(layoutReducer(l, { type: 'CREATE_COMPONENT', component: column, destination: { parentId: tab1, index: 0 } }));
    expect(layoutReducer(l, { type: 'CREATE_COMPONENT', component: newComponent('COLUMN'), destination: { parentId: column.id, index: 0 } }).ok).toBe(false);
    const a = chart(1);
    l = ok(layoutReducer(l, { type: 'CREATE_COMPONENT', component: a, destination: { parentId: column.id, index: 0 } }));
    const moved = layoutReducer(l, { type: 'MOVE_COMPONENT', id: a.id, destination: { parentId: tab2.id, index: 0 } });
    expect(moved).toMatchObject({ ok: true, warning: 'This chart has been moved to a different filter scope.' });
  });

  it("resizes within the row's free width and the row-height bounds", () => {
    let l = emptyLayout();
    const a = chart(1, 4);
    const b = chart(2, 4);
    l = ok(layoutReducer(l, { type: 'CREATE_COMPONENT', component: a, destination: { parentId: GRID_ID, index: 0 } }));
    const row = l[GRID_ID].children[0];
    l = ok(layoutReducer(l, { type: 'CREATE_COMPONENT', component: b, destination: { parentId: row, index: 1 } }));
    l = ok(layoutReducer(l, { type: 'RESIZE_COMPONENT', id: a.id, width: 11, height: 2 }));
    expect(l[a.id].meta).toMatchObject({ width: 8, height: 5 });
  });
});

describe('layoutOfRows', () => {
  it('builds rows of charts and markdown under the grid, with parents, in the stored format', () => {
    const layout = layoutOfRows('Births', [[{ chartId: 1, sliceName: 'a', width: 6 }, { markdown: '# hi', width: 6 }], [{ chartId: 2 }]]);
    const rows = layout[GRID_ID]!.children.map((id) => layout[id]!);
    expect(rows.map((r) => r.type)).toEqual(['ROW', 'ROW']);
    const [chart, markdown] = rows[0]!.children.map((id) => layout[id]!);
    expect(chart).toMatchObject({ type: 'CHART', parents: [ROOT_ID, GRID_ID, rows[0]!.id], meta: { chartId: 1, sliceName: 'a', width: 6, height: 50 } });
    expect(markdown).toMatchObject({ type: 'MARKDOWN', meta: { code: '# hi', width: 6 } });
    expect(layout[HEADER_ID]!.meta.text).toBe('Births');
    expect(chartComponentIds(layout).get(2)).toBe(rows[1]!.children[0]);
  });

  it('puts each tab’s rows in a tab of one tabs container at the root of the grid', () => {
    const layout = layoutOfRows('x', [{ tab: 'One', rows: [[{ chartId: 1 }]] }, { tab: 'Two', rows: [[{ chartId: 2 }]] }]);
    const tabs = layout[layout[GRID_ID]!.children[0]!]!;
    expect(tabs.type).toBe('TABS');
    expect(tabs.children.map((id) => layout[id]!.meta.text)).toEqual(['One', 'Two']);
    const chart2 = layout[chartComponentIds(layout).get(2)!]!;
    expect(chart2.parents).toEqual([ROOT_ID, GRID_ID, tabs.id, tabs.children[1], layout[tabs.children[1]!]!.children[0]]);
  });
});
