import type { SqlLabAction } from './actions';
import type { SqlLabState, TableSchema } from './types';

function alterTable(state: SqlLabState, id: string, updates: Partial<TableSchema>): SqlLabState {
  return { ...state, tables: state.tables.map((table) => (table.id === id ? { ...table, ...updates } : table)) };
}

function sameTable(a: Partial<TableSchema>, b: Partial<TableSchema>): boolean {
  return (
    a.dbId === b.dbId &&
    a.queryEditorId === b.queryEditorId &&
    (a.catalog ?? null) === (b.catalog ?? null) &&
    a.schema === b.schema &&
    a.name === b.name
  );
}

/**
 * Merging a table: an existing entry (same database, tab, catalog, schema and name) is updated, keeping its
 * id once initialised on the server; a new one is added. A preview query becomes its dataPreviewQueryId,
 * and an expanded table becomes the active bottom pane tab.
 */
function mergeTable(state: SqlLabState, action: Extract<SqlLabAction, { type: 'MERGE_TABLE' }>): SqlLabState {
  const incoming = { ...action.table } as TableSchema;
  const index = state.tables.findIndex((table) => sameTable(table, incoming));
  const southPane = incoming.expanded ? { activeSouthPaneTab: incoming.id } : {};
  if (index >= 0) {
    const existing = state.tables[index];
    const merged: TableSchema = {
      ...existing,
      ...incoming,
      ...(action.query ? { dataPreviewQueryId: action.query.id } : {}),
      ...(existing.initialized ? { id: existing.id } : {}),
    };
    const tables = [...state.tables.slice(0, index), merged, ...state.tables.slice(index + 1)];
    return { ...state, tables, ...southPane };
  }
  const added: TableSchema = { ...incoming, dataPreviewQueryId: action.query ? action.query.id : null };
  const tables = action.prepend ? [added, ...state.tables] : [...state.tables, added];
  return { ...state, tables, ...southPane };
}

/** Spec 01 §4 "Tables in a tab": expanded or collapsed; previews merged, expanded, collapsed or removed. */
export function tablesReducer(state: SqlLabState, action: SqlLabAction): SqlLabState {
  switch (action.type) {
    case 'MERGE_TABLE':
      return mergeTable(state, action);

    case 'EXPAND_TABLE':
      return alterTable(state, action.table.id, { expanded: true });

    case 'COLLAPSE_TABLE':
      return alterTable(state, action.table.id, { expanded: false });

    case 'REMOVE_TABLES': {
      const ids = new Set(action.tables.map((table) => table.id));
      const tables = state.tables.filter((table) => !ids.has(table.id));
      if (!ids.has(state.activeSouthPaneTab)) return { ...state, tables };
      // The bottom pane falls back to another table of the same tab, else to Results.
      const editorId = action.tables[0]?.queryEditorId;
      const fallback = tables.find((table) => table.queryEditorId === editorId)?.id ?? 'Results';
      return { ...state, tables, activeSouthPaneTab: fallback };
    }

    case 'REMOVE_DATA_PREVIEW': {
      const previewId = action.table.dataPreviewQueryId;
      const queries = { ...state.queries };
      if (previewId) delete queries[previewId];
      return { ...alterTable(state, action.table.id, { dataPreviewQueryId: null }), queries };
    }

    case 'CHANGE_DATA_PREVIEW_ID': {
      const queries = { ...state.queries };
      delete queries[action.oldQueryId];
      const tables = state.tables.map((table) =>
        table.dataPreviewQueryId === action.oldQueryId ? { ...table, dataPreviewQueryId: action.newQuery.id } : table,
      );
      return { ...state, queries, tables };
    }

    case 'MIGRATE_TABLE':
      // Replace the local-storage table with the server-backed one.
      return { ...state, tables: [...state.tables.filter((table) => table.id !== action.oldTable.id), action.newTable] };

    case 'SET_TABLES': {
      const ids = new Set(action.tables.map((table) => table.id));
      return { ...state, tables: [...state.tables.filter((table) => !ids.has(table.id)), ...action.tables] };
    }

    default:
      return state;
  }
}
