import { describe, it, expect } from 'vitest';
import { sqlLabActions as act } from './actions';
import { adjacentQueryEditorId, getActiveQueryEditor, otherQueryEditorIds } from './editors.reducer';
import { sqlLabReducer } from './reducer';
import { editor, query, twoTabs } from './test-fixtures';
import type { TableSchema } from './types';

const table = (id: string, queryEditorId: string): TableSchema => ({
  id, dbId: 1, queryEditorId, schema: 'public', name: `t_${id}`, expanded: true,
});

describe('editor tabs (spec 01 §4 "Editor tabs")', () => {
  it('add: the new tab is appended, becomes active and is stamped', () => {
    const next = sqlLabReducer(twoTabs(), act.addQueryEditor(editor('c'), 123));
    expect(next.queryEditors.map((qe) => qe.id)).toEqual(['a', 'b', 'c']);
    expect(next.tabHistory.at(-1)).toBe('c');
    expect(next.queryEditors[2].updatedAt).toBe(123);
  });

  it("'clone into a new tab (named Copy of {name}, autorun on)'", () => {
    const state = twoTabs({ queryEditors: [editor('a', { name: 'Sales', remoteId: 9 }), editor('b')] });
    const next = sqlLabReducer(state, act.cloneQueryToNewTab({ sql: 'SELECT 2', dbId: 3, schema: 'main', queryLimit: 100 }, 'c', 1));
    expect(next.queryEditors[2]).toMatchObject({
      id: 'c', name: 'Copy of Sales', autorun: true, sql: 'SELECT 2', dbId: 3, schema: 'main', queryLimit: 100, remoteId: 9,
    });
    expect(next.tabHistory.at(-1)).toBe('c');
  });

  it("'Unsaved active-tab edits stay local until the tab is switched': cloning switches tabs, so they are kept", () => {
    const state = twoTabs({ queryEditors: [editor('a', { name: 'Sales', sql: 'SELECT 1' }), editor('b')] });
    const edited = sqlLabReducer(state, act.setSql({ id: 'a' }, 'SELECT 42', undefined, 5));
    const next = sqlLabReducer(edited, act.cloneQueryToNewTab({ sql: 'SELECT 42', dbId: 3 }, 'c', 6));
    expect(next.queryEditors.find((qe) => qe.id === 'a')?.sql).toBe('SELECT 42');
    expect(next.tabHistory.at(-1)).toBe('c');
  });

  it("'On removal the tab's queries, tables and history entries are dropped and the removal time is recorded'", () => {
    const state = twoTabs({
      queries: { qa: query('qa', { sqlEditorId: 'a' }), qb: query('qb', { sqlEditorId: 'b' }) },
      tables: [table('t1', 'a'), table('t2', 'b')],
    });
    const next = sqlLabReducer(state, act.removeQueryEditor({ id: 'a' }, 555));
    expect(next.queryEditors.map((qe) => qe.id)).toEqual(['b']);
    expect(Object.keys(next.queries)).toEqual(['qb']);
    expect(next.tables.map((t) => t.id)).toEqual(['t2']);
    expect(next.tabHistory).toEqual(['b']);
    expect(next.destroyedQueryEditors).toEqual({ a: 555 });
  });

  it("'If the history is empty, the last remaining editor becomes active'", () => {
    const state = twoTabs({ queryEditors: [editor('a'), editor('b'), editor('c')], tabHistory: ['a'] });
    expect(sqlLabReducer(state, act.removeQueryEditor({ id: 'a' }, 1)).tabHistory).toEqual(['c']);
  });

  it('a tab only in local storage has nothing to delete on the server', () => {
    const state = twoTabs({ queryEditors: [editor('a', { inLocalStorage: true }), editor('b')] });
    expect(sqlLabReducer(state, act.removeQueryEditor({ id: 'a', inLocalStorage: true }, 1)).destroyedQueryEditors).toEqual({});
  });

  it("'A tab whose server load returns 404 is removed'", () => {
    const state = twoTabs();
    const removed = sqlLabReducer(state, act.tabStateLoadFailed({ id: 'b' }, 404));
    expect(removed.queryEditors.map((qe) => qe.id)).toEqual(['a']);
    expect(removed.destroyedQueryEditors).toEqual({});
    expect(sqlLabReducer(state, act.tabStateLoadFailed({ id: 'b' }, 500))).toBe(state);
  });

  it('clears a destroyed tab once the server deleted it', () => {
    const state = twoTabs({ destroyedQueryEditors: { x: 1, y: 2 } });
    expect(sqlLabReducer(state, { type: 'CLEAR_DESTROYED_QUERY_EDITOR', queryEditorId: 'x' }).destroyedQueryEditors).toEqual({ y: 2 });
  });

  it("'Edits to the active tab go into an unsaved editor; edits to other tabs go straight into the list'", () => {
    let state = sqlLabReducer(twoTabs(), act.setSql({ id: 'a' }, 'SELECT 42', undefined, 10));
    expect(state.unsavedQueryEditor).toEqual({ id: 'a', sql: 'SELECT 42', updatedAt: 10 });
    expect(state.queryEditors[0].sql).toBe('');
    state = sqlLabReducer(state, act.setTitle({ id: 'b' }, 'Other', 11));
    expect(state.queryEditors[1]).toMatchObject({ name: 'Other', updatedAt: 11 });
    expect(getActiveQueryEditor(state)).toMatchObject({ id: 'a', sql: 'SELECT 42' });
  });

  it("'Unsaved active-tab edits stay local until the tab is switched'", () => {
    let state = sqlLabReducer(twoTabs(), act.setSql({ id: 'a' }, 'SELECT 42', undefined, 10));
    state = sqlLabReducer(state, act.setActiveQueryEditor({ id: 'b' }));
    expect(state.queryEditors[0]).toMatchObject({ sql: 'SELECT 42', updatedAt: 10 });
    expect(state.unsavedQueryEditor).toEqual({});
    expect(state.tabHistory.at(-1)).toBe('b');
  });

  it('activating the active tab or an unknown tab changes nothing', () => {
    const state = twoTabs();
    expect(sqlLabReducer(state, act.setActiveQueryEditor({ id: 'a' }))).toBe(state);
    expect(sqlLabReducer(state, act.setActiveQueryEditor({ id: 'zzz' }))).toBe(state);
  });

  it("'Selected-text changes do not update the timestamp'", () => {
    const state = sqlLabReducer(twoTabs(), act.setSelectedText({ id: 'a' }, 'SELECT'));
    expect(state.unsavedQueryEditor).toEqual({ id: 'a', selectedText: 'SELECT' });
  });

  it('setting the same SQL again is a no-op', () => {
    const state = sqlLabReducer(twoTabs(), act.setSql({ id: 'a' }, 'x', undefined, 1));
    expect(sqlLabReducer(state, act.setSql({ id: 'a' }, 'x', undefined, 2))).toBe(state);
  });

  it('other edits (db, schema, limit, template params, autorun, height, left bar, cursor) are stamped', () => {
    const edits = [
      act.setDb({ id: 'a' }, 3, 1),
      act.setSchema({ id: 'a' }, 'main', 2),
      { type: 'QUERY_EDITOR_SET_CATALOG', queryEditor: { id: 'a' }, catalog: 'c', now: 3 } as const,
      { type: 'QUERY_EDITOR_SET_QUERY_LIMIT', queryEditor: { id: 'a' }, queryLimit: 10, now: 4 } as const,
      { type: 'QUERY_EDITOR_SET_TEMPLATE_PARAMS', queryEditor: { id: 'a' }, templateParams: '{}', now: 5 } as const,
      { type: 'QUERY_EDITOR_SET_AUTORUN', queryEditor: { id: 'a' }, autorun: true, now: 6 } as const,
      { type: 'QUERY_EDITOR_PERSIST_HEIGHT', queryEditor: { id: 'a' }, northPercent: 40, southPercent: 60, now: 7 } as const,
      { type: 'QUERY_EDITOR_TOGGLE_LEFT_BAR', queryEditor: { id: 'a' }, hideLeftBar: true, now: 8 } as const,
      { type: 'QUERY_EDITOR_SET_CURSOR_POSITION', queryEditor: { id: 'a' }, position: { row: 1, column: 2 }, now: 9 } as const,
    ];
    const state = edits.reduce(sqlLabReducer, twoTabs());
    expect(state.unsavedQueryEditor).toEqual({
      id: 'a', dbId: 3, schema: 'main', catalog: 'c', queryLimit: 10, templateParams: '{}', autorun: true,
      northPercent: 40, southPercent: 60, hideLeftBar: true, cursorPosition: { row: 1, column: 2 }, updatedAt: 9,
    });
  });

  it("'Saving a query sets the tab title and the remoteId'", () => {
    const next = sqlLabReducer(twoTabs(), act.queryEditorSaved('b', 'My query', 77));
    expect(next.queryEditors[1]).toMatchObject({ name: 'My query', remoteId: 77 });
  });

  it('updating from a saved query finds the tab by remoteId', () => {
    const state = twoTabs({ queryEditors: [editor('a', { remoteId: 5 }), editor('b')] });
    const next = sqlLabReducer(state, { type: 'UPDATE_QUERY_EDITOR', alterations: { remoteId: 5, sql: 'SELECT 5' } });
    expect(next.queryEditors[0].sql).toBe('SELECT 5');
    expect(sqlLabReducer(state, { type: 'UPDATE_QUERY_EDITOR', alterations: { remoteId: 6 } })).toBe(state);
  });

  it('load replaces the dummy tab with the fetched one', () => {
    const next = sqlLabReducer(twoTabs(), act.loadQueryEditor({ id: 'b', sql: 'SELECT b', loaded: true }));
    expect(next.queryEditors[1]).toMatchObject({ sql: 'SELECT b', loaded: true });
  });

  it('migrate replaces the local-storage tab with the server-backed one', () => {
    const next = sqlLabReducer(twoTabs(), act.migrateQueryEditor({ id: 'b' }, editor('42', { tabViewId: '42' })));
    expect(next.queryEditors.map((qe) => qe.id)).toEqual(['a', '42']);
  });

  it("'databases (each database's extra is parsed into extra_json)'", () => {
    const next = sqlLabReducer(twoTabs(), { type: 'SET_DATABASES', databases: [{ id: 1, extra: '{"allows_virtual_table_explore":true}' }, { id: 2, extra: 'bad' }] });
    expect(next.databases[1].extra_json).toEqual({ allows_virtual_table_explore: true });
    expect(next.databases[2].extra_json).toEqual({});
  });

  it("'switch to next or previous tab (wraps around)' and 'close all other tabs'", () => {
    const state = twoTabs({ queryEditors: [editor('a'), editor('b'), editor('c')], tabHistory: ['c'] });
    expect(adjacentQueryEditorId(state, 'next')).toBe('a');
    expect(adjacentQueryEditorId(state, 'previous')).toBe('b');
    expect(otherQueryEditorIds(state, 'b')).toEqual(['a', 'c']);
  });

  it('bottom pane tab and sync bookkeeping', () => {
    let state = sqlLabReducer(twoTabs(), { type: 'SET_ACTIVE_SOUTHPANE_TAB', tabId: 'History' });
    state = sqlLabReducer(state, { type: 'SET_EDITOR_TAB_LAST_UPDATE', timestamp: 99 });
    state = sqlLabReducer(state, { type: 'SET_LAST_UPDATED_ACTIVE_TAB', queryEditorId: 'a' });
    expect(state).toMatchObject({ activeSouthPaneTab: 'History', editorTabLastUpdatedAt: 99, lastUpdatedActiveTab: 'a' });
  });
});
