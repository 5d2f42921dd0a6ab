import { describe, it, expect } from 'vitest';
import { sqlLabActions as act } from './actions';
import { sqlLabReducer } from './reducer';
import { query, twoTabs } from './test-fixtures';
import type { TableSchema } from './types';

const table = (overrides: Partial<TableSchema> = {}): TableSchema => ({
  id: 't1', dbId: 1, queryEditorId: 'a', schema: 'public', name: 'orders', expanded: true, ...overrides,
});

describe('tables in a tab (spec 01 §4)', () => {
  it('merging a new table adds it with its preview query and makes it the bottom pane tab', () => {
    const next = sqlLabReducer(twoTabs(), act.mergeTable(table(), { id: 'preview1' }));
    expect(next.tables).toEqual([{ ...table(), dataPreviewQueryId: 'preview1' }]);
    expect(next.activeSouthPaneTab).toBe('t1');
  });

  it('merging a known table updates it and keeps a server id once initialised', () => {
    const state = twoTabs({ tables: [table({ id: '15', initialized: true, expanded: false })] });
    const next = sqlLabReducer(state, act.mergeTable(table({ id: 'tmp', columns: [{ name: 'x' }] }), { id: 'p2' }));
    expect(next.tables).toHaveLength(1);
    expect(next.tables[0]).toMatchObject({ id: '15', expanded: true, dataPreviewQueryId: 'p2', columns: [{ name: 'x' }] });
  });

  it('prepends when asked', () => {
    const state = twoTabs({ tables: [table()] });
    const next = sqlLabReducer(state, act.mergeTable(table({ id: 't2', name: 'users', expanded: false }), undefined, true));
    expect(next.tables.map((t) => t.id)).toEqual(['t2', 't1']);
    expect(next.activeSouthPaneTab).toBe('Results');
  });

  it("'expanded or collapsed'", () => {
    let state = twoTabs({ tables: [table({ expanded: false })] });
    state = sqlLabReducer(state, { type: 'EXPAND_TABLE', table: { id: 't1' } });
    expect(state.tables[0].expanded).toBe(true);
    state = sqlLabReducer(state, { type: 'COLLAPSE_TABLE', table: { id: 't1' } });
    expect(state.tables[0].expanded).toBe(false);
  });

  it('removing the table shown in the bottom pane falls back to a sibling table, else Results', () => {
    const state = twoTabs({ tables: [table(), table({ id: 't2', name: 'users' })], activeSouthPaneTab: 't1' });
    const once = sqlLabReducer(state, { type: 'REMOVE_TABLES', tables: [{ id: 't1', queryEditorId: 'a' }] });
    expect(once.activeSouthPaneTab).toBe('t2');
    const twice = sqlLabReducer(once, { type: 'REMOVE_TABLES', tables: [{ id: 't2', queryEditorId: 'a' }] });
    expect(twice.tables).toEqual([]);
    expect(twice.activeSouthPaneTab).toBe('Results');
  });

  it('removing a data preview drops its query', () => {
    const state = twoTabs({ tables: [table({ dataPreviewQueryId: 'p' })], queries: { p: query('p') } });
    const next = sqlLabReducer(state, { type: 'REMOVE_DATA_PREVIEW', table: { id: 't1', dataPreviewQueryId: 'p' } });
    expect(next.queries).toEqual({});
    expect(next.tables[0].dataPreviewQueryId).toBeNull();
  });

  it('changing the data preview id repoints the tables and drops the old query', () => {
    const state = twoTabs({ tables: [table({ dataPreviewQueryId: 'old' })], queries: { old: query('old') } });
    const next = sqlLabReducer(state, { type: 'CHANGE_DATA_PREVIEW_ID', oldQueryId: 'old', newQuery: { id: 'new' } });
    expect(next.tables[0].dataPreviewQueryId).toBe('new');
    expect(next.queries.old).toBeUndefined();
  });

  it('migrating a table replaces the local one with the server one', () => {
    const state = twoTabs({ tables: [table()] });
    const next = sqlLabReducer(state, { type: 'MIGRATE_TABLE', oldTable: { id: 't1' }, newTable: table({ id: '88' }) });
    expect(next.tables.map((t) => t.id)).toEqual(['88']);
  });

  it('set tables replaces by id and appends new ones', () => {
    const state = twoTabs({ tables: [table()] });
    const next = sqlLabReducer(state, { type: 'SET_TABLES', tables: [table({ expanded: false }), table({ id: 't3' })] });
    expect(next.tables.map((t) => [t.id, t.expanded])).toEqual([['t1', false], ['t3', true]]);
  });
});
