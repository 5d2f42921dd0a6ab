import type { SupersetError } from '../messages';
import type {
  CursorPosition,
  Query,
  QueryEditor,
  QueryResults,
  SqlLabDatabase,
  TableSchema,
} from './types';

/**
 * Every SQL editor action, as a discriminated union on `type`. Actions that stamp time carry `now`
 * (milliseconds), so the reducers stay pure; the creators below fill it with Date.now() by default.
 */
export type SqlLabAction =
  // queries
  | { type: 'START_QUERY'; query: Query }
  | { type: 'QUERY_SUCCESS'; query: Pick<Query, 'id' | 'state'>; results: QueryResults; now: number }
  | { type: 'QUERY_FAILED'; query: Pick<Query, 'id' | 'state'>; msg: string; link?: string; errors?: SupersetError[]; now: number }
  | { type: 'STOP_QUERY'; query: Pick<Query, 'id'> }
  | { type: 'REQUEST_QUERY_RESULTS'; query: Pick<Query, 'id'> }
  | { type: 'CLEAR_QUERY_RESULTS'; query: Pick<Query, 'id'> }
  | { type: 'REMOVE_QUERY'; query: Pick<Query, 'id'> }
  | { type: 'REFRESH_QUERIES'; alteredQueries: Record<string, Partial<Query>> }
  | { type: 'CLEAR_INACTIVE_QUERIES'; interval: number; now: number }
  | { type: 'MIGRATE_QUERY'; queryId: string; queryEditorId: string }
  | { type: 'COST_ESTIMATE_STARTED'; query: Pick<Query, 'id'> }
  | { type: 'COST_ESTIMATE_RETURNED'; query: Pick<Query, 'id'>; json: { result: unknown } }
  | { type: 'COST_ESTIMATE_FAILED'; query: Pick<Query, 'id'>; error: unknown }
  | { type: 'SET_USER_OFFLINE'; offline: boolean }
  // editors
  | { type: 'ADD_QUERY_EDITOR'; queryEditor: QueryEditor; now: number }
  | { type: 'REMOVE_QUERY_EDITOR'; queryEditor: Pick<QueryEditor, 'id'> & Partial<QueryEditor>; now: number }
  | { type: 'SET_ACTIVE_QUERY_EDITOR'; queryEditor: Pick<QueryEditor, 'id'> }
  | { type: 'CLONE_QUERY_TO_NEW_TAB'; query: Partial<Query> & { sql: string }; newId: string; now: number }
  | { type: 'LOAD_QUERY_EDITOR'; queryEditor: Pick<QueryEditor, 'id'> & Partial<QueryEditor> }
  | { type: 'MIGRATE_QUERY_EDITOR'; oldQueryEditor: Pick<QueryEditor, 'id'>; newQueryEditor: QueryEditor }
  | { type: 'QUERY_EDITOR_SAVED'; clientId: string; name: string; remoteId: number }
  | { type: 'UPDATE_QUERY_EDITOR'; alterations: Partial<QueryEditor> & { remoteId: number } }
  | { type: 'TAB_STATE_LOAD_FAILED'; queryEditor: Pick<QueryEditor, 'id'>; status?: number }
  | { type: 'CLEAR_DESTROYED_QUERY_EDITOR'; queryEditorId: string }
  | { type: 'QUERY_EDITOR_SETDB'; queryEditor: Pick<QueryEditor, 'id'>; dbId: number | null; now: number }
  | { type: 'QUERY_EDITOR_SET_CATALOG'; queryEditor: Pick<QueryEditor, 'id'>; catalog: string | null; now: number }
  | { type: 'QUERY_EDITOR_SET_SCHEMA'; queryEditor: Pick<QueryEditor, 'id'>; schema: string | null; now: number }
  | { type: 'QUERY_EDITOR_SET_TITLE'; queryEditor: Pick<QueryEditor, 'id'>; name: string; now: number }
  | { type: 'QUERY_EDITOR_SET_SQL'; queryEditor: Pick<QueryEditor, 'id'>; sql: string; queryId?: string; now: number }
  | { type: 'QUERY_EDITOR_SET_SELECTED_TEXT'; queryEditor: Pick<QueryEditor, 'id'>; sql: string | null }
  | { type: 'QUERY_EDITOR_SET_CURSOR_POSITION'; queryEditor: Pick<QueryEditor, 'id'>; position: CursorPosition; now: number }
  | { type: 'QUERY_EDITOR_SET_QUERY_LIMIT'; queryEditor: Pick<QueryEditor, 'id'>; queryLimit: number; now: number }
  | { type: 'QUERY_EDITOR_SET_TEMPLATE_PARAMS'; queryEditor: Pick<QueryEditor, 'id'>; templateParams: string; now: number }
  | { type: 'QUERY_EDITOR_SET_AUTORUN'; queryEditor: Pick<QueryEditor, 'id'>; autorun: boolean; now: number }
  | { type: 'QUERY_EDITOR_PERSIST_HEIGHT'; queryEditor: Pick<QueryEditor, 'id'>; northPercent: number; southPercent: number; now: number }
  | { type: 'QUERY_EDITOR_TOGGLE_LEFT_BAR'; queryEditor: Pick<QueryEditor, 'id'>; hideLeftBar: boolean; now: number }
  | { type: 'SET_ACTIVE_SOUTHPANE_TAB'; tabId: string }
  | { type: 'SET_DATABASES'; databases: SqlLabDatabase[] }
  | { type: 'SET_EDITOR_TAB_LAST_UPDATE'; timestamp: number }
  | { type: 'SET_LAST_UPDATED_ACTIVE_TAB'; queryEditorId: string }
  // tables
  | { type: 'MERGE_TABLE'; table: Partial<TableSchema> & Pick<TableSchema, 'id'>; query?: Pick<Query, 'id'>; prepend?: boolean }
  | { type: 'EXPAND_TABLE'; table: Pick<TableSchema, 'id'> }
  | { type: 'COLLAPSE_TABLE'; table: Pick<TableSchema, 'id'> }
  | { type: 'REMOVE_TABLES'; tables: Pick<TableSchema, 'id' | 'queryEditorId'>[] }
  | { type: 'REMOVE_DATA_PREVIEW'; table: Pick<TableSchema, 'id' | 'dataPreviewQueryId'> }
  | { type: 'CHANGE_DATA_PREVIEW_ID'; oldQueryId: string; newQuery: Pick<Query, 'id'> }
  | { type: 'MIGRATE_TABLE'; oldTable: Pick<TableSchema, 'id'>; newTable: TableSchema }
  | { type: 'SET_TABLES'; tables: TableSchema[] };

