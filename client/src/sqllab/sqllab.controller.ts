import {
  COPIED_TO_CLIPBOARD,
  COPY_NOT_SUPPORTED,
  COLLAPSE_TABLE_SCHEMA_FAILED,
  CREATE_DATASOURCE_FAILED,
  DATASOURCE_NOT_LOADED,
  EXPAND_TABLE_SCHEMA_FAILED,
  FAILED_RETRIEVING_RESULTS,
  FAILED_STOPPING_QUERY,
  FETCH_TABLE_METADATA_FAILED,
  FETCH_TAB_STATE_FAILED,
  LOCAL_STORAGE_NEARLY_FULL,
  MIGRATE_QUERY_EDITOR_FAILED,
  MIGRATE_QUERY_FAILED,
  MIGRATE_TABLE_SCHEMA_FAILED,
  QUERY_NOT_LOADED,
  QUERY_NOT_SAVED,
  QUERY_NOT_UPDATED,
  QUERY_NOT_PROPERLY_SAVED,
  QUERY_SAVED,
  QUERY_STOPPED,
  QUERY_UPDATED,
  REMOVE_QUERY_FAILED,
  REMOVE_TABLE_SCHEMA_FAILED,
  SAVE_EDITOR_STATE_FAILED,
  SESSION_TIMED_OUT,
  SHARED_QUERY_TAB_NAME,
  STORE_QUERY_IN_BACKEND_FAILED,
  UNKNOWN_ERROR,
  fmt,
} from '@meridian/contracts/messages';
import {
  LOCALSTORAGE_MAX_USAGE_KB,
  LOCALSTORAGE_WARNING_MESSAGE_THROTTLE_MS,
  PREVIEW_QUERY_LIMIT,
  SOUTH_PANE_RESULTS_TAB,
  SQLLAB_STATE_SAVE_DEBOUNCE_MS,
  SQLLAB_SYNC_INTERVAL_MS,
  SQL_MAX_ROW_FALLBACK,
} from '@meridian/contracts/rules/constants';
import {
  activeQueryEditorId,
  adjacentQueryEditorId,
  clearQueryEditors,
  copyTabName,
  emptyQueryResults,
  emptyTablePersistData,
  getActiveQueryEditor,
  getQueryEditor,
  isLocalStorageNearlyFull,
  isQueryInProgress,
  localStorageUsageKb,
  mergeLocalAndServerTabs,
  newQueryTabName,
  otherQueryEditorIds,
  planTabSync,
  queryEditorToTabStatePayload,
  shouldClearDestroyedTab,
  sqlLabActions,
  tabStateToQueryEditor,
  QueryState,
  type LocalSqlLabState,
  type Query,
  type QueryEditor,
  type QueryResults,
  type ServerTabState,
  type SqlLabAction,
  type SqlLabDatabase,
  type SqlLabState,
  type TableSchema,
} from '@meridian/contracts/sqllab/index';
import { addDangerToast, addInfoToast, addSuccessToast, addWarningToast } from '../notify';
import { shortId } from './ids';
import { ApiError } from '../api';
import { resultsKeyOf, sqllabApi, type DatabaseListItem, type TableMetadata } from './sqllab.api';
import { asyncEvents } from '../async-events/async-event-client';
import type { SqlLabStore } from './sqllab.store';

/** What the SQL editor reads from the bootstrap data. */
export interface SqlLabBoot {
  conf: { SQL_MAX_ROW?: number; DEFAULT_SQLLAB_LIMIT?: number; DISPLAY_MAX_ROW?: number; SQLLAB_TIMEOUT?: number; DEFAULT_DB_ID?: number };
  featureFlags: Record<string, boolean>;
}

/** Local storage key of the editor state. */
export const LOCAL_STORAGE_KEY = 'meridian.sqllab';

/** How often in-progress queries are refreshed from the server (Superset's QueryAutoRefresh). */
const QUERY_POLL_MS = 2000;
/** Queries started in the last few seconds are refreshed sooner: most finish quickly, and their rows should show at once. */
const QUERY_POLL_FAST_MS = 200;
const QUERY_POLL_FAST_WINDOW_MS = 5000;

function errorText(error: unknown, fallback: string): string {
  if (error instanceof ApiError) {
    if (/CSRF/i.test(error.clientError.error)) return SESSION_TIMED_OUT;
    return error.clientError.error || fallback;
  }
  return fallback;
}

function statusOf(error: unknown): number {
  return error instanceof ApiError ? error.status : -1;
}

/** The statement under the cursor of a multi-statement text (statements split on `;`, ignoring quoted ones). */
export function statementAtCursor(sql: string, row: number, column: number): string {
  const lines = sql.split('\n');
  let offset = 0;
  for (let i = 0; i < row && i < lines.length; i++) offset += lines[i].length + 1;
  offset += column;
  const bounds: number[] = [0];
  let quote: string | null = null;
  for (let i = 0; i < sql.length; i++) {
    const ch = sql[i];
    if (quote) {
      if (ch === quote) quote = null;
    } else if (ch === "'" || ch === '"' || ch === '`') quote = ch;
    else if (ch === ';') bounds.push(i + 1);
  }
  bounds.push(sql.length + 1);
  for (let i = 0; i < bounds.length - 1; i++) {
    if (offset >= bounds[i] && offset < bounds[i + 1]) {
      const text = sql.slice(bounds[i], bounds[i + 1] - 1).trim();
      if (text) return text;
      // The cursor sits right after a ';': run the statement it closes.
      return sql.slice(bounds[Math.max(i - 1, 0)], bounds[i] - 1).trim();
    }
  }
  return sql.trim();
}

/**
 * The SQL editor's use cases: each method dispatches the contracts' actions around the REST calls of
 * spec 01 §7 and shows the §8 messages. One instance lives with the screen.
 */
export class SqlLabController {
  readonly backendPersistence: boolean;
  private readonly running = new Map<string, AbortController>();
  private timers: ReturnType<typeof setInterval>[] = [];
  /**
   * Whether the tab sync and the query requests last found the server unreachable. Each clears only its own flag, so
   * a working query poll does not hide tab changes that still cannot be stored; the editor is offline while either is.
   */
  private readonly unreachable = { tabs: false, queries: false };
  private saveTimer: ReturnType<typeof setTimeout> | null = null;
  private unsubscribe: (() => void) | null = null;
  private syncing = false;
  private polling = false;
  private migrating = new Set<string>();
  private loadingTabs = new Set<string>();
  private disposed = false;
  private lastStorageWarning = 0;
  private readonly usageListeners = new Set<() => void>();
  /** Kilobytes the editor state took in local storage at the last save (two decimals). */
  localStorageUsageKb = 0;

  constructor(
    readonly store: SqlLabStore,
    readonly boot: SqlLabBoot,
  ) {
    this.backendPersistence = Boolean(boot.featureFlags.SQLLAB_BACKEND_PERSISTENCE);
  }

  get state(): SqlLabState {
    return this.store.getState();
  }

  dispatch(action: SqlLabAction): void {
    this.store.dispatch(action);
  }

  get sqlMaxRow(): number {
    return this.boot.conf.SQL_MAX_ROW || SQL_MAX_ROW_FALLBACK;
  }

  get defaultQueryLimit(): number {
    return Math.min(this.boot.conf.DEFAULT_SQLLAB_LIMIT ?? 1000, this.sqlMaxRow);
  }

  // ------------------------------------------------------------------------------------------------
  // Start-up and persistence

  private loadPromise: Promise<void> | null = null;
  private attached = false;

  /** Loads databases and tabs once (local storage, or the server with backend persistence), then the URL's request. */
  start(search: URLSearchParams): Promise<void> {
    this.loadPromise ??= this.load(search);
    return this.loadPromise;
  }

