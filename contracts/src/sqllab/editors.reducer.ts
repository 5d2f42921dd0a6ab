import type { SqlLabAction } from './actions';
import { copyTabName } from './tab-name';
import type { QueryEditor, SqlLabDatabase, SqlLabState } from './types';

/** Id of the active tab: the last entry of the tab history. */
export function activeQueryEditorId(state: Pick<SqlLabState, 'tabHistory'>): string | undefined {
  return state.tabHistory[state.tabHistory.length - 1];
}

/** A tab with its unsaved edits applied (what the screen shows). */
export function getQueryEditor(state: SqlLabState, id: string): QueryEditor | undefined {
  const listed = state.queryEditors.find((qe) => qe.id === id);
  if (!listed) return undefined;
  return state.unsavedQueryEditor.id === id ? { ...listed, ...state.unsavedQueryEditor } : listed;
}

/** The active tab with its unsaved edits applied. */
export function getActiveQueryEditor(state: SqlLabState): QueryEditor | undefined {
  const id = activeQueryEditorId(state);
  return id === undefined ? undefined : getQueryEditor(state, id);
}

function alterEditorInList(list: QueryEditor[], id: string | undefined, updates: Partial<QueryEditor>): QueryEditor[] {
  if (id === undefined) return list;
  return list.map((qe) => (qe.id === id ? { ...qe, ...updates } : qe));
}

/** Folds the unsaved edits into the listed tab and empties them. */
function flushUnsaved(state: SqlLabState): SqlLabState {
  const { unsavedQueryEditor } = state;
  if (!unsavedQueryEditor.id) return { ...state, unsavedQueryEditor: {} };
  return {
    ...state,
    queryEditors: alterEditorInList(state.queryEditors, unsavedQueryEditor.id, unsavedQueryEditor),
    unsavedQueryEditor: {},
  };
}

/**
 * Edits to the active tab go into the unsaved editor; edits to other tabs go straight into the list.
 * `updatedAt` is stamped unless undefined (selected-text changes and data previews pass undefined).
 */
export function applyQueryEditorEdit(
  state: SqlLabState,
  id: string,
  updates: Partial<QueryEditor>,
  updatedAt: number | undefined,
): SqlLabState {
  const stamped = updatedAt === undefined ? updates : { ...updates, updatedAt };
  if (state.tabHistory.length > 0 && activeQueryEditorId(state) !== id) {
    return { ...state, queryEditors: alterEditorInList(state.queryEditors, id, stamped) };
  }
  return {
    ...state,
    unsavedQueryEditor: {
      ...(state.unsavedQueryEditor.id === id ? state.unsavedQueryEditor : {}),
      id,
      ...stamped,
    },
  };
}

function removeQueryEditor(state: SqlLabState, target: Pick<QueryEditor, 'id'> & Partial<QueryEditor>, removedAt: number | undefined): SqlLabState {
  const editor = { ...target, ...(state.unsavedQueryEditor.id === target.id ? state.unsavedQueryEditor : {}) };
  const queryEditors = state.queryEditors.filter((qe) => qe.id !== editor.id);
  const remainingIds = new Set(queryEditors.map((qe) => qe.tabViewId ?? qe.id));
  const serverId = editor.tabViewId ?? editor.id;
  const queries = Object.fromEntries(
    Object.entries(state.queries).filter(([, query]) => query.sqlEditorId != null && remainingIds.has(query.sqlEditorId)),
  );
  const history = state.tabHistory.filter((id) => remainingIds.has(id));
  // If the history is empty, the last remaining editor becomes active.
  const tabHistory = history.length === 0 && queryEditors.length > 0 ? [queryEditors[queryEditors.length - 1].id] : history;
  const destroyedQueryEditors =
    removedAt !== undefined && !editor.inLocalStorage
      ? { ...state.destroyedQueryEditors, [serverId]: removedAt }
      : state.destroyedQueryEditors;
  return {
    ...state,
    queryEditors,
    queries,
    tabHistory,
    tables: state.tables.filter((table) => table.queryEditorId !== serverId),
    unsavedQueryEditor: state.unsavedQueryEditor.id === target.id ? {} : state.unsavedQueryEditor,
    destroyedQueryEditors,
  };
}

