import {
  BYTES_PER_CHAR,
  KB_STORAGE,
  LOCALSTORAGE_MAX_QUERY_AGE_MS,
  LOCALSTORAGE_MAX_QUERY_RESULTS_KB,
  LOCALSTORAGE_MAX_USAGE_KB,
  LOCALSTORAGE_WARNING_THRESHOLD,
} from '../rules/constants';
import { activeQueryEditorId } from './editors.reducer';
import type { Query, QueryEditor, SqlLabState, TableSchema, UnsavedQueryEditor } from './types';

/** Size of a value once stored as JSON text, in kilobytes (two bytes per character). */
export function storedSizeKb(value: unknown): number {
  const text = JSON.stringify(value);
  return ((text?.length ?? 0) * BYTES_PER_CHAR) / KB_STORAGE;
}

/** Stored results are dropped when older than one day (864e5 ms) or larger than 1024 KB. */
export function shouldEmptyQueryResults(query: Pick<Query, 'startDttm' | 'results'>, now: number): boolean {
  return now - query.startDttm > LOCALSTORAGE_MAX_QUERY_AGE_MS || storedSizeKb(query.results) > LOCALSTORAGE_MAX_QUERY_RESULTS_KB;
}

/** Queries ready for local storage: results emptied where `shouldEmptyQueryResults` says so. */
export function emptyQueryResults(queries: Record<string, Query>, now: number): Record<string, Query> {
  return Object.fromEntries(
    Object.entries(queries).map(([id, query]) => [id, shouldEmptyQueryResults(query, now) ? { ...query, results: {} } : query]),
  );
}

/** Local storage usage in kilobytes, rounded to two decimals. Example: 1536 characters → 3. */
export function localStorageUsageKb(serialisedState: string): number {
  return Number(((serialisedState.length * BYTES_PER_CHAR) / KB_STORAGE).toFixed(2));
}

/** True when usage passes 90% of the 5120 KB budget (time to warn the user). */
export function isLocalStorageNearlyFull(usageKb: number): boolean {
  return usageKb > LOCALSTORAGE_MAX_USAGE_KB * LOCALSTORAGE_WARNING_THRESHOLD;
}

/** Editor fields kept in local storage. */
export const PERSISTENT_QUERY_EDITOR_KEYS = [
  'version', 'remoteId', 'autorun', 'dbId', 'height', 'id', 'latestQueryId', 'northPercent', 'queryLimit',
  'catalog', 'schema', 'selectedText', 'southPercent', 'sql', 'templateParams', 'name', 'hideLeftBar', 'updatedAt',
  'cursorPosition',
] as const;

/** Strips editors down to the persisted fields. */
export function clearQueryEditors(queryEditors: readonly QueryEditor[]): Partial<QueryEditor>[] {
  const keys = new Set<string>(PERSISTENT_QUERY_EDITOR_KEYS);
  return queryEditors.map((editor) => Object.fromEntries(Object.entries(editor).filter(([key]) => keys.has(key))) as Partial<QueryEditor>);
}

/** Tables kept in local storage: identity and preview only, and only those attached to a tab. */
export function emptyTablePersistData(tables: readonly TableSchema[]): Partial<TableSchema>[] {
  return tables
    .filter((table) => Boolean(table.queryEditorId))
    .map(({ id, name, dbId, catalog, schema, dataPreviewQueryId, queryEditorId }) => ({
      id, name, dbId, catalog, schema, dataPreviewQueryId, queryEditorId,
    }));
}

/** Collapses consecutive repeats in a tab history. */
export function dedupeTabHistory(tabHistory: readonly string[]): string[] {
  return tabHistory.filter((id, index) => index === 0 || tabHistory[index - 1] !== id);
}

/** The part of the editor state that is kept in local storage. */
export interface LocalSqlLabState {
  queryEditors: QueryEditor[];
  unsavedQueryEditor?: UnsavedQueryEditor;
  tables?: TableSchema[];
  queries?: Record<string, Query>;
  tabHistory?: string[];
  destroyedQueryEditors?: Record<string, number>;
}

export interface MergedTabState {
  queryEditors: QueryEditor[];
  unsavedQueryEditor: UnsavedQueryEditor;
  tables: TableSchema[];
  queries: Record<string, Query>;
  tabHistory: string[];
  destroyedQueryEditors: Record<string, number>;
  lastUpdatedActiveTab: string;
  /** True when the local copy is empty and should be deleted from local storage. */
  removeLocalCopy: boolean;
}

/**
 * Merges the local copy with the server's tabs (spec 01 §4 "Tab persistence"): a local entry wins if its
 * updatedAt is newer or if it is not on the server; entries only local are flagged inLocalStorage so they
 * can be migrated. An empty local list is removed. The first local table per tab is the expanded one.
 */