  private async load(search: URLSearchParams): Promise<void> {
    const databases = await this.loadDatabases();
    if (this.backendPersistence) await this.restoreFromServer();
    else this.restoreFromLocalStorage();
    await this.openFromUrl(search, databases);
    if (this.state.queryEditors.length === 0) this.newTab();
    const active = activeQueryEditorId(this.state);
    if (!active || !this.state.queryEditors.some((qe) => qe.id === active)) {
      const last = this.state.queryEditors[this.state.queryEditors.length - 1];
      if (last) this.dispatch({ type: 'SET_ACTIVE_QUERY_EDITOR', queryEditor: last });
    }
    await this.ensureLoaded(activeQueryEditorId(this.state));
  }

  /** Starts persistence and polling (after `start`); `dispose` stops them. */
  attach(): void {
    if (this.attached) return;
    this.attached = true;
    this.disposed = false;
    this.unsubscribe = this.store.subscribe(() => this.scheduleLocalSave());
    // Saves are debounced (5000 ms): a reload, a closed tab or a switch to another browser tab flushes the pending one.
    window.addEventListener('pagehide', this.saveLocalNow);
    window.addEventListener('beforeunload', this.saveLocalNow);
    document.addEventListener('visibilitychange', this.saveWhenHidden);
    window.addEventListener('pagehide', this.deleteClosedTabsNow);
    // One save now reports the usage of local storage from the start.
    this.saveLocalNow();
    if (this.backendPersistence) {
      this.timers.push(setInterval(() => void this.syncTabs(), SQLLAB_SYNC_INTERVAL_MS));
      void this.migrateLocalTabs();
    }
    let lastPoll = 0;
    this.timers.push(
      setInterval(() => {
        const now = Date.now();
        const fresh = Object.values(this.state.queries).some((q) => isQueryInProgress(q.state) && now - q.startDttm < QUERY_POLL_FAST_WINDOW_MS);
        if (now - lastPoll < (fresh ? QUERY_POLL_FAST_MS : QUERY_POLL_MS)) return;
        lastPoll = now;
        void this.pollQueries();
      }, QUERY_POLL_FAST_MS),
    );
  }

  dispose(): void {
    if (!this.attached) return;
    this.attached = false;
    this.disposed = true;
    this.saveLocalNow();
    this.unsubscribe?.();
    window.removeEventListener('pagehide', this.saveLocalNow);
    window.removeEventListener('beforeunload', this.saveLocalNow);
    document.removeEventListener('visibilitychange', this.saveWhenHidden);
    window.removeEventListener('pagehide', this.deleteClosedTabsNow);
    for (const timer of this.timers) clearInterval(timer);
    this.timers = [];
  }

  private async loadDatabases(): Promise<DatabaseListItem[]> {
    try {
      const { result } = await sqllabApi.databases();
      this.dispatch({ type: 'SET_DATABASES', databases: result as SqlLabDatabase[] });
      return result;
    } catch (error) {
      addDangerToast(errorText(error, UNKNOWN_ERROR));
      return [];
    }
  }

  /** The default database: configured, else the lowest id available (spec 01 §9). */
  defaultDbId(): number | null {
    const ids = Object.values(this.state.databases).map((db) => db.id);
    const configured = this.boot.conf.DEFAULT_DB_ID;
    if (configured && ids.includes(configured)) return configured;
    return ids.length ? Math.min(...ids) : null;
  }

  private readLocal(): LocalSqlLabState | null {
    try {
      const text = window.localStorage.getItem(LOCAL_STORAGE_KEY);
      if (!text) return null;
      const parsed = JSON.parse(text) as LocalSqlLabState;
      return Array.isArray(parsed.queryEditors) ? parsed : null;
    } catch {
      // Broken local-storage state is silently ignored.
      return null;
    }
  }

  private restoreFromLocalStorage(): void {
    const local = this.readLocal();
    if (!local || local.queryEditors.length === 0) return;
    const merged = mergeLocalAndServerTabs({ queryEditors: [] }, local);
    this.applyMerged({ ...merged, queryEditors: merged.queryEditors.map((qe) => ({ ...qe, inLocalStorage: true })) });
  }

  private applyMerged(merged: ReturnType<typeof mergeLocalAndServerTabs>): void {
    // Local tabs migrated earlier carry their server id in tabViewId: history entries may name either.
    const ids = new Set(merged.queryEditors.map((qe) => qe.id));
    const byServerId = new Map(merged.queryEditors.filter((qe) => qe.tabViewId).map((qe) => [qe.tabViewId!, qe.id]));
    const tabHistory = merged.tabHistory.map((id) => byServerId.get(id) ?? id).filter((id) => ids.has(id));
    for (const queryEditor of merged.queryEditors) this.dispatch({ type: 'ADD_QUERY_EDITOR', queryEditor, now: queryEditor.updatedAt ?? 0 });
    // ADD_QUERY_EDITOR stamps updatedAt; restore the stored stamps so nothing looks edited.
    for (const queryEditor of merged.queryEditors) this.dispatch({ type: 'LOAD_QUERY_EDITOR', queryEditor });
    this.dispatch({ type: 'SET_TABLES', tables: merged.tables });
    this.dispatch(sqlLabActions.refreshQueries(merged.queries));
    for (const id of tabHistory) this.dispatch({ type: 'SET_ACTIVE_QUERY_EDITOR', queryEditor: { id } });
    const unsaved = merged.unsavedQueryEditor;
    if (unsaved.id && ids.has(unsaved.id)) {
      const { id, ...edits } = unsaved;
      this.dispatch({ type: 'LOAD_QUERY_EDITOR', queryEditor: { id, ...edits } });
    }
    for (const [id, removedAt] of Object.entries(merged.destroyedQueryEditors)) {
      this.dispatch({ type: 'REMOVE_QUERY_EDITOR', queryEditor: { id }, now: removedAt });
    }
    this.dispatch({ type: 'SET_LAST_UPDATED_ACTIVE_TAB', queryEditorId: merged.lastUpdatedActiveTab });
    this.dispatch({ type: 'SET_EDITOR_TAB_LAST_UPDATE', timestamp: Date.now() });
  }

  private async restoreFromServer(): Promise<void> {
    let bootstrap: Record<string, unknown> = {};
    try {
      // Superset wraps the bootstrap in `result`; accept the bare object too.
      const json = (await sqllabApi.bootstrap()) as { result?: Record<string, unknown> } & Record<string, unknown>;
      bootstrap = json.result ?? json;
      this.setReachable('tabs', true);
    } catch (error) {
      if (error instanceof ApiError && error.status === 0) this.setReachable('tabs', false);
      addDangerToast(FETCH_TAB_STATE_FAILED);
    }
    const active = bootstrap.active_tab as ServerTabState | null | undefined;
    const tabIds = (bootstrap.tab_state_ids as Array<{ id: number | string; label: string; saved_query_id?: number | null } | [number | string, string]> | undefined) ?? [];
    const queryEditors: QueryEditor[] = tabIds.map((entry) => {
      const [id, label, savedQueryId] = Array.isArray(entry) ? [...entry, null] : [entry.id, entry.label, entry.saved_query_id ?? null];
      if (active && String(active.id) === String(id)) return tabStateToQueryEditor(active);
      // The saved query a tab is tied to comes with the list, so its link finds the tab before the tab is loaded.
      return { id: String(id), name: label, sql: '', autorun: false, loaded: false, remoteId: savedQueryId };
    });
    if (active && !queryEditors.some((qe) => qe.id === String(active.id))) queryEditors.push(tabStateToQueryEditor(active));
    const tables: TableSchema[] = active ? this.tablesFromTabState(active) : [];
    const serverQueries = (bootstrap.queries as Record<string, Query> | undefined) ?? {};
    const local = this.readLocal();
    const merged = mergeLocalAndServerTabs(
      { queryEditors, tables, queries: serverQueries, tabHistory: active ? [String(active.id)] : [] },
      local,
    );
    if (merged.removeLocalCopy) window.localStorage.removeItem(LOCAL_STORAGE_KEY);
    // Tabs the server never saw (or stored locally before the flag was on) get migrated below.
    this.applyMerged(merged);
  }