export type SqlLabActionType = SqlLabAction['type'];

type Editor = Pick<QueryEditor, 'id'>;

/** Action creators; time-stamping ones default `now` to Date.now(). */
export const sqlLabActions = {
  startQuery: (query: Query): SqlLabAction => ({ type: 'START_QUERY', query }),
  querySuccess: (query: Pick<Query, 'id' | 'state'>, results: QueryResults, now = Date.now()): SqlLabAction => ({
    type: 'QUERY_SUCCESS', query, results, now,
  }),
  queryFailed: (
    query: Pick<Query, 'id' | 'state'>, msg: string, link?: string, errors?: SupersetError[], now = Date.now(),
  ): SqlLabAction => ({ type: 'QUERY_FAILED', query, msg, link, errors, now }),
  stopQuery: (query: Pick<Query, 'id'>): SqlLabAction => ({ type: 'STOP_QUERY', query }),
  requestQueryResults: (query: Pick<Query, 'id'>): SqlLabAction => ({ type: 'REQUEST_QUERY_RESULTS', query }),
  clearQueryResults: (query: Pick<Query, 'id'>): SqlLabAction => ({ type: 'CLEAR_QUERY_RESULTS', query }),
  removeQuery: (query: Pick<Query, 'id'>): SqlLabAction => ({ type: 'REMOVE_QUERY', query }),
  refreshQueries: (alteredQueries: Record<string, Partial<Query>>): SqlLabAction => ({ type: 'REFRESH_QUERIES', alteredQueries }),
  clearInactiveQueries: (interval: number, now = Date.now()): SqlLabAction => ({ type: 'CLEAR_INACTIVE_QUERIES', interval, now }),
  costEstimateStarted: (query: Pick<Query, 'id'>): SqlLabAction => ({ type: 'COST_ESTIMATE_STARTED', query }),
  costEstimateReturned: (query: Pick<Query, 'id'>, json: { result: unknown }): SqlLabAction => ({ type: 'COST_ESTIMATE_RETURNED', query, json }),
  costEstimateFailed: (query: Pick<Query, 'id'>, error: unknown): SqlLabAction => ({ type: 'COST_ESTIMATE_FAILED', query, error }),
  addQueryEditor: (queryEditor: QueryEditor, now = Date.now()): SqlLabAction => ({ type: 'ADD_QUERY_EDITOR', queryEditor, now }),
  removeQueryEditor: (queryEditor: Editor & Partial<QueryEditor>, now = Date.now()): SqlLabAction => ({ type: 'REMOVE_QUERY_EDITOR', queryEditor, now }),
  setActiveQueryEditor: (queryEditor: Editor): SqlLabAction => ({ type: 'SET_ACTIVE_QUERY_EDITOR', queryEditor }),
  cloneQueryToNewTab: (query: Partial<Query> & { sql: string }, newId: string, now = Date.now()): SqlLabAction => ({
    type: 'CLONE_QUERY_TO_NEW_TAB', query, newId, now,
  }),
  loadQueryEditor: (queryEditor: Editor & Partial<QueryEditor>): SqlLabAction => ({ type: 'LOAD_QUERY_EDITOR', queryEditor }),
  migrateQueryEditor: (oldQueryEditor: Editor, newQueryEditor: QueryEditor): SqlLabAction => ({
    type: 'MIGRATE_QUERY_EDITOR', oldQueryEditor, newQueryEditor,
  }),
  queryEditorSaved: (clientId: string, name: string, remoteId: number): SqlLabAction => ({ type: 'QUERY_EDITOR_SAVED', clientId, name, remoteId }),
  tabStateLoadFailed: (queryEditor: Editor, status?: number): SqlLabAction => ({ type: 'TAB_STATE_LOAD_FAILED', queryEditor, status }),
  setSql: (queryEditor: Editor, sql: string, queryId?: string, now = Date.now()): SqlLabAction => ({
    type: 'QUERY_EDITOR_SET_SQL', queryEditor, sql, queryId, now,
  }),
  setSelectedText: (queryEditor: Editor, sql: string | null): SqlLabAction => ({ type: 'QUERY_EDITOR_SET_SELECTED_TEXT', queryEditor, sql }),
  setTitle: (queryEditor: Editor, name: string, now = Date.now()): SqlLabAction => ({ type: 'QUERY_EDITOR_SET_TITLE', queryEditor, name, now }),
  setDb: (queryEditor: Editor, dbId: number | null, now = Date.now()): SqlLabAction => ({ type: 'QUERY_EDITOR_SETDB', queryEditor, dbId, now }),
  setSchema: (queryEditor: Editor, schema: string | null, now = Date.now()): SqlLabAction => ({ type: 'QUERY_EDITOR_SET_SCHEMA', queryEditor, schema, now }),
  mergeTable: (table: Partial<TableSchema> & Pick<TableSchema, 'id'>, query?: Pick<Query, 'id'>, prepend?: boolean): SqlLabAction => ({
    type: 'MERGE_TABLE', table, query, prepend,
  }),
};