function addQueryEditor(state: SqlLabState, queryEditor: QueryEditor, now: number): SqlLabState {
  const flushed = flushUnsaved(state);
  return {
    ...flushed,
    queryEditors: [...flushed.queryEditors, { ...queryEditor, updatedAt: now }],
    tabHistory: [...state.tabHistory, queryEditor.id],
  };
}

function parseExtra(extra: string | undefined): Record<string, unknown> {
  if (!extra) return {};
  try {
    return JSON.parse(extra) as Record<string, unknown>;
  } catch {
    return {};
  }
}

/** Spec 01 §4 "Editor tabs" transitions. */
export function editorsReducer(state: SqlLabState, action: SqlLabAction): SqlLabState {
  switch (action.type) {
    case 'ADD_QUERY_EDITOR':
      return addQueryEditor(state, action.queryEditor, action.now);

    case 'CLONE_QUERY_TO_NEW_TAB': {
      // Clone into a new tab named 'Copy of {name}', autorun on.
      const activeId = activeQueryEditorId(state);
      const progenitor = activeId ? getQueryEditor(state, activeId) : undefined;
      const { query } = action;
      const clone: QueryEditor = {
        id: action.newId,
        remoteId: progenitor?.remoteId ?? null,
        name: copyTabName(progenitor?.name ?? ''),
        dbId: query.dbId ?? null,
        catalog: query.catalog ?? null,
        schema: query.schema ?? null,
        autorun: true,
        sql: query.sql,
        queryLimit: query.queryLimit,
      };
      // The active tab's unsaved edits are flushed into it (as on any tab switch), never dropped.
      return addQueryEditor(state, clone, action.now);
    }

    case 'REMOVE_QUERY_EDITOR':
      return removeQueryEditor(state, action.queryEditor, action.now);

    case 'TAB_STATE_LOAD_FAILED':
      // A tab whose server load returns 404 is removed (the server has nothing left to delete).
      return action.status === 404 ? removeQueryEditor(state, action.queryEditor, undefined) : state;

    case 'CLEAR_DESTROYED_QUERY_EDITOR': {
      if (!(action.queryEditorId in state.destroyedQueryEditors)) return state;
      const { [action.queryEditorId]: _cleared, ...destroyedQueryEditors } = state.destroyedQueryEditors;
      return { ...state, destroyedQueryEditors };
    }

    case 'SET_ACTIVE_QUERY_EDITOR': {
      // Unsaved active-tab edits stay local until the tab is switched.
      const { id } = action.queryEditor;
      if (!state.queryEditors.some((qe) => qe.id === id) || activeQueryEditorId(state) === id) return state;
      return { ...flushUnsaved(state), tabHistory: [...state.tabHistory, id] };
    }

    case 'LOAD_QUERY_EDITOR': {
      const flushed = flushUnsaved(state);
      return { ...flushed, queryEditors: alterEditorInList(flushed.queryEditors, action.queryEditor.id, action.queryEditor) };
    }

    case 'MIGRATE_QUERY_EDITOR':
      // Replace the local-storage tab with the server-backed one.
      return {
        ...state,
        queryEditors: state.queryEditors.map((qe) => (qe.id === action.oldQueryEditor.id ? action.newQueryEditor : qe)),
      };

    case 'QUERY_EDITOR_SAVED':
      // Saving a query sets the tab title and the remoteId.
      return {
        ...state,
        queryEditors: alterEditorInList(state.queryEditors, action.clientId, { name: action.name, remoteId: action.remoteId }),
      };

    case 'UPDATE_QUERY_EDITOR': {
      const { remoteId } = action.alterations;
      if (!state.queryEditors.some((qe) => qe.remoteId === remoteId)) return state;
      return {
        ...state,
        queryEditors: state.queryEditors.map((qe) => (qe.remoteId === remoteId ? { ...qe, ...action.alterations } : qe)),
      };
    }

    case 'QUERY_EDITOR_SETDB':
      return applyQueryEditorEdit(state, action.queryEditor.id, { dbId: action.dbId }, action.now);
    case 'QUERY_EDITOR_SET_CATALOG':
      return applyQueryEditorEdit(state, action.queryEditor.id, { catalog: action.catalog }, action.now);
    case 'QUERY_EDITOR_SET_SCHEMA':
      return applyQueryEditorEdit(state, action.queryEditor.id, { schema: action.schema }, action.now);
    case 'QUERY_EDITOR_SET_TITLE':
      return applyQueryEditorEdit(state, action.queryEditor.id, { name: action.name }, action.now);
    case 'QUERY_EDITOR_SET_SQL': {
      const { unsavedQueryEditor } = state;
      if (unsavedQueryEditor.id === action.queryEditor.id && unsavedQueryEditor.sql === action.sql) return state;
      return applyQueryEditorEdit(
        state,
        action.queryEditor.id,
        { sql: action.sql, ...(action.queryId ? { latestQueryId: action.queryId } : {}) },
        action.now,
      );
    }
    case 'QUERY_EDITOR_SET_SELECTED_TEXT':
      // Selected-text changes do not update the timestamp.
      return applyQueryEditorEdit(state, action.queryEditor.id, { selectedText: action.sql }, undefined);
    case 'QUERY_EDITOR_SET_CURSOR_POSITION':
      return applyQueryEditorEdit(state, action.queryEditor.id, { cursorPosition: action.position }, action.now);
    case 'QUERY_EDITOR_SET_QUERY_LIMIT':
      return applyQueryEditorEdit(state, action.queryEditor.id, { queryLimit: action.queryLimit }, action.now);
    case 'QUERY_EDITOR_SET_TEMPLATE_PARAMS':
      return applyQueryEditorEdit(state, action.queryEditor.id, { templateParams: action.templateParams }, action.now);
    case 'QUERY_EDITOR_SET_AUTORUN':
      return applyQueryEditorEdit(state, action.queryEditor.id, { autorun: action.autorun }, action.now);
    case 'QUERY_EDITOR_PERSIST_HEIGHT':
      return applyQueryEditorEdit(
        state,
        action.queryEditor.id,
        { northPercent: action.northPercent, southPercent: action.southPercent },
        action.now,
      );
    case 'QUERY_EDITOR_TOGGLE_LEFT_BAR':
      return applyQueryEditorEdit(state, action.queryEditor.id, { hideLeftBar: action.hideLeftBar }, action.now);

    case 'SET_ACTIVE_SOUTHPANE_TAB':
      return { ...state, activeSouthPaneTab: action.tabId };

    case 'SET_DATABASES': {
      // Each database's extra is parsed into extra_json.
      const databases: Record<string, SqlLabDatabase> = {};
      for (const db of action.databases) databases[db.id] = { ...db, extra_json: parseExtra(db.extra) };
      return { ...state, databases: { ...state.databases, ...databases } };
    }

    case 'SET_EDITOR_TAB_LAST_UPDATE':
      return { ...state, editorTabLastUpdatedAt: action.timestamp };
    case 'SET_LAST_UPDATED_ACTIVE_TAB':
      return { ...state, lastUpdatedActiveTab: action.queryEditorId };

    default:
      return state;
  }
}

/** Next or previous tab in list order, wrapping around (spec 01 §2). */
export function adjacentQueryEditorId(state: SqlLabState, direction: 'next' | 'previous'): string | undefined {
  const ids = state.queryEditors.map((qe) => qe.id);
  if (ids.length === 0) return undefined;
  const index = ids.indexOf(activeQueryEditorId(state) ?? '');
  const step = direction === 'next' ? 1 : -1;
  return ids[(Math.max(index, 0) + step + ids.length) % ids.length];
}

/** Ids of the tabs that 'close all other tabs' removes. */
export function otherQueryEditorIds(state: SqlLabState, keepId: string): string[] {
  return state.queryEditors.filter((qe) => qe.id !== keepId).map((qe) => qe.id);
}