  private tablesFromTabState(tab: ServerTabState & { table_schemas?: unknown }): TableSchema[] {
    const schemas = (tab.table_schemas as Array<Record<string, unknown>> | undefined) ?? [];
    return schemas.map((ts) => {
      let description: Record<string, unknown> = {};
      try {
        description = typeof ts.description === 'string' ? (JSON.parse(ts.description) as Record<string, unknown>) : ((ts.description as Record<string, unknown>) ?? {});
      } catch {
        description = {};
      }
      return {
        ...description,
        id: String(ts.id),
        dbId: Number(ts.database_id),
        queryEditorId: String(ts.tab_state_id ?? tab.id),
        catalog: (ts.catalog as string | null) ?? null,
        schema: String(ts.schema ?? ''),
        name: String(ts.table),
        expanded: Boolean(ts.expanded),
        dataPreviewQueryId: (description.dataPreviewQueryId as string | undefined) ?? null,
        initialized: true,
      } as TableSchema;
    });
  }

  /** Loads a tab whose state is still on the server (switching to it); a 404 removes it. */
  async ensureLoaded(id: string | undefined): Promise<void> {
    if (!id || !this.backendPersistence) return;
    const editor = this.state.queryEditors.find((qe) => qe.id === id);
    if (!editor || editor.loaded !== false || this.loadingTabs.has(id)) return;
    this.loadingTabs.add(id);
    try {
      const tab = (await sqllabApi.getTabState(editor.tabViewId ?? editor.id)) as unknown as ServerTabState & { latest_query?: Query | null };
      const loaded = tabStateToQueryEditor(tab);
      this.dispatch({ type: 'LOAD_QUERY_EDITOR', queryEditor: { ...loaded, id: editor.id, tabViewId: editor.tabViewId } });
      const tables = this.tablesFromTabState(tab).map((table) => ({ ...table, queryEditorId: editor.tabViewId ?? editor.id }));
      if (tables.length) this.dispatch({ type: 'SET_TABLES', tables });
      if (tab.latest_query?.id) this.dispatch(sqlLabActions.refreshQueries({ [tab.latest_query.id]: tab.latest_query }));
    } catch (error) {
      if (statusOf(error) === 404) this.dispatch({ type: 'TAB_STATE_LOAD_FAILED', queryEditor: { id: editor.id }, status: 404 });
      else addDangerToast(FETCH_TAB_STATE_FAILED);
    } finally {
      this.loadingTabs.delete(id);
    }
  }

  private scheduleLocalSave(): void {
    if (this.saveTimer) return;
    this.saveTimer = setTimeout(this.saveLocalNow, SQLLAB_STATE_SAVE_DEBOUNCE_MS);
  }

  private readonly saveWhenHidden = (): void => {
    if (document.visibilityState === 'hidden' && this.saveTimer) this.saveLocalNow();
  };

  /** Subscribes to changes of `localStorageUsageKb`; returns the unsubscribe function. */
  onUsageChange = (listener: () => void): (() => void) => {
    this.usageListeners.add(listener);
    return () => this.usageListeners.delete(listener);
  };

  private reportUsage(serialised: string): void {
    const usage = localStorageUsageKb(serialised);
    if (usage !== this.localStorageUsageKb) {
      this.localStorageUsageKb = usage;
      for (const listener of this.usageListeners) listener();
    }
    const now = Date.now();
    if (isLocalStorageNearlyFull(usage) && now - this.lastStorageWarning > LOCALSTORAGE_WARNING_MESSAGE_THROTTLE_MS) {
      this.lastStorageWarning = now;
      addDangerToast(fmt(LOCAL_STORAGE_NEARLY_FULL, usage.toFixed(2), LOCALSTORAGE_MAX_USAGE_KB), { noDuplicate: true });
    }
  }

  /** Writes the editor state to local storage with the spec's limits (old or large results dropped). */
  readonly saveLocalNow = (): void => {
    if (this.saveTimer) clearTimeout(this.saveTimer);
    this.saveTimer = null;
    const state = this.state;
    const now = Date.now();
    const local: LocalSqlLabState = {
      queryEditors: clearQueryEditors(state.queryEditors).map((qe, i) => ({
        ...qe,
        tabViewId: state.queryEditors[i].tabViewId,
        inLocalStorage: state.queryEditors[i].inLocalStorage,
      })) as QueryEditor[],
      unsavedQueryEditor: state.unsavedQueryEditor,
      tables: emptyTablePersistData(state.tables) as TableSchema[],
      queries: emptyQueryResults(
        Object.fromEntries(Object.entries(state.queries).filter(([, q]) => !q.isDataPreview || state.tables.some((t) => t.dataPreviewQueryId === q.id))),
        now,
      ),
      tabHistory: state.tabHistory.slice(-50),
      destroyedQueryEditors: state.destroyedQueryEditors,
    };
    try {
      const text = JSON.stringify(local);
      window.localStorage.setItem(LOCAL_STORAGE_KEY, text);
      this.reportUsage(text);
    } catch {
      // Storage full: drop every stored result and retry once.
      try {
        const lean = { ...local, queries: Object.fromEntries(Object.entries(local.queries ?? {}).map(([id, q]) => [id, { ...q, results: {} }])) };
        const text = JSON.stringify(lean);
        window.localStorage.setItem(LOCAL_STORAGE_KEY, text);
        this.reportUsage(text);
      } catch {
        /* nothing more to do: the server copy (if any) remains */
      }
    }
  };

  /** Pushes local-only tabs to the server (POST /tabstateview/), then their tables and latest queries. */
  private async migrateLocalTabs(): Promise<void> {
    for (const editor of this.state.queryEditors.filter((qe) => qe.inLocalStorage)) {
      await this.migrateTab(editor.id);
    }
  }

  private async migrateTab(id: string): Promise<void> {
    if (this.migrating.has(id)) return;
    const editor = getQueryEditor(this.state, id);
    if (!editor || !editor.inLocalStorage) return;
    this.migrating.add(id);
    try {
      const created = await sqllabApi.createTabState({ ...editor, id: undefined, inLocalStorage: undefined });
      const tabViewId = String(created.id);
      const current = this.state.queryEditors.find((qe) => qe.id === id);
      if (!current) {
        // Closed while being created: delete it on the server too.
        await sqllabApi.deleteTabState(tabViewId).catch(() => undefined);
        return;
      }
      this.dispatch({ type: 'MIGRATE_QUERY_EDITOR', oldQueryEditor: { id }, newQueryEditor: { ...current, tabViewId, inLocalStorage: false, loaded: true } });
      this.setReachable('tabs', true);
      for (const query of Object.values(this.state.queries).filter((q) => q.sqlEditorId === id)) {
        this.dispatch({ type: 'MIGRATE_QUERY', queryId: query.id, queryEditorId: tabViewId });
        await sqllabApi.migrateQuery(tabViewId, query.id).catch(() => addWarningToast(MIGRATE_QUERY_FAILED, { noDuplicate: true }));
      }
      for (const table of this.state.tables.filter((t) => t.queryEditorId === id)) {
        this.dispatch({ type: 'MERGE_TABLE', table: { ...table, queryEditorId: tabViewId } });
        this.dispatch({ type: 'REMOVE_TABLES', tables: [{ id: table.id, queryEditorId: id }] });
        void this.persistTable({ ...table, queryEditorId: tabViewId });
      }
      // Push every field once now that the tab exists.
      const migrated = getQueryEditor(this.state, id);
      if (migrated) await sqllabApi.updateTabState(tabViewId, (queryEditorToTabStatePayload(migrated)));
    } catch (error) {
      if (statusOf(error) === 0) this.setReachable('tabs', false);
      addWarningToast(MIGRATE_QUERY_EDITOR_FAILED, { noDuplicate: true });
    } finally {
      this.migrating.delete(id);
    }
  }

