import { describe, it, expect } from 'vitest';
import { sqlLabActions as act } from './actions';
import { sqlLabReducer } from './reducer';
import { latestQueryOfActiveTab } from './queries.reducer';
import { editor, query, twoTabs } from './test-fixtures';

describe('query transitions (spec 01 §4 "Query")', () => {
  it("'the query is added as pending when asynchronous, running otherwise, with progress 0'", () => {
    const asyncState = sqlLabReducer(twoTabs(), act.startQuery(query('q1', { runAsync: true, state: 'started', progress: 50 })));
    expect(asyncState.queries.q1).toMatchObject({ state: 'pending', progress: 0 });
    const syncState = sqlLabReducer(twoTabs(), act.startQuery(query('q2', { runAsync: false })));
    expect(syncState.queries.q2.state).toBe('running');
  });

  it("'The old results of the editor's latest query are cleared' and the tab points at the new query", () => {
    const state = twoTabs({
      queryEditors: [editor('a', { latestQueryId: 'old' }), editor('b')],
      queries: { old: query('old', { state: 'success', results: { data: [{ x: 1 }], status: 'success' } }) },
    });
    const next = sqlLabReducer(state, act.startQuery(query('new', { sqlEditorId: 'a', startDttm: 5000 })));
    expect(next.queries.old.results).toMatchObject({ data: [], query: null });
    expect(next.unsavedQueryEditor).toMatchObject({ id: 'a', latestQueryId: 'new', updatedAt: 5000 });
    expect(latestQueryOfActiveTab(next)?.id).toBe('new');
  });

  it('a data preview query does not touch the tab timestamp', () => {
    const next = sqlLabReducer(twoTabs(), act.startQuery(query('p', { isDataPreview: true })));
    expect(next.unsavedQueryEditor.updatedAt).toBeUndefined();
  });

  it("'Success ... sets progress 100, the row count and an end time, and clears the error'", () => {
    const state = twoTabs({ queries: { q: query('q', { errorMessage: 'old' }) } });
    const next = sqlLabReducer(
      state,
      act.querySuccess(state.queries.q, { status: 'success', data: [], query: { rows: 42, resultsKey: 'rk' } }, 9000),
    );
    expect(next.queries.q).toMatchObject({ state: 'success', progress: 100, rows: 42, endDttm: 9000, errorMessage: null, resultsKey: 'rk' });
  });

  it('rows fetched later for a restored query keep its own end time, not the time of the fetch', () => {
    const state = twoTabs({ queries: { q: query('q', { state: 'fetching', startDttm: 1_000, endDttm: 1_090 }) } });
    const next = sqlLabReducer(state, act.querySuccess(state.queries.q, { status: 'success', data: [], query: { rows: 1 } }, 62_640));
    expect(next.queries.q).toMatchObject({ state: 'success', startDttm: 1_000, endDttm: 1_090 });
  });

  it("'Success applies only if the query is not stopped and the result status is success'", () => {
    const stopped = twoTabs({ queries: { q: query('q', { state: 'stopped' }) } });
    expect(sqlLabReducer(stopped, act.querySuccess({ id: 'q', state: 'running' }, { status: 'success' }))).toBe(stopped);
    const running = twoTabs({ queries: { q: query('q') } });
    expect(sqlLabReducer(running, act.querySuccess(running.queries.q, { status: 'failed' }))).toBe(running);
  });

  it("'Failure is ignored for a stopped query; otherwise it records errors, message, link and end time'", () => {
    const stopped = twoTabs({ queries: { q: query('q', { state: 'stopped' }) } });
    expect(sqlLabReducer(stopped, act.queryFailed(stopped.queries.q, 'boom'))).toBe(stopped);
    const running = twoTabs({ queries: { q: query('q') } });
    const errors = [{ message: 'bad', error_type: 'SYNTAX_ERROR', level: 'error' }] as const;
    const next = sqlLabReducer(running, act.queryFailed(running.queries.q, 'boom', 'http://l', [...errors], 7000));
    expect(next.queries.q).toMatchObject({ state: 'failed', errorMessage: 'boom', link: 'http://l', endDttm: 7000, errors });
  });

  it("'Stop sets state stopped and empties the results'", () => {
    const state = twoTabs({ queries: { q: query('q', { results: { data: [{ a: 1 }] } }) } });
    expect(sqlLabReducer(state, act.stopQuery({ id: 'q' })).queries.q).toMatchObject({ state: 'stopped', results: [] });
  });

  it("'Asynchronous queries are fetched later through their resultsKey (state fetching while requested)'", () => {
    const state = twoTabs({ queries: { q: query('q', { state: 'success', resultsKey: 'k' }) } });
    expect(sqlLabReducer(state, act.requestQueryResults({ id: 'q' })).queries.q.state).toBe('fetching');
  });

  it('clearing results keeps the query but empties its data', () => {
    const state = twoTabs({ queries: { q: query('q', { results: { data: [{ a: 1 }], status: 'success' } }) } });
    expect(sqlLabReducer(state, act.clearQueryResults({ id: 'q' })).queries.q).toMatchObject({ results: { data: [] }, cached: true });
  });
});

