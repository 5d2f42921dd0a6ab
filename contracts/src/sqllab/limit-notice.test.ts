import { describe, expect, it } from 'vitest';
import { limitNotice } from './limit-notice';

describe('row-limit notice (spec 01 §5: the row limit may not exceed the configured maximum SQL row limit)', () => {
  it('the default dropdown limit names the rows shown and the configured maximum, in full', () => {
    expect(limitNotice({ limitingFactor: 'DROPDOWN', queryLimit: 10000 }, 10000, 10000, 100000)).toBe(
      'The number of results displayed is limited to 10000. Please add additional limits/filters or download to csv to see more rows up to the 100000 limit.',
    );
  });

  it("another dropdown limit, the query's LIMIT, or both", () => {
    expect(limitNotice({ limitingFactor: 'DROPDOWN', queryLimit: 10 }, 10, 1000, 100000)).toBe('The number of rows displayed is limited to 10 by the limit dropdown.');
    expect(limitNotice({ limitingFactor: 'QUERY' }, 5, 1000, 100000)).toBe('The number of rows displayed is limited to 5 by the query');
    expect(limitNotice({ results: { query: { limitingFactor: 'QUERY_AND_DROPDOWN' } } }, 10, 1000, 100000)).toBe(
      'The number of rows displayed is limited to 10 by the query and limit dropdown.',
    );
  });

  it('no notice when nothing cut the rows', () => {
    expect(limitNotice({ limitingFactor: 'NOT_LIMITED', queryLimit: 1000 }, 3, 1000, 100000)).toBeNull();
  });
});