  private setReachable(channel: 'tabs' | 'queries', reachable: boolean): void {
    this.unreachable[channel] = !reachable;
    const offline = this.unreachable.tabs || this.unreachable.queries;
    if (offline !== this.state.offline) this.dispatch({ type: 'SET_USER_OFFLINE', offline });
  }

  /** One sync cycle (every 5000 ms with backend persistence): updates, activation and deletions. */
  async syncTabs(): Promise<void> {
    if (this.syncing || this.disposed) return;
    this.syncing = true;
    const startedAt = Date.now();
    try {
      await this.migrateLocalTabs();
      const plan = planTabSync(this.state);
      let stored = true;
      for (const editor of plan.updates) {
        try {
          await sqllabApi.updateTabState(editor.tabViewId ?? editor.id, queryEditorToTabStatePayload(editor));
        } catch (error) {
          if (statusOf(error) === 0) throw error;
          // The tab's SQL did not reach the server: say how not to lose it (Superset's failed tab-state update).
          // The other tabs, the activation and the deletions still go ahead; this tab is retried next cycle.
          stored = false;
          console.error(SAVE_EDITOR_STATE_FAILED, error);
          addDangerToast(STORE_QUERY_IN_BACKEND_FAILED, { noDuplicate: true });
        }
      }
      if (plan.updates.length && stored) this.dispatch({ type: 'SET_EDITOR_TAB_LAST_UPDATE', timestamp: startedAt });
      if (plan.activate) {
        const editor = this.state.queryEditors.find((qe) => qe.id === plan.activate);
        if (editor && !editor.inLocalStorage) {
          await sqllabApi.activateTabState(editor.tabViewId ?? editor.id);
          this.dispatch({ type: 'SET_LAST_UPDATED_ACTIVE_TAB', queryEditorId: plan.activate });
        }
      }
      for (const id of plan.deletes) {
        if (this.deleting.has(id)) continue;
        try {
          await sqllabApi.deleteTabState(id);
          this.dispatch({ type: 'CLEAR_DESTROYED_QUERY_EDITOR', queryEditorId: id });
        } catch (error) {
          if (shouldClearDestroyedTab(statusOf(error))) this.dispatch({ type: 'CLEAR_DESTROYED_QUERY_EDITOR', queryEditorId: id });
          else throw error;
        }
      }
      this.setReachable('tabs', true);
    } catch (error) {
      if (statusOf(error) === 0) this.setReachable('tabs', false);
      else {
        console.error(SAVE_EDITOR_STATE_FAILED, error);
        addDangerToast(SAVE_EDITOR_STATE_FAILED, { noDuplicate: true });
      }
    } finally {
      this.syncing = false;
    }
  }

  /** Refreshes in-progress queries from the server; an unreachable server flags the editor offline. */
  async pollQueries(): Promise<void> {
    if (this.polling || this.disposed) return;
    // Not polled: queries followed by their async event, nor async ones whose execute call has not answered yet
    // (their event is awaited as soon as it does; polling in between raced the event).
    const followedByEvent = (q: Query) => this.eventJobs.has(q.id) || (!!q.runAsync && this.boot.featureFlags.GLOBAL_ASYNC_QUERIES && this.running.has(q.id));
    const inProgress = Object.values(this.state.queries).filter((q) => isQueryInProgress(q.state) && q.state !== QueryState.FETCHING && !followedByEvent(q));
    if (inProgress.length === 0 && !this.state.offline) return;
    this.polling = true;
    try {
      const since = Math.max(0, Math.min(...inProgress.map((q) => q.startDttm), this.state.queriesLastUpdate || Date.now()) - 1000);
      const { result } = await sqllabApi.updatedSince(since);
      const altered: Record<string, Partial<Query>> = {};
      for (const raw of result ?? []) {
        const id = String(raw.id ?? raw.client_id ?? '');
        // The browser owns which tab a running query belongs to: the server may still name the tab's local id
        // if the query started while the tab was being migrated.
        const { sqlEditorId: _tab, ...fields } = raw as Partial<Query>;
        if (id && this.state.queries[id]) altered[id] = fields;
      }
      const before = Object.fromEntries(Object.keys(altered).map((id) => [id, this.state.queries[id]?.state]));
      if (Object.keys(altered).length) this.dispatch(sqlLabActions.refreshQueries(altered));
      this.setReachable('queries', true);
      // Queries no request is waiting on (asynchronous ones, or ones left running before a reload) take their
      // outcome from the server: results are fetched by resultsKey, failures and stops recorded.
      for (const [id, server] of Object.entries(altered)) {
        const local = this.state.queries[id];
        const was = before[id];
        if (!local || !was || !isQueryInProgress(was) || was === QueryState.FETCHING || this.running.has(id)) continue;
        if (local.state === QueryState.STOPPED || local.state === QueryState.FAILED) continue;
        if (server.state === QueryState.SUCCESS && server.resultsKey) void this.fetchResults({ ...local, resultsKey: server.resultsKey });
        else if (server.state === QueryState.SUCCESS) this.dispatch(sqlLabActions.querySuccess({ id, state: local.state }, { status: QueryState.SUCCESS, data: [], columns: [], query: server as QueryResults['query'] }));
        else if (server.state === QueryState.FAILED || server.state === QueryState.TIMED_OUT) {
          this.dispatch(sqlLabActions.queryFailed({ id, state: local.state }, String(server.errorMessage ?? UNKNOWN_ERROR), undefined, server.errors));
        } else if (server.state === QueryState.STOPPED) this.dispatch(sqlLabActions.stopQuery({ id }));
      }
    } catch (error) {
      if (statusOf(error) === 0) this.setReachable('queries', false);
    } finally {
      this.polling = false;
    }
  }

  // ------------------------------------------------------------------------------------------------
  // Tabs

  /** Adds a tab: 'Untitled Query N' with the active tab's database and the configured row limit. */
  newTab(overrides: Partial<QueryEditor> = {}): string {
    const active = getActiveQueryEditor(this.state);
    const id = shortId();
    const queryEditor: QueryEditor = {
      id,
      version: 1,
      name: newQueryTabName(this.state.queryEditors.map((qe) => qe.name)),
      sql: '',
      autorun: false,
      dbId: active?.dbId ?? this.defaultDbId(),
      catalog: active?.catalog ?? null,
      schema: active?.schema ?? null,
      queryLimit: active?.queryLimit ?? this.defaultQueryLimit,
      loaded: true,
      inLocalStorage: true,
      ...overrides,
    };
    this.dispatch(sqlLabActions.addQueryEditor(queryEditor));
    if (this.backendPersistence) void this.migrateTab(id);
    return id;
  }

  /** Copy of a tab: 'Copy of {name}', autorun on. */
  cloneTab(id: string): void {
    const editor = getQueryEditor(this.state, id);
    if (!editor) return;
    if (activeQueryEditorId(this.state) !== id) this.activate(id);
    // The clone action drops pending edits of the active tab: fold them into the tab first.
    this.dispatch({ type: 'LOAD_QUERY_EDITOR', queryEditor: editor });
    const newId = shortId();
    this.dispatch(
      sqlLabActions.cloneQueryToNewTab(
        { sql: editor.sql, dbId: editor.dbId ?? undefined, catalog: editor.catalog, schema: editor.schema, queryLimit: editor.queryLimit },
        newId,
      ),
    );
    this.dispatch({ type: 'LOAD_QUERY_EDITOR', queryEditor: { id: newId, inLocalStorage: true, loaded: true, templateParams: editor.templateParams, version: 1 } });
    if (this.backendPersistence) void this.migrateTab(newId);
  }