describe('refresh from the server (spec 01 §4)', () => {
  it("'locally stopped or failed queries are not overwritten'", () => {
    const state = twoTabs({ queries: { s: query('s', { state: 'stopped' }), f: query('f', { state: 'failed' }) } });
    const next = sqlLabReducer(state, act.refreshQueries({ s: { state: 'success' }, f: { state: 'success' } }));
    expect(next.queries.s.state).toBe('stopped');
    expect(next.queries.f.state).toBe('failed');
  });

  it("'a server success does not override a local fetching, success or running state'", () => {
    for (const local of ['fetching', 'running', 'success']) {
      const state = twoTabs({ queries: { q: query('q', { state: local, runAsync: true }) } });
      expect(sqlLabReducer(state, act.refreshQueries({ q: { state: 'success', progress: 100 } })).queries.q.state).toBe(local);
    }
    const pending = twoTabs({ queries: { q: query('q', { state: 'pending', runAsync: true }) } });
    expect(sqlLabReducer(pending, act.refreshQueries({ q: { state: 'success' } })).queries.q.state).toBe('success');
  });

  it('adds unknown queries, converts timestamps and tracks the last change', () => {
    const next = sqlLabReducer(
      twoTabs(),
      act.refreshQueries({ n: { id: 'n', state: 'running', startDttm: '1500' as unknown as number, changed_on: '2024-01-01T00:00:00' } }),
    );
    expect(next.queries.n).toMatchObject({ state: 'running', startDttm: 1500 });
    expect(next.queriesLastUpdate).toBe(Date.parse('2024-01-01T00:00:00Z'));
  });

  it('keeps the same queries object when nothing changed', () => {
    const state = twoTabs({ queries: { q: query('q', { state: 'running', extra: { a: 1 } }) } });
    expect(sqlLabReducer(state, act.refreshQueries({ q: { state: 'running', extra: { a: 1 } } })).queries).toBe(state.queries);
  });
});

describe('clearing inactive queries (spec 01 §4)', () => {
  it("'drops those that are running or pending, older than a given interval, with progress 0'", () => {
    const state = twoTabs({
      queries: {
        old: query('old', { state: 'running', startDttm: 0, progress: 0 }),
        moving: query('moving', { state: 'pending', startDttm: 0, progress: 10 }),
        fresh: query('fresh', { state: 'running', startDttm: 9500, progress: 0 }),
        done: query('done', { state: 'success', startDttm: 0 }),
      },
    });
    const next = sqlLabReducer(state, act.clearInactiveQueries(1000, 10000));
    expect(Object.keys(next.queries).sort()).toEqual(['done', 'fresh', 'moving']);
  });

  it("'when a results key exists the state is taken from the stored results status'", () => {
    const state = twoTabs({ queries: { q: query('q', { state: 'fetching', resultsKey: 'k', results: { status: 'success' } }) } });
    expect(sqlLabReducer(state, act.clearInactiveQueries(1000, 10000)).queries.q.state).toBe('success');
  });
});

describe('cost estimate (spec 01 §4)', () => {
  it("'started, then returned or failed; a failure stores the error on the query'", () => {
    let state = sqlLabReducer(twoTabs(), act.costEstimateStarted({ id: 'q' }));
    expect(state.queryCostEstimates.q).toEqual({ completed: false, cost: null, error: null });
    const returned = sqlLabReducer(state, act.costEstimateReturned({ id: 'q' }, { result: [{ cost: 5 }] }));
    expect(returned.queryCostEstimates.q).toEqual({ completed: true, cost: [{ cost: 5 }], error: null });
    state = sqlLabReducer(state, act.costEstimateFailed({ id: 'q' }, 'Failed at retrieving results'));
    expect(state.queryCostEstimates.q).toEqual({ completed: false, cost: null, error: 'Failed at retrieving results' });
  });

  it('offline flag', () => {
    expect(sqlLabReducer(twoTabs(), { type: 'SET_USER_OFFLINE', offline: true }).offline).toBe(true);
  });
});
