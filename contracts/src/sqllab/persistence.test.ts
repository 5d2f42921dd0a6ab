import { describe, it, expect } from 'vitest';
import {
  clearQueryEditors,
  dedupeTabHistory,
  emptyQueryResults,
  emptyTablePersistData,
  isLocalStorageNearlyFull,
  localStorageUsageKb,
  mergeLocalAndServerTabs,
  planTabSync,
  queryEditorToTabStatePayload,
  shouldClearDestroyedTab,
  shouldEmptyQueryResults,
  tabStateToQueryEditor,
} from './persistence';
import { editor, query, twoTabs } from './test-fixtures';

const DAY = 864e5;

describe('tab persistence (spec 01 §4 "Tab persistence")', () => {
  it("'Locally stored query results are dropped when older than one day (864e5 ms)'", () => {
    const now = 10 * DAY;
    expect(shouldEmptyQueryResults({ startDttm: now - DAY - 1, results: { data: [] } }, now)).toBe(true);
    expect(shouldEmptyQueryResults({ startDttm: now - DAY, results: { data: [] } }, now)).toBe(false);
  });

  it("'or too large' (over 1024 KB at two bytes per character)", () => {
    const big = { data: [{ text: 'x'.repeat(600 * 1024) }] };
    expect(shouldEmptyQueryResults({ startDttm: 0, results: big }, 0)).toBe(true);
    const queries = emptyQueryResults({ q: query('q', { startDttm: 0, results: big }), r: query('r', { startDttm: 0, results: { data: [] } }) }, 0);
    expect(queries.q.results).toEqual({});
    expect(queries.r.results).toEqual({ data: [] });
  });

  it("'Local storage usage is reported in kilobytes rounded to two decimals'", () => {
    expect(localStorageUsageKb('x'.repeat(1536))).toBe(3);
    expect(localStorageUsageKb('x'.repeat(1000))).toBe(1.95);
    expect(isLocalStorageNearlyFull(4700)).toBe(true);
    expect(isLocalStorageNearlyFull(4000)).toBe(false);
  });

  it('keeps only persistent editor fields and tables attached to a tab', () => {
    const [cleared] = clearQueryEditors([{ ...editor('a'), loaded: true, functionNames: ['f'], sql: 'x' }]);
    expect(cleared).toEqual({ id: 'a', name: 'Untitled Query a', sql: 'x', autorun: false });
    const tables = emptyTablePersistData([
      { id: 't', dbId: 1, queryEditorId: 'a', schema: 's', name: 'n', expanded: true, columns: [1] },
      { id: 'u', dbId: 1, queryEditorId: '', schema: 's', name: 'n', expanded: true },
    ]);
    expect(tables).toEqual([{ id: 't', dbId: 1, queryEditorId: 'a', schema: 's', name: 'n', catalog: undefined, dataPreviewQueryId: undefined }]);
  });

  it("'the local entry wins if its updatedAt is newer or if it is not on the server'", () => {
    const server = { queryEditors: [editor('1', { sql: 'server', updatedAt: 100 }), editor('2', { sql: 'server2', updatedAt: 300 })], tabHistory: ['1'] };
    const merged = mergeLocalAndServerTabs(server, {
      queryEditors: [
        editor('1', { sql: 'local newer', updatedAt: 200 }),
        editor('2', { sql: 'local older', updatedAt: 200 }),
        editor('local-only', { sql: 'mine' }),
      ],
      tabHistory: ['local-only'],
    });
    const byId = Object.fromEntries(merged.queryEditors.map((qe) => [qe.id, qe]));
    expect(byId['1']).toMatchObject({ sql: 'local newer', inLocalStorage: false });
    expect(byId['2']).toMatchObject({ sql: 'server2', inLocalStorage: false });
    expect(byId['local-only']).toMatchObject({ sql: 'mine', inLocalStorage: true, loaded: true });
    expect(merged.tabHistory).toEqual(['1', 'local-only']);
    expect(merged.lastUpdatedActiveTab).toBe('local-only');
    expect(merged.removeLocalCopy).toBe(false);
  });

  it("'the local entry wins if its updatedAt is newer': the active tab's unsaved edit counts as local and newer", () => {
    const server = { queryEditors: [editor('1', { sql: 'synced', updatedAt: 200 })], tabHistory: ['1'] };
    const merged = mergeLocalAndServerTabs(server, {
      queryEditors: [editor('1', { sql: 'synced', updatedAt: 100 })],
      unsavedQueryEditor: { id: '1', sql: 'typed just before leaving', updatedAt: 300 },
      tabHistory: ['1'],
    });
    expect(merged.queryEditors[0]).toMatchObject({ id: '1', sql: 'typed just before leaving' });
    const stale = mergeLocalAndServerTabs(server, {
      queryEditors: [editor('1', { sql: 'synced', updatedAt: 100 })],
      unsavedQueryEditor: { id: '1', sql: 'older edit', updatedAt: 150 },
      tabHistory: ['1'],
    });
    expect(stale.queryEditors[0]).toMatchObject({ sql: 'synced' });
  });

  it("'An empty local list is removed'", () => {
    const merged = mergeLocalAndServerTabs({ queryEditors: [editor('1')] }, { queryEditors: [], destroyedQueryEditors: {} });
    expect(merged.removeLocalCopy).toBe(true);
    expect(merged.queryEditors.map((qe) => qe.id)).toEqual(['1']);
    expect(mergeLocalAndServerTabs({ queryEditors: [] }, undefined).removeLocalCopy).toBe(false);
  });

  it('a migrated tab keeps its local id (named by the local history) when the server copy wins', () => {
    const server = { queryEditors: [editor('41', { sql: 'server', updatedAt: 500 })], tabHistory: ['7'] };
    const merged = mergeLocalAndServerTabs(server, {
      queryEditors: [editor('local-a', { tabViewId: '41', sql: 'local', updatedAt: 100 })],
      tabHistory: ['local-a'],
    });
    expect(merged.queryEditors).toHaveLength(1);
    expect(merged.queryEditors[0]).toMatchObject({ id: 'local-a', tabViewId: '41', sql: 'server', inLocalStorage: false });
    expect(merged.lastUpdatedActiveTab).toBe('local-a');
  });

  it('destroyed local tabs are dropped from the merge and kept for deletion; only the first local table per tab is expanded', () => {
    const merged = mergeLocalAndServerTabs(
      { queryEditors: [editor('1')] },
      {
        queryEditors: [editor('2')],
        destroyedQueryEditors: { '1': 50 },
        tabHistory: ['1', '2'],
        tables: [
          { id: 'x', dbId: 1, queryEditorId: '2', schema: 's', name: 'a', expanded: true },
          { id: 'y', dbId: 1, queryEditorId: '2', schema: 's', name: 'b', expanded: true },
        ],
        queries: { q: query('q') },
      },
    );
    expect(merged.queryEditors.map((qe) => qe.id)).toEqual(['2']);
    expect(merged.destroyedQueryEditors).toEqual({ '1': 50 });
    expect(merged.tabHistory).toEqual(['2']);
    expect(merged.tables.map((t) => t.expanded)).toEqual([true, false]);
    expect(merged.queries.q.inLocalStorage).toBe(true);
  });

  it('dedupes consecutive tab history entries', () => {
    expect(dedupeTabHistory(['a', 'a', 'b', 'a'])).toEqual(['a', 'b', 'a']);
  });

  it("'Tabs with unsaved local changes are pushed...; a change of active tab is activated...; destroyed tabs are deleted'", () => {
    const state = twoTabs({
      queryEditors: [editor('a', { updatedAt: 5 }), editor('b', { updatedAt: 50 }), editor('c', { updatedAt: 60, inLocalStorage: true })],
      unsavedQueryEditor: { id: 'a', sql: 'edited', updatedAt: 40 },
      editorTabLastUpdatedAt: 30,
      lastUpdatedActiveTab: 'b',
      destroyedQueryEditors: { z: 1 },
    });
    const plan = planTabSync(state);
    expect(plan.updates.map((qe) => [qe.id, qe.sql])).toEqual([['a', 'edited'], ['b', '']]);
    expect(plan.activate).toBe('a');
    expect(plan.deletes).toEqual(['z']);
    expect(planTabSync({ ...state, lastUpdatedActiveTab: 'a' }).activate).toBeUndefined();
  });

  it("'cleared locally on success or on 404'", () => {
    expect([200, 204, 404, 500].map(shouldClearDestroyedTab)).toEqual([true, true, true, false]);
  });

  it('maps server tab state to an editor tab and back to the PUT payload (undefined fields omitted)', () => {
    const qe = tabStateToQueryEditor({
      id: 7, label: 'Tab', sql: 'SELECT 1', database_id: 2, schema: 'main', query_limit: 1000,
      latest_query: { id: 'q1' }, saved_query: { id: 4 }, autorun: false, hide_left_bar: false,
      extra_json: '{"updatedAt": 123, "version": 1}',
    });
    expect(qe).toMatchObject({ id: '7', name: 'Tab', dbId: 2, latestQueryId: 'q1', remoteId: 4, updatedAt: 123, version: 1 });
    const payload = queryEditorToTabStatePayload({ name: 'Tab', sql: 'SELECT 1', dbId: 2, updatedAt: 123, version: 1 });
    expect(payload).toEqual({ label: 'Tab', sql: 'SELECT 1', database_id: 2, extra_json: '{"updatedAt":123,"version":1}' });
  });

  it("server tab state keeps 'selectedText, cursorPosition (row, column), northPercent, southPercent' in extra_json.extras", () => {
    const payload = queryEditorToTabStatePayload({
      name: 'Tab', sql: 'SELECT 1;\nSELECT 2', updatedAt: 5, version: 1,
      selectedText: 'SELECT 2', cursorPosition: { row: 1, column: 4 }, northPercent: 30, southPercent: 70,
    });
    expect(JSON.parse(String(payload.extra_json))).toEqual({
      updatedAt: 5, version: 1, extras: { selectedText: 'SELECT 2', cursorPosition: { row: 1, column: 4 }, northPercent: 30, southPercent: 70 },
    });
    // The server answers extra_json parsed (an object); the tab comes back with the same fields.
    const qe = tabStateToQueryEditor({ id: 3, label: 'Tab', sql: 'SELECT 1;\nSELECT 2', extra_json: JSON.parse(String(payload.extra_json)) });
    expect(qe).toMatchObject({ selectedText: 'SELECT 2', cursorPosition: { row: 1, column: 4 }, northPercent: 30, southPercent: 70 });
  });

  it('ignores malformed extras instead of restoring them', () => {
    const qe = tabStateToQueryEditor({
      id: 3, label: 'Tab', extra_json: '{"extras": {"cursorPosition": {"row": "x"}, "northPercent": "50", "selectedText": 7}}',
    });
    expect(qe.cursorPosition).toBeUndefined();
    expect(qe.northPercent).toBeUndefined();
    expect(qe.selectedText).toBeUndefined();
  });

  it('keeps the cursor position in local storage with the other persistent fields', () => {
    const [stored] = clearQueryEditors([{ ...editor('a'), cursorPosition: { row: 2, column: 3 }, loaded: true }]);
    expect(stored.cursorPosition).toEqual({ row: 2, column: 3 });
    expect(stored).not.toHaveProperty('loaded');
  });
});