  /** Runs a tab flagged autorun (a copy, a shared link, `?autorun=true`) once, then turns autorun off (persisted). */
  autorunTab(id: string): void {
    const editor = getQueryEditor(this.state, id);
    if (!editor?.autorun || !editor.dbId || editor.loaded === false) return;
    // With backend persistence, wait until the tab exists on the server, so the query is filed under it there too.
    if (this.backendPersistence && editor.inLocalStorage) return;
    this.dispatch({ type: 'QUERY_EDITOR_SET_AUTORUN', queryEditor: { id }, autorun: false, now: Date.now() });
    if (editor.sql.trim()) void this.runQuery({ editorId: id });
  }

  /** Removes a query from the tab's history; with backend persistence also on the server (DELETE /tabstateview/{id}/query/{queryId}). */
  async removeQuery(query: Query): Promise<void> {
    this.dispatch(sqlLabActions.removeQuery(query));
    if (!this.backendPersistence) return;
    const editor = this.state.queryEditors.find((qe) => (qe.tabViewId ?? qe.id) === query.sqlEditorId);
    if (!query.sqlEditorId || !editor || editor.inLocalStorage) return;
    try {
      await sqllabApi.removeTabQuery(query.sqlEditorId, query.id);
    } catch {
      addDangerToast(REMOVE_QUERY_FAILED);
    }
  }

  activate(id: string): void {
    this.dispatch(sqlLabActions.setActiveQueryEditor({ id }));
    void this.ensureLoaded(id);
  }

  /** Next or previous tab, wrapping around. */
  cycle(direction: 'next' | 'previous'): void {
    const id = adjacentQueryEditorId(this.state, direction);
    if (id) this.activate(id);
  }

  closeTab(id: string): void {
    const editor = getQueryEditor(this.state, id);
    if (!editor) return;
    for (const query of Object.values(this.state.queries)) {
      if (query.sqlEditorId === (editor.tabViewId ?? editor.id) && isQueryInProgress(query.state)) void this.stopQuery(query.id, { silent: true });
    }
    this.dispatch(sqlLabActions.removeQueryEditor(editor));
    // A close is kept: its DELETE goes now (keepalive, so leaving the page does not cancel it), not with the next sync.
    if (this.backendPersistence && !editor.inLocalStorage) void this.deleteClosedTab(editor.tabViewId ?? editor.id);
    if (this.state.queryEditors.length === 0) this.newTab();
    void this.ensureLoaded(activeQueryEditorId(this.state));
  }

  private readonly deleting = new Set<string>();

  /** DELETE /tabstateview/{id} of a closed tab; cleared locally on success or 404, else left for the sync to retry. */
  private async deleteClosedTab(serverId: string): Promise<void> {
    if (this.deleting.has(serverId)) return;
    this.deleting.add(serverId);
    try {
      await sqllabApi.deleteTabState(serverId);
      this.dispatch({ type: 'CLEAR_DESTROYED_QUERY_EDITOR', queryEditorId: serverId });
    } catch (error) {
      if (shouldClearDestroyedTab(statusOf(error))) this.dispatch({ type: 'CLEAR_DESTROYED_QUERY_EDITOR', queryEditorId: serverId });
    } finally {
      this.deleting.delete(serverId);
    }
  }

  /** On page hide: closed tabs whose DELETE has not been answered are sent again with keepalive, which outlives the page. */
  private readonly deleteClosedTabsNow = (): void => {
    if (!this.backendPersistence) return;
    for (const id of Object.keys(this.state.destroyedQueryEditors)) {
      if (!this.deleting.has(id)) void this.deleteClosedTab(id);
    }
  };

  closeOtherTabs(id: string): void {
    for (const other of otherQueryEditorIds(this.state, id)) this.closeTab(other);
    this.activate(id);
  }

  rename(id: string, name: string): void {
    const trimmed = name.trim();
    if (trimmed) this.dispatch(sqlLabActions.setTitle({ id }, trimmed));
  }

  // ------------------------------------------------------------------------------------------------
  // Opening a requested query (URL parameters of spec 01 §2)

  private async openFromUrl(search: URLSearchParams, databases: DatabaseListItem[]): Promise<void> {
    const savedQueryId = search.get('savedQueryId');
    const kvId = search.get('id');
    const queryId = search.get('queryId');
    const dbid = search.get('dbid');
    const sqlParam = search.get('sql');
    const datasourceKey = search.get('datasourceKey');
    // A permalink, `/sqllab/p/{key}` (POST /api/v1/sqllab/permalink), arrives as ?permalink_key=.
    const permalinkKey = search.get('permalink_key');
    if (datasourceKey && !savedQueryId && !kvId && !queryId && !permalinkKey) {
      // Superset's popDatasourceQuery: a tab named 'Query {name}' holding the dataset's SELECT *.
      try {
        const { result } = await sqllabApi.getDataset(datasourceKey.split('__')[0]);
        this.newTab({
          name: `Query ${result.name}`,
          sql: sqlParam ?? result.select_star ?? '',
          dbId: result.database.id,
          catalog: result.catalog ?? null,
          schema: result.schema ?? null,
          autorun: sqlParam !== null,
        });
      } catch {
        addDangerToast(DATASOURCE_NOT_LOADED);
      }
      // The request is consumed, loaded or not: a reload must not open it (or fail) again.
      window.history.replaceState(window.history.state, '', window.location.pathname);
      return;
    }
    try {
      if (savedQueryId) {
        const existing = this.state.queryEditors.find((qe) => qe.remoteId === Number(savedQueryId));
        if (existing) {
          this.activate(existing.id);
          return;
        }
        const { result } = await sqllabApi.getSavedQuery(Number(savedQueryId));
        this.newTab({
          name: result.label,
          sql: result.sql,
          dbId: result.database?.id ?? result.db_id,
          catalog: result.catalog ?? null,
          schema: result.schema ?? null,
          templateParams: result.template_parameters ?? undefined,
          remoteId: result.id,
          autorun: false,
        });
      } else if (kvId || permalinkKey) {
        const shared: Record<string, unknown> = permalinkKey ? await sqllabApi.permalinkGet(permalinkKey) : await sqllabApi.kvGet(kvId!);
        // The same link opened again finds the tab it opened (same SQL, database and schema) instead of a second one.
        const dbId = shared.dbId !== undefined ? Number(shared.dbId) : this.defaultDbId();
        const opened = this.state.queryEditors
          .map((qe) => getQueryEditor(this.state, qe.id) ?? qe)
          .find((qe) => qe.loaded !== false && qe.sql === String(shared.sql ?? '') && qe.dbId === dbId && (qe.schema ?? null) === ((shared.schema as string | null) ?? null));
        if (opened) {
          this.activate(opened.id);
          window.history.replaceState(window.history.state, '', window.location.pathname);
          return;
        }
        this.newTab({
          name: SHARED_QUERY_TAB_NAME,
          sql: String(shared.sql ?? ''),
          dbId,
          catalog: (shared.catalog as string | null) ?? null,
          schema: (shared.schema as string | null) ?? null,
          templateParams: (shared.templateParams as string | undefined) ?? undefined,
          autorun: Boolean(shared.autorun),
        });
      } else if (queryId) {
        const { result } = await sqllabApi.getQuery(queryId);
        const database = result.database as { id?: number } | undefined;
        this.newTab({
          name: copyTabName(String(result.tab_name || SHARED_QUERY_TAB_NAME)),
          sql: String(result.sql ?? ''),
          dbId: database?.id ?? (result.database_id as number | undefined) ?? this.defaultDbId(),
          catalog: (result.catalog as string | null) ?? null,
          schema: (result.schema as string | null) ?? null,
          autorun: false,
        });
      } else if (dbid || sqlParam) {
        const dbId = dbid ? Number(dbid) : this.defaultDbId();
        this.newTab({
          name: search.get('title') || SHARED_QUERY_TAB_NAME,
          sql: sqlParam ?? '',
          dbId: databases.some((db) => db.id === dbId) ? dbId : this.defaultDbId(),
          catalog: search.get('catalog'),
          schema: search.get('schema'),
          autorun: search.get('autorun') === 'true',
        });
      } else {
        return;
      }
    } catch {
      addDangerToast(QUERY_NOT_LOADED);
    }
    // The request is consumed, loaded or not: a reload must not open it (or fail) again.
    window.history.replaceState(window.history.state, '', window.location.pathname);
  }

