import type { SqlLabAction } from './actions';
import { QueryState, type Query, type QueryEditor, type SqlLabState } from './types';
import { activeQueryEditorId, applyQueryEditorEdit } from './editors.reducer';
import { successEndDttm } from './elapsed';

function alterQuery(state: SqlLabState, id: string, alterations: Partial<Query>): SqlLabState {
  const existing = state.queries[id];
  if (!existing) return state;
  return { ...state, queries: { ...state.queries, [id]: { ...existing, ...alterations } } };
}

function shallowEqualRecords(a: Record<string, unknown>, b: Record<string, unknown> | undefined): boolean {
  if (!b) return false;
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const key of keys) if (a[key] !== b[key]) return false;
  return true;
}

function toMillis(value: unknown): number {
  if (typeof value === 'number') return value;
  if (typeof value !== 'string') return NaN;
  // Server timestamps without a zone are UTC.
  const normalised = /[zZ]|[+-]\d\d:?\d\d$/.test(value) ? value : `${value}Z`;
  return Date.parse(normalised);
}

/**
 * Start: the query is added (pending when asynchronous, running otherwise, progress 0) and the old results
 * of the editor's latest query are cleared; the editor's latestQueryId points at it.
 */
function startQuery(state: SqlLabState, query: Query): SqlLabState {
  let next = state;
  let editorId: string | undefined;
  if (query.sqlEditorId) {
    const byTabView = state.queryEditors.find((qe) => qe.tabViewId === query.sqlEditorId);
    editorId = byTabView?.id ?? query.sqlEditorId;
    const listed = state.queryEditors.find((qe) => qe.id === editorId);
    const editor: Partial<QueryEditor> = {
      ...listed,
      ...(state.unsavedQueryEditor.id === editorId ? state.unsavedQueryEditor : {}),
    };
    const latest = editor.latestQueryId ? state.queries[editor.latestQueryId] : undefined;
    if (latest) {
      const results = latest.results && !Array.isArray(latest.results) ? latest.results : {};
      next = alterQuery(next, latest.id, { results: { ...results, data: [], query: null } });
    }
  }
  const started: Query = {
    ...query,
    state: query.runAsync ? QueryState.PENDING : QueryState.RUNNING,
    progress: 0,
  };
  next = { ...next, queries: { ...next.queries, [started.id]: started } };
  if (!editorId) return next;
  // A data preview does not count as an edit of the tab, so it leaves updatedAt alone.
  return applyQueryEditorEdit(next, editorId, { latestQueryId: started.id }, query.isDataPreview ? undefined : started.startDttm);
}

/** Spec 01 §4 "Query" transitions, cost estimates and offline flag. */
export function queriesReducer(state: SqlLabState, action: SqlLabAction): SqlLabState {
  switch (action.type) {
    case 'START_QUERY':
      return startQuery(state, action.query);

    case 'QUERY_SUCCESS': {
      // Success applies only if the query is not stopped and the result status is success.
      const current = state.queries[action.query.id];
      if (action.query.state === QueryState.STOPPED || current?.state === QueryState.STOPPED) return state;
      if (action.results?.status !== QueryState.SUCCESS) return state;
      const info = action.results.query ?? {};
      return alterQuery(state, action.query.id, {
        // Rows fetched later (restored, or asynchronous) keep the query's own end, not the time of the fetch.
        endDttm: successEndDttm(current, action.now),
        progress: 100,
        results: action.results,
        rows: info.rows ?? 0,
        state: QueryState.SUCCESS,
        executedSql: info.executedSql,
        limitingFactor: info.limitingFactor,
        tempSchema: info.tempSchema,
        tempTable: info.tempTable,
        errorMessage: null,
        cached: false,
        ...(info.resultsKey ? { resultsKey: info.resultsKey } : {}),
      });
    }

    case 'QUERY_FAILED': {
      // Failure is ignored for a stopped query.
      const current = state.queries[action.query.id];
      if (action.query.state === QueryState.STOPPED || current?.state === QueryState.STOPPED) return state;
      return alterQuery(state, action.query.id, {
        state: QueryState.FAILED,
        errors: action.errors,
        errorMessage: action.msg,
        endDttm: action.now,
        link: action.link,
      });
    }

    case 'STOP_QUERY':
      return alterQuery(state, action.query.id, { state: QueryState.STOPPED, results: [] });

    case 'REQUEST_QUERY_RESULTS':
      return alterQuery(state, action.query.id, { state: QueryState.FETCHING });

    case 'CLEAR_QUERY_RESULTS': {
      const current = state.queries[action.query.id];
      if (!current) return state;
      const results = current.results && !Array.isArray(current.results) ? current.results : {};
      return alterQuery(state, action.query.id, { results: { ...results, data: [] }, cached: true });
    }

    case 'REMOVE_QUERY': {
      if (!(action.query.id in state.queries)) return state;
      const { [action.query.id]: _removed, ...queries } = state.queries;
      return { ...state, queries };
    }

    case 'REFRESH_QUERIES':
      return refreshQueries(state, action.alteredQueries);

    case 'CLEAR_INACTIVE_QUERIES': {
      const queries: Record<string, Query> = {};
      for (const [id, query] of Object.entries(state.queries)) {
        const stale =
          (query.state === QueryState.RUNNING || query.state === QueryState.PENDING) &&
          action.now - query.startDttm > action.interval &&
          (query.progress ?? 0) === 0;
        if (stale) continue;
        const results = query.results && !Array.isArray(query.results) ? (query.results as { status?: string }) : undefined;
        queries[id] = query.resultsKey && results?.status ? { ...query, state: results.status } : query;
      }
      return { ...state, queries };
    }

    case 'MIGRATE_QUERY': {
      const current = state.queries[action.queryId];
      if (!current) return state;
      return alterQuery(state, action.queryId, { sqlEditorId: action.queryEditorId });
    }

    case 'COST_ESTIMATE_STARTED':
      return setCostEstimate(state, action.query.id, { completed: false, cost: null, error: null });
    case 'COST_ESTIMATE_RETURNED':
      return setCostEstimate(state, action.query.id, { completed: true, cost: action.json.result, error: null });
    case 'COST_ESTIMATE_FAILED':
      return setCostEstimate(state, action.query.id, { completed: false, cost: null, error: action.error });

    case 'SET_USER_OFFLINE':
      return { ...state, offline: action.offline };

    default:
      return state;
  }
}