export function mergeLocalAndServerTabs(
  server: { queryEditors: QueryEditor[]; tables?: TableSchema[]; queries?: Record<string, Query>; tabHistory?: string[] },
  local: LocalSqlLabState | null | undefined,
): MergedTabState {
  const editors = new Map<string, QueryEditor>(server.queryEditors.map((qe) => [qe.id, qe]));
  const tables = new Map<string, TableSchema>((server.tables ?? []).map((table) => [table.id, table]));
  const queries: Record<string, Query> = { ...server.queries };
  const tabHistory = [...(server.tabHistory ?? [])];
  const destroyedQueryEditors: Record<string, number> = {};
  let unsavedQueryEditor: UnsavedQueryEditor = {};
  const empty =
    !local || (local.queryEditors.length === 0 && Object.keys(local.destroyedQueryEditors ?? {}).length === 0);

  if (local && !empty) {
    unsavedQueryEditor = local.unsavedQueryEditor ?? {};
    for (const localEditor of local.queryEditors) {
      const id = localEditor.tabViewId ?? localEditor.id;
      const serverEditor = editors.get(id);
      // The active tab's unsaved edits are part of its local copy, and their updatedAt counts too.
      const candidate: QueryEditor = { ...localEditor, ...(unsavedQueryEditor.id === localEditor.id ? unsavedQueryEditor : {}) } as QueryEditor;
      const localIsNewer =
        candidate.updatedAt !== undefined && (serverEditor?.updatedAt === undefined || candidate.updatedAt > serverEditor.updatedAt);
      const winner = !serverEditor || localIsNewer ? candidate : undefined;
      editors.set(id, {
        ...(serverEditor as QueryEditor),
        ...winner,
        // The tab keeps its local identity whichever copy wins: local history and queries name it by that id.
        id: localEditor.id,
        ...(localEditor.tabViewId ? { tabViewId: localEditor.tabViewId } : {}),
        name: winner?.name || serverEditor?.name || '',
        inLocalStorage: !serverEditor,
        loaded: true,
      } as QueryEditor);
    }
    const expandedTabs = new Set<string>();
    for (const table of local.tables ?? []) {
      const expanded = !expandedTabs.has(table.queryEditorId);
      expandedTabs.add(table.queryEditorId);
      tables.set(table.id, { ...tables.get(table.id), ...table, expanded, inLocalStorage: true });
    }
    for (const query of Object.values(local.queries ?? {})) queries[query.id] = { ...query, inLocalStorage: true };
    for (const id of local.tabHistory ?? []) if (!local.destroyedQueryEditors?.[id]) tabHistory.push(id);
    for (const [id, removedAt] of Object.entries(local.destroyedQueryEditors ?? {})) {
      destroyedQueryEditors[id] = removedAt;
      editors.delete(id);
    }
  }

  const history = dedupeTabHistory(tabHistory);
  return {
    queryEditors: [...editors.values()],
    unsavedQueryEditor,
    tables: [...tables.values()],
    queries,
    tabHistory: history,
    destroyedQueryEditors,
    lastUpdatedActiveTab: history[history.length - 1] ?? '',
    removeLocalCopy: Boolean(local) && empty,
  };
}

/** What one sync cycle (every 5000 ms) has to send to the server. */
export interface TabSyncPlan {
  /** Tabs with unsaved local changes since the last sync, unsaved edits applied. */
  updates: QueryEditor[];
  /** The active tab, when it changed since the last sync. */
  activate?: string;
  /** Server tab ids to delete; each is cleared locally on success or on 404. */
  deletes: string[];
}

/** Plans a sync cycle from the state (spec 01 §4 "Tab persistence"). */
export function planTabSync(state: SqlLabState): TabSyncPlan {
  const { unsavedQueryEditor } = state;
  const updates = state.queryEditors
    .map((qe) => (unsavedQueryEditor.id === qe.id ? { ...qe, ...unsavedQueryEditor } : qe))
    .filter((qe) => !qe.inLocalStorage && qe.loaded !== false && (qe.updatedAt ?? 0) > state.editorTabLastUpdatedAt);
  const active = activeQueryEditorId(state);
  return {
    updates,
    ...(active && active !== state.lastUpdatedActiveTab ? { activate: active } : {}),
    deletes: Object.keys(state.destroyedQueryEditors),
  };
}

/** Whether a DELETE of a destroyed tab lets it be cleared locally: on success or on 404. */
export function shouldClearDestroyedTab(status: number): boolean {
  return (status >= 200 && status < 300) || status === 404;
}