  // ------------------------------------------------------------------------------------------------
  // Running queries

  /** Runs the tab's SQL (the selected text when there is one, or just the statement under the cursor). */
  async runQuery(opts: { editorId?: string; sql?: string; ctas?: { method: 'TABLE' | 'VIEW'; tableName: string } } = {}): Promise<void> {
    const editor = opts.editorId ? getQueryEditor(this.state, opts.editorId) : getActiveQueryEditor(this.state);
    if (!editor || !editor.dbId) return;
    const sql = (opts.sql ?? (editor.selectedText?.trim() ? editor.selectedText : editor.sql)) ?? '';
    if (!sql.trim()) return;
    const database = this.state.databases[editor.dbId] as (SqlLabDatabase & DatabaseListItem) | undefined;
    const runAsync = Boolean(database?.allow_run_async);
    const query: Query = {
      id: shortId(),
      dbId: editor.dbId,
      sql,
      sqlEditorId: editor.tabViewId ?? editor.id,
      tab: editor.name,
      catalog: editor.catalog ?? null,
      schema: editor.schema ?? null,
      tempTable: opts.ctas?.tableName ?? '',
      ctas: Boolean(opts.ctas),
      ctas_method: opts.ctas?.method ?? 'TABLE',
      runAsync,
      templateParams: editor.templateParams,
      queryLimit: editor.queryLimit ?? this.defaultQueryLimit,
      startDttm: Date.now(),
      state: QueryState.PENDING,
    };
    await this.execute(query);
  }

  private async execute(query: Query): Promise<void> {
    this.dispatch(sqlLabActions.startQuery(query));
    if (!query.isDataPreview) this.dispatch({ type: 'SET_ACTIVE_SOUTHPANE_TAB', tabId: SOUTH_PANE_RESULTS_TAB });
    const abort = new AbortController();
    this.running.set(query.id, abort);
    try {
      const json = (await sqllabApi.execute(
        {
          client_id: query.id,
          database_id: query.dbId,
          json: true,
          runAsync: query.runAsync,
          catalog: query.catalog,
          schema: query.schema,
          sql: query.sql,
          sql_editor_id: query.sqlEditorId,
          tab: query.tab,
          tmp_table_name: query.tempTable,
          select_as_cta: query.ctas,
          ctas_method: query.ctas_method,
          templateParams: query.templateParams,
          queryLimit: query.queryLimit,
          expand_data: true,
        },
        abort.signal,
      )) as QueryResults;
      if (query.runAsync || json.status !== QueryState.SUCCESS) {
        // Asynchronous: the server answered with the query; polling follows its state.
        const { sqlEditorId: _tab, ...serverQuery } = (json.query ?? {}) as Partial<Query>;
        this.dispatch(sqlLabActions.refreshQueries({ [query.id]: { ...serverQuery, id: query.id, state: (serverQuery.state as string) ?? QueryState.PENDING } }));
        if (query.runAsync && this.boot.featureFlags.GLOBAL_ASYNC_QUERIES) this.awaitAsyncEvent(query.id);
        return;
      }
      this.dispatch(sqlLabActions.querySuccess({ id: query.id, state: QueryState.SUCCESS }, json));
    } catch (error) {
      if (error instanceof DOMException && error.name === 'AbortError') return;
      const clientError = error instanceof ApiError ? error.clientError : undefined;
      const message = errorText(error, UNKNOWN_ERROR);
      const current = this.state.queries[query.id];
      this.dispatch(sqlLabActions.queryFailed({ id: query.id, state: current?.state ?? QueryState.FAILED }, message, clientError?.link, clientError?.errors));
      if (statusOf(error) === 0) this.setReachable('queries', false);
    } finally {
      this.running.delete(query.id);
    }
  }

  /** Async queries followed through the async-event client (GLOBAL_ASYNC_QUERIES) instead of `updated_since` polling. */
  private readonly eventJobs = new Map<string, AbortController>();

  /** Waits for the query's async event: done fetches its results by key, error fails it with the event's errors. */
  private awaitAsyncEvent(id: string): void {
    const abort = new AbortController();
    this.eventJobs.set(id, abort);
    asyncEvents()
      .waitForJob(id, abort.signal)
      .then((event) => {
        const local = this.state.queries[id];
        if (this.disposed || !local || !isQueryInProgress(local.state) || local.state === QueryState.FETCHING) return;
        const resultsKey = resultsKeyOf(event.result_url);
        if (event.status === 'done' && resultsKey) void this.fetchResults({ ...local, resultsKey });
        else {
          const errors = (event.errors ?? []) as Array<{ message?: string }>;
          this.dispatch(sqlLabActions.queryFailed({ id, state: local.state }, errors[0]?.message ?? UNKNOWN_ERROR, undefined, errors as never));
        }
      })
      .catch(() => undefined)
      .finally(() => this.eventJobs.delete(id));
  }

  /** Fetches a finished asynchronous query's first page by its resultsKey. */
  async fetchResults(query: Query): Promise<void> {
    if (!query.resultsKey) return;
    this.dispatch(sqlLabActions.requestQueryResults(query));
    try {
      const timeoutMs = (this.boot.conf.SQLLAB_TIMEOUT ?? 30) * 1000;
      const json = (await sqllabApi.results(query.resultsKey, this.boot.conf.DISPLAY_MAX_ROW ?? 1000, 0, undefined, timeoutMs)) as QueryResults;
      this.dispatch(sqlLabActions.querySuccess({ id: query.id, state: QueryState.FETCHING }, { ...json, status: QueryState.SUCCESS }));
    } catch (error) {
      const clientError = error instanceof ApiError ? error.clientError : undefined;
      this.dispatch(sqlLabActions.queryFailed({ id: query.id, state: QueryState.FETCHING }, errorText(error, FAILED_RETRIEVING_RESULTS), clientError?.link, clientError?.errors));
    }
  }

  private resultsRequested = new Set<string>();

  /**
   * Fetches the rows of a finished query that has none at hand (restored from the server, or emptied from local
   * storage) by its resultsKey, once per query, as Superset's result set does.
   */
  ensureResults(query: Query): void {
    const results = query.results && !Array.isArray(query.results) ? (query.results as QueryResults) : undefined;
    const missing = query.cached || !results || !Array.isArray(results.data) || (results.data.length === 0 && Number(query.rows ?? 0) > 0);
    if (query.state !== QueryState.SUCCESS || !query.resultsKey || !missing || this.resultsRequested.has(query.id)) return;
    this.resultsRequested.add(query.id);
    void this.fetchResults(query);
  }

  /** Stops a running query: POST /api/v1/query/stop, state stopped, results emptied. */
  async stopQuery(queryId?: string, opts: { silent?: boolean } = {}): Promise<void> {
    const id = queryId ?? this.latestQuery()?.id;
    if (!id) return;
    const query = this.state.queries[id];
    if (!query || !isQueryInProgress(query.state)) return;
    this.dispatch(sqlLabActions.stopQuery({ id }));
    try {
      await sqllabApi.stop(id);
      // Stopping is what the user asked for, not an outcome to celebrate: a neutral notice (the query shows as stopped).
      if (!opts.silent) addInfoToast(QUERY_STOPPED);
    } catch {
      if (!opts.silent) addDangerToast(fmt(FAILED_STOPPING_QUERY, id));
    } finally {
      this.running.get(id)?.abort();
      this.eventJobs.get(id)?.abort();
    }
  }