function setCostEstimate(state: SqlLabState, id: string, estimate: SqlLabState['queryCostEstimates'][string]): SqlLabState {
  return { ...state, queryCostEstimates: { ...state.queryCostEstimates, [id]: estimate } };
}

/**
 * Server merge rule: locally stopped or failed queries are not overwritten, and a server success does not
 * override a local fetching, success or running state. Unchanged queries keep their identity.
 */
export function refreshQueries(state: SqlLabState, alteredQueries: Record<string, Partial<Query>>): SqlLabState {
  let changed = false;
  let { queriesLastUpdate } = state;
  const queries = { ...state.queries };
  for (const [id, serverQuery] of Object.entries(alteredQueries)) {
    const local = state.queries[id];
    if (local && (local.state === QueryState.STOPPED || local.state === QueryState.FAILED)) continue;
    const changedOn = toMillis(serverQuery.changed_on);
    if (changedOn > queriesLastUpdate) queriesLastUpdate = changedOn;
    const previous = local?.state;
    const keepLocal =
      serverQuery.state === QueryState.SUCCESS &&
      (previous === QueryState.FETCHING || previous === QueryState.SUCCESS || previous === QueryState.RUNNING);
    const merged = {
      ...local,
      ...serverQuery,
      ...(serverQuery.startDttm ? { startDttm: Number(serverQuery.startDttm) } : {}),
      ...(serverQuery.endDttm ? { endDttm: Number(serverQuery.endDttm) } : {}),
      state: keepLocal ? previous : serverQuery.state ?? previous,
    } as Query;
    // A synchronous success without results still has to be fetched.
    if (merged.state === QueryState.SUCCESS && merged.runAsync === false && !merged.results) merged.state = QueryState.FETCHING;
    const { extra: mergedExtra, ...mergedRest } = merged;
    const { extra: localExtra, ...localRest } = (local ?? {}) as Partial<Query>;
    if (local && shallowEqualRecords(mergedRest, localRest) && JSON.stringify(mergedExtra) === JSON.stringify(localExtra)) {
      queries[id] = local;
    } else {
      queries[id] = merged;
      changed = true;
    }
  }
  return { ...state, queries: changed ? queries : state.queries, queriesLastUpdate };
}

/** The query shown in the active tab's results pane, if any. */
export function latestQueryOfActiveTab(state: SqlLabState): Query | undefined {
  const id = activeQueryEditorId(state);
  const editor = { ...state.queryEditors.find((qe) => qe.id === id), ...(state.unsavedQueryEditor.id === id ? state.unsavedQueryEditor : {}) };
  return editor.latestQueryId ? state.queries[editor.latestQueryId] : undefined;
}
