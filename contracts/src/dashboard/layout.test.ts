import { describe, expect, it } from 'vitest';
import { chartIdsOf, parseLayout, tabsOf, withChartUuids } from './layout';

// A layout in Superset's stored format: root → tabs → two tabs, the second holding nested tabs.
const layout = {
  DASHBOARD_VERSION_KEY: 'v2',
  ROOT_ID: { id: 'ROOT_ID', type: 'ROOT', children: ['TABS-1'] },
  'TABS-1': { id: 'TABS-1', type: 'TABS', children: ['TAB-a', 'TAB-b'], parents: ['ROOT_ID'] },
  'TAB-a': { id: 'TAB-a', type: 'TAB', children: ['ROW-1'], meta: { text: 'Overview' } },
  'TAB-b': { id: 'TAB-b', type: 'TAB', children: ['TABS-2'], meta: { text: 'Detail' } },
  'TABS-2': { id: 'TABS-2', type: 'TABS', children: ['TAB-c'] },
  'TAB-c': { id: 'TAB-c', type: 'TAB', children: ['ROW-2'], meta: { text: 'By state' } },
  'ROW-1': { id: 'ROW-1', type: 'ROW', children: ['CHART-1', 'CHART-2'] },
  'ROW-2': { id: 'ROW-2', type: 'ROW', children: ['CHART-3'] },
  'CHART-1': { id: 'CHART-1', type: 'CHART', meta: { chartId: 7, width: 4, height: 50 } },
  'CHART-2': { id: 'CHART-2', type: 'CHART', meta: { chartId: 9, width: 4, height: 50 } },
  'CHART-3': { id: 'CHART-3', type: 'CHART', meta: { chartId: 7, width: 4, height: 50 } },
};

describe('stored layout (spec 02 §3 Layout)', () => {
  it('lists the charts placed in it, each once', () => {
    expect(chartIdsOf(layout)).toEqual([7, 9]);
    expect(chartIdsOf({})).toEqual([]);
  });

  it("fills each chart's meta.uuid (chart meta {chartId, width, height, sliceName, uuid}), leaving unknown charts and the given layout as they were", () => {
    const filled = withChartUuids(layout, new Map([[7, 'uuid-7']])) as Record<string, any>;
    expect(filled['CHART-1'].meta).toEqual({ chartId: 7, width: 4, height: 50, uuid: 'uuid-7' });
    expect(filled['CHART-3'].meta.uuid).toBe('uuid-7');
    expect(filled['CHART-2'].meta.uuid).toBeUndefined();
    expect((layout['CHART-1'].meta as Record<string, unknown>).uuid).toBeUndefined();
    expect(filled['ROW-1']).toBe(layout['ROW-1']);
  });

  it('answers the tabs by id and as a tree', () => {
    expect(tabsOf(layout)).toEqual({
      all_tabs: { 'TAB-a': 'Overview', 'TAB-b': 'Detail', 'TAB-c': 'By state' },
      tab_tree: [
        { title: 'Overview', value: 'TAB-a' },
        { title: 'Detail', value: 'TAB-b', children: [{ title: 'By state', value: 'TAB-c' }] },
      ],
    });
  });

  it('reads broken or absent text as no layout', () => {
    expect(parseLayout('{nope')).toEqual({});
    expect(parseLayout(null)).toEqual({});
    expect(parseLayout('[1]')).toEqual({});
  });
});