/** Server tab state (spec 01 §3). */
export interface ServerTabState {
  id: number | string;
  label: string;
  sql?: string | null;
  database_id?: number | null;
  catalog?: string | null;
  schema?: string | null;
  query_limit?: number | null;
  latest_query?: { id: string } | null;
  saved_query?: { id: number } | null;
  hide_left_bar?: boolean | null;
  autorun?: boolean | null;
  template_params?: string | null;
  extra_json?: { updatedAt?: number; version?: number; extras?: unknown } | string | null;
}

function readExtraJson(extra: ServerTabState['extra_json']): { updatedAt?: number; version?: number; extras?: unknown } {
  if (!extra) return {};
  if (typeof extra !== 'string') return extra;
  try {
    return JSON.parse(extra) as { updatedAt?: number; version?: number };
  } catch {
    return {};
  }
}

/** Editor fields the server tab state has no column for; they travel in extra_json.extras. */
export interface QueryEditorExtras {
  selectedText?: string | null;
  cursorPosition?: { row: number; column: number };
  northPercent?: number;
  southPercent?: number;
}

/** The extras of an editor tab for extra_json (undefined fields omitted; undefined when there are none). */
export function queryEditorExtras(editor: Partial<QueryEditor>): QueryEditorExtras | undefined {
  const extras: QueryEditorExtras = {
    selectedText: editor.selectedText,
    cursorPosition: editor.cursorPosition,
    northPercent: editor.northPercent,
    southPercent: editor.southPercent,
  };
  const present = Object.entries(extras).filter(([, value]) => value !== undefined);
  return present.length ? (Object.fromEntries(present) as QueryEditorExtras) : undefined;
}

/** Reads extras back, keeping only well-formed values (the server stores whatever text it was given). */
function readExtras(extras: unknown): QueryEditorExtras {
  if (!extras || typeof extras !== 'object') return {};
  const raw = extras as Record<string, unknown>;
  const out: QueryEditorExtras = {};
  if (typeof raw.selectedText === 'string' || raw.selectedText === null) out.selectedText = raw.selectedText;
  const cursor = raw.cursorPosition as { row?: unknown; column?: unknown } | undefined;
  if (cursor && Number.isInteger(cursor.row) && Number.isInteger(cursor.column)) out.cursorPosition = { row: Number(cursor.row), column: Number(cursor.column) };
  if (typeof raw.northPercent === 'number' && Number.isFinite(raw.northPercent)) out.northPercent = raw.northPercent;
  if (typeof raw.southPercent === 'number' && Number.isFinite(raw.southPercent)) out.southPercent = raw.southPercent;
  return out;
}

/** Server tab state → editor tab. */
export function tabStateToQueryEditor(tab: ServerTabState): QueryEditor {
  const extra = readExtraJson(tab.extra_json);
  const extras = readExtras(extra.extras);
  return {
    id: String(tab.id),
    version: extra.version ?? 1,
    loaded: true,
    name: tab.label,
    sql: tab.sql ?? '',
    selectedText: extras.selectedText ?? undefined,
    cursorPosition: extras.cursorPosition,
    northPercent: extras.northPercent,
    southPercent: extras.southPercent,
    latestQueryId: tab.latest_query?.id ?? null,
    remoteId: tab.saved_query?.id ?? null,
    autorun: Boolean(tab.autorun),
    templateParams: tab.template_params ?? undefined,
    dbId: tab.database_id ?? undefined,
    catalog: tab.catalog,
    schema: tab.schema,
    queryLimit: tab.query_limit ?? undefined,
    hideLeftBar: tab.hide_left_bar ?? undefined,
    updatedAt: extra.updatedAt,
  };
}

/**
 * The PUT /tabstateview/{id} payload of an editor tab: undefined fields are omitted, extra_json is the JSON
 * text of updatedAt, version and extras (by default the selected text, cursor and split percents).
 */
export function queryEditorToTabStatePayload(editor: Partial<QueryEditor>, extras: unknown = queryEditorExtras(editor)): Record<string, unknown> {
  const payload: Record<string, unknown> = {
    database_id: editor.dbId,
    catalog: editor.catalog,
    schema: editor.schema,
    sql: editor.sql,
    label: editor.name,
    query_limit: editor.queryLimit,
    latest_query_id: editor.latestQueryId,
    template_params: editor.templateParams,
    hide_left_bar: editor.hideLeftBar,
    autorun: editor.autorun,
    saved_query_id: editor.remoteId,
    extra_json: JSON.stringify({ updatedAt: editor.updatedAt, version: editor.version, extras }),
  };
  return Object.fromEntries(Object.entries(payload).filter(([, value]) => value !== undefined));
}