  latestQuery(editorId?: string): Query | undefined {
    const editor = editorId ? getQueryEditor(this.state, editorId) : getActiveQueryEditor(this.state);
    return editor?.latestQueryId ? this.state.queries[editor.latestQueryId] : undefined;
  }

  /** Formats the tab's SQL on the server (POST /api/v1/sqllab/format_sql/). */
  async formatSql(editorId: string): Promise<void> {
    const editor = getQueryEditor(this.state, editorId);
    if (!editor?.sql.trim()) return;
    try {
      const { result } = await sqllabApi.formatSql(editor.sql, editor.dbId);
      this.dispatch(sqlLabActions.setSql({ id: editorId }, result));
    } catch (error) {
      addDangerToast(errorText(error, UNKNOWN_ERROR));
    }
  }

  /** Estimates the cost of the tab's SQL (selected text preferred). */
  async estimate(editorId: string): Promise<void> {
    const editor = getQueryEditor(this.state, editorId);
    if (!editor?.dbId) return;
    const sql = editor.selectedText?.trim() ? editor.selectedText : editor.sql;
    this.dispatch(sqlLabActions.costEstimateStarted({ id: editorId }));
    try {
      let templateParams: Record<string, unknown> | undefined;
      try {
        templateParams = editor.templateParams ? (JSON.parse(editor.templateParams) as Record<string, unknown>) : undefined;
      } catch {
        templateParams = undefined;
      }
      const json = await sqllabApi.estimate({ database_id: editor.dbId, catalog: editor.catalog, schema: editor.schema, sql, template_params: templateParams });
      this.dispatch(sqlLabActions.costEstimateReturned({ id: editorId }, json));
    } catch (error) {
      const text = error instanceof ApiError ? error.clientError.error || error.clientError.statusText || FAILED_RETRIEVING_RESULTS : FAILED_RETRIEVING_RESULTS;
      this.dispatch(sqlLabActions.costEstimateFailed({ id: editorId }, text));
    }
  }

  // ------------------------------------------------------------------------------------------------
  // Saved queries and sharing

  async saveQuery(editorId: string, fields: { label: string; description: string }): Promise<boolean> {
    const editor = getQueryEditor(this.state, editorId);
    if (!editor?.dbId) return false;
    const payload = {
      label: fields.label,
      description: fields.description,
      sql: editor.sql,
      db_id: editor.dbId,
      catalog: editor.catalog ?? null,
      schema: editor.schema ?? null,
      template_parameters: editor.templateParams ?? null,
    };
    let id: number;
    try {
      const json = await sqllabApi.createSavedQuery(payload);
      id = json.id ?? json.result.id;
    } catch {
      addDangerToast(QUERY_NOT_SAVED);
      return false;
    }
    this.dispatch(sqlLabActions.queryEditorSaved(editorId, fields.label, id));
    // The active tab may hold the same edits as unsaved: keep both in step.
    this.dispatch(sqlLabActions.setTitle({ id: editorId }, fields.label));
    if (this.backendPersistence && editor.tabViewId) {
      try {
        const saved = getQueryEditor(this.state, editorId)!;
        await sqllabApi.updateTabState(editor.tabViewId, (queryEditorToTabStatePayload({ ...saved, remoteId: id })));
      } catch {
        addDangerToast(QUERY_NOT_PROPERLY_SAVED);
        return true;
      }
    }
    addSuccessToast(QUERY_SAVED);
    // A saved query is often opened elsewhere at once (its link): write the local copy now, not after the debounce.
    this.saveLocalNow();
    return true;
  }

  async updateSavedQuery(editorId: string, fields: { label: string; description: string }): Promise<boolean> {
    const editor = getQueryEditor(this.state, editorId);
    if (!editor?.dbId || !editor.remoteId) return false;
    try {
      await sqllabApi.updateSavedQuery(editor.remoteId, {
        label: fields.label,
        description: fields.description,
        sql: editor.sql,
        db_id: editor.dbId,
        catalog: editor.catalog ?? null,
        schema: editor.schema ?? null,
        template_parameters: editor.templateParams ?? null,
      });
    } catch {
      addDangerToast(QUERY_NOT_UPDATED);
      return false;
    }
    this.dispatch({ type: 'UPDATE_QUERY_EDITOR', alterations: { remoteId: editor.remoteId, name: fields.label } });
    this.dispatch(sqlLabActions.setTitle({ id: editorId }, fields.label));
    addSuccessToast(QUERY_UPDATED);
    this.saveLocalNow();
    return true;
  }

  /**
   * Copies a link to the tab's query: a saved query's own link, `/sqllab/?savedQueryId=<id>` (the one the saved-queries
   * list gives; it opens the saved query's tab, tied to it), else a permalink of the tab, `/sqllab/p/<key>`.
   */
  async copyShareLink(editorId: string): Promise<void> {
    const editor = getQueryEditor(this.state, editorId);
    if (!editor) return;
    if (editor.remoteId) {
      await copyText(`${window.location.origin}/sqllab/?savedQueryId=${encodeURIComponent(String(editor.remoteId))}`);
      return;
    }
    let url: string;
    try {
      if (!editor.dbId) return;
      ({ url } = await sqllabApi.permalinkCreate({
        dbId: editor.dbId,
        catalog: editor.catalog ?? null,
        schema: editor.schema ?? null,
        sql: editor.sql,
        templateParams: editor.templateParams ?? null,
        autorun: false,
        name: editor.name,
      }));
    } catch (error) {
      addDangerToast(errorText(error, UNKNOWN_ERROR));
      return;
    }
    await copyText(url);
  }

  /** Makes a virtual dataset of the query (POST /api/v1/dataset/) and returns its Explore URL. */
  async createDataset(query: Query, tableName: string): Promise<string | null> {
    try {
      const json = await sqllabApi.createDataset({
        database: query.dbId,
        catalog: query.catalog ?? null,
        schema: query.schema ?? null,
        sql: query.executedSql && !query.ctas ? query.sql : query.sql,
        table_name: tableName,
        is_managed_externally: false,
        external_url: null,
      });
      const id = json.id ?? json.data?.id;
      return `/explore/?datasource_type=table&datasource_id=${id}`;
    } catch (error) {
      console.error(CREATE_DATASOURCE_FAILED, error);
      addDangerToast(CREATE_DATASOURCE_FAILED);
      return null;
    }
  }

  // ------------------------------------------------------------------------------------------------
  // Tables of the left bar

  /**
   * Switches the tab's database. The catalog and schema are cleared, and so are the tables browsed in the old
   * database (with their previews): they do not exist in the new one.
   */
  switchDatabase(editorId: string, dbId: number): void {
    const editor = getQueryEditor(this.state, editorId);
    if (!editor || editor.dbId === dbId) return;
    const now = Date.now();
    this.dispatch(sqlLabActions.setDb(editor, dbId));
    this.dispatch({ type: 'QUERY_EDITOR_SET_CATALOG', queryEditor: editor, catalog: null, now });
    this.dispatch(sqlLabActions.setSchema(editor, null));
    const queryEditorId = editor.tabViewId ?? editor.id;
    for (const table of this.state.tables.filter((t) => t.queryEditorId === queryEditorId && t.dbId !== dbId)) void this.removeTable(table);
  }

