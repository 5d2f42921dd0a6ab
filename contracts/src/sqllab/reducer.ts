import type { SqlLabAction } from './actions';
import { editorsReducer } from './editors.reducer';
import { queriesReducer } from './queries.reducer';
import { tablesReducer } from './tables.reducer';
import type { SqlLabState } from './types';

/**
 * The SQL editor state machine of spec 01 §4, as one pure reducer. Each concern's reducer returns the
 * state untouched for actions it does not handle, so they can simply be chained.
 */
export function sqlLabReducer(state: SqlLabState, action: SqlLabAction): SqlLabState {
  return tablesReducer(editorsReducer(queriesReducer(state, action), action), action);
}
