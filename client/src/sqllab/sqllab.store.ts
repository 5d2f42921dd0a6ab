import { createContext, useContext, useSyncExternalStore } from 'react';
import type { SqlLabAction } from '@meridian/contracts/sqllab/actions';
import { sqlLabReducer } from '@meridian/contracts/sqllab/reducer';
import type { SqlLabState } from '@meridian/contracts/sqllab/types';

/** A tiny external store around the contracts' `sqlLabReducer` (spec 01 §4), readable outside React. */
export interface SqlLabStore {
  getState(): SqlLabState;
  dispatch(action: SqlLabAction): void;
  subscribe(listener: () => void): () => void;
}

export function createSqlLabStore(initial: SqlLabState): SqlLabStore {
  let state = initial;
  const listeners = new Set<() => void>();
  return {
    getState: () => state,
    dispatch(action) {
      const next = sqlLabReducer(state, action);
      if (next === state) return;
      state = next;
      for (const listener of listeners) listener();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

export const SqlLabStoreContext = createContext<SqlLabStore | null>(null);

/** The whole SQL editor state; components pick what they need and memoise below. */
export function useSqlLabState(): SqlLabState {
  const store = useContext(SqlLabStoreContext);
  if (!store) throw new Error('useSqlLabState outside SqlLabStoreContext');
  return useSyncExternalStore(store.subscribe, store.getState);
}
