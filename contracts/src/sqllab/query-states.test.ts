import { describe, it, expect } from 'vitest';
import { FINISHED_STATES, IN_PROGRESS_STATES, isQueryFinished, isQueryInProgress, queryDisplayStyle } from './query-states';
import { QueryState } from './types';

describe('query states (spec 01 §4)', () => {
  it("'All states: started, stopped, failed, pending, running, scheduled, success, fetching, timed_out'", () => {
    expect(Object.values(QueryState).sort()).toEqual(
      ['started', 'stopped', 'failed', 'pending', 'running', 'scheduled', 'success', 'fetching', 'timed_out'].sort(),
    );
  });

  it("'In progress: running, started, pending, fetching, scheduled. Finished: stopped, failed, success, timed_out'", () => {
    expect([...IN_PROGRESS_STATES].sort()).toEqual(['fetching', 'pending', 'running', 'scheduled', 'started']);
    expect([...FINISHED_STATES].sort()).toEqual(['failed', 'stopped', 'success', 'timed_out']);
    expect(isQueryInProgress('fetching')).toBe(true);
    expect(isQueryFinished('timed_out')).toBe(true);
    expect(isQueryFinished('running')).toBe(false);
  });

  it("'offline, failed and stopped are danger; pending and fetching are info; running is warning; success is success'", () => {
    expect(['offline', 'failed', 'stopped'].map(queryDisplayStyle)).toEqual(['danger', 'danger', 'danger']);
    expect(['pending', 'fetching'].map(queryDisplayStyle)).toEqual(['info', 'info']);
    expect(queryDisplayStyle('running')).toBe('warning');
    expect(queryDisplayStyle('success')).toBe('success');
  });
});