  /** Adds a table to the tab: loads its metadata, expands it and runs the data preview unless disabled. */
  async addTable(editorId: string, name: string, schema: string, catalog: string | null): Promise<void> {
    const editor = getQueryEditor(this.state, editorId);
    if (!editor?.dbId) return;
    const queryEditorId = editor.tabViewId ?? editor.id;
    const existing = this.state.tables.find(
      (t) => t.queryEditorId === queryEditorId && t.dbId === editor.dbId && t.schema === schema && t.name === name && (t.catalog ?? null) === catalog,
    );
    if (existing) {
      this.dispatch({ type: 'EXPAND_TABLE', table: existing });
      return;
    }
    const table: TableSchema = {
      id: shortId(),
      dbId: editor.dbId,
      queryEditorId,
      catalog,
      schema,
      name,
      expanded: true,
      isMetadataLoading: true,
      isExtraMetadataLoading: true,
      inLocalStorage: true,
    };
    this.dispatch(sqlLabActions.mergeTable(table, undefined, true));
    this.metadataRequested.add(table.id);
    const meta = await this.fetchTableMetadata(table, { announceMissing: true });
    const database = this.state.databases[editor.dbId] as (SqlLabDatabase & DatabaseListItem) | undefined;
    const previewDisabled = Boolean(database?.disable_data_preview ?? database?.extra_json?.disable_data_preview);
    // Data preview is skipped when the database disables it.
    if (meta?.selectStar && !previewDisabled) void this.runPreview({ ...table, selectStar: meta.selectStar });
    const listed = this.state.tables.some((t) => t.id === table.id);
    if (listed && this.backendPersistence && !editor.inLocalStorage) void this.persistTable({ ...table });
  }

  private readonly metadataRequested = new Set<string>();

  /**
   * Loads the columns of a table listed without them (restored from local storage or the server, which keep only
   * its name), once per table.
   */
  ensureTableMetadata(table: TableSchema): void {
    if (table.columns || table.isMetadataLoading || this.metadataRequested.has(table.id)) return;
    this.metadataRequested.add(table.id);
    void this.fetchTableMetadata(table, { announceMissing: false });
  }

  /**
   * Fetches a listed table's metadata (with the table's own database) and merges it. A 404 means the table is gone
   * (dropped, or its database changed): it leaves the list, with a message only when the user just picked it.
   */
  private async fetchTableMetadata(table: TableSchema, opts: { announceMissing: boolean }): Promise<TableMetadata | null> {
    // Later merges carry only the identity: `expanded` in a merge would make the pane follow a stale id.
    const identity = { id: table.id, dbId: table.dbId, queryEditorId: table.queryEditorId, schema: table.schema, name: table.name, catalog: table.catalog ?? null };
    const current = () => this.state.tables.find((t) => t.dbId === identity.dbId && t.queryEditorId === identity.queryEditorId && t.schema === identity.schema && t.name === identity.name);
    this.dispatch(sqlLabActions.mergeTable({ ...identity, isMetadataLoading: true, isExtraMetadataLoading: true }));
    let meta: TableMetadata;
    try {
      meta = await sqllabApi.tableMetadata(table.dbId, table.name, table.schema, table.catalog);
    } catch (error) {
      const listed = current();
      if (statusOf(error) === 404) {
        if (listed) void this.removeTable(listed);
        if (opts.announceMissing) addDangerToast(FETCH_TABLE_METADATA_FAILED);
      } else {
        if (listed) this.dispatch(sqlLabActions.mergeTable({ ...identity, id: listed.id, isMetadataLoading: false, isExtraMetadataLoading: false }));
        addDangerToast(FETCH_TABLE_METADATA_FAILED, { noDuplicate: true });
      }
      return null;
    }
    if (!current()) return meta;
    this.dispatch(
      sqlLabActions.mergeTable({
        ...identity,
        columns: meta.columns,
        selectStar: meta.selectStar,
        primaryKey: meta.primaryKey,
        foreignKeys: meta.foreignKeys,
        indexes: meta.indexes,
        isMetadataLoading: false,
      }),
    );
    sqllabApi
      .tableMetadataExtra(table.dbId, table.name, table.schema, table.catalog)
      .then((extra) => current() && this.dispatch(sqlLabActions.mergeTable({ ...identity, ...extra, isExtraMetadataLoading: false })))
      .catch(() => current() && this.dispatch(sqlLabActions.mergeTable({ ...identity, isExtraMetadataLoading: false })));
    return meta;
  }

  private async persistTable(table: TableSchema): Promise<void> {
    try {
      const { id } = await sqllabApi.addTableSchema({
        dbId: table.dbId,
        queryEditorId: table.queryEditorId,
        catalog: table.catalog,
        schema: table.schema,
        name: table.name,
        expanded: table.expanded,
        dataPreviewQueryId: table.dataPreviewQueryId ?? null,
      });
      const current = this.state.tables.find((t) => t.id === table.id);
      if (current) this.dispatch({ type: 'MIGRATE_TABLE', oldTable: current, newTable: { ...current, id: String(id), initialized: true, inLocalStorage: false } });
      if (this.state.activeSouthPaneTab === table.id) this.dispatch({ type: 'SET_ACTIVE_SOUTHPANE_TAB', tabId: String(id) });
    } catch {
      addWarningToast(MIGRATE_TABLE_SCHEMA_FAILED, { noDuplicate: true });
    }
  }

  private async runPreview(table: TableSchema): Promise<void> {
    const database = this.state.databases[table.dbId] as (SqlLabDatabase & DatabaseListItem) | undefined;
    const query: Query = {
      id: shortId(),
      dbId: table.dbId,
      sql: table.selectStar ?? '',
      sqlEditorId: null,
      tab: '',
      catalog: table.catalog ?? null,
      schema: table.schema,
      runAsync: Boolean(database?.allow_run_async),
      ctas: false,
      isDataPreview: true,
      queryLimit: PREVIEW_QUERY_LIMIT,
      startDttm: Date.now(),
      state: QueryState.PENDING,
    };
    this.dispatch(sqlLabActions.mergeTable({ id: table.id, dbId: table.dbId, queryEditorId: table.queryEditorId, schema: table.schema, name: table.name, catalog: table.catalog }, query));
    await this.execute(query);
  }

  async setTableExpanded(table: TableSchema, expanded: boolean): Promise<void> {
    this.dispatch(expanded ? { type: 'EXPAND_TABLE', table } : { type: 'COLLAPSE_TABLE', table });
    if (!this.backendPersistence || !table.initialized) return;
    try {
      await sqllabApi.expandTableSchema(table.id, expanded);
    } catch {
      addDangerToast(expanded ? EXPAND_TABLE_SCHEMA_FAILED : COLLAPSE_TABLE_SCHEMA_FAILED);
    }
  }

  async removeTable(table: TableSchema): Promise<void> {
    if (table.dataPreviewQueryId) this.dispatch({ type: 'REMOVE_DATA_PREVIEW', table });
    this.dispatch({ type: 'REMOVE_TABLES', tables: [table] });
    if (!this.backendPersistence || !table.initialized) return;
    try {
      await sqllabApi.deleteTableSchema(table.id);
    } catch {
      addDangerToast(REMOVE_TABLE_SCHEMA_FAILED);
    }
  }
}

/** Copies text, with the spec's success and unsupported-browser messages. */
export async function copyText(text: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    addSuccessToast(COPIED_TO_CLIPBOARD);
  } catch {
    // Fallback for insecure origins: a hidden textarea and execCommand.
    const area = document.createElement('textarea');
    area.value = text;
    area.style.position = 'fixed';
    area.style.opacity = '0';
    document.body.append(area);
    area.select();
    let ok = false;
    try {
      ok = document.execCommand('copy');
    } catch {
      ok = false;
    }
    area.remove();
    if (ok) addSuccessToast(COPIED_TO_CLIPBOARD);
    else addDangerToast(COPY_NOT_SUPPORTED);
  }
}
