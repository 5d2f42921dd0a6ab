// Shared fixtures for the SQL editor unit tests (not exported from index.ts).
import { initialSqlLabState, type Query, type QueryEditor, type SqlLabState } from './types';

export function editor(id: string, overrides: Partial<QueryEditor> = {}): QueryEditor {
  return { id, name: `Untitled Query ${id}`, sql: '', autorun: false, ...overrides };
}

export function query(id: string, overrides: Partial<Query> = {}): Query {
  return { id, sql: 'SELECT 1', sqlEditorId: 'a', state: 'running', startDttm: 1000, progress: 0, ...overrides };
}

/** Two tabs, 'a' active. */
export function twoTabs(overrides: Partial<SqlLabState> = {}): SqlLabState {
  return { ...initialSqlLabState(0), queryEditors: [editor('a'), editor('b')], tabHistory: ['b', 'a'], ...overrides };
}
