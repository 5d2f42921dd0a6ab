import { describe, expect, it } from 'vitest';
import { hasNoResults } from './no-results';

describe('no results (spec 01 §4: an empty answer is a success, shown as "No results were returned for this query")', () => {
  it('reads an answer whose query has no rows as no results', () => {
    expect(hasNoResults({}, [{ data: [] }])).toBe(true);
    expect(hasNoResults({}, [{}])).toBe(true);
    expect(hasNoResults({}, [])).toBe(true);
    expect(hasNoResults({}, null)).toBe(true);
  });

  it('draws an answer with rows, even a big number total’s one row of nulls (it reads "No data")', () => {
    expect(hasNoResults({}, [{ data: [{ n: 1 }] }])).toBe(false);
    expect(hasNoResults({}, [{ data: [{ 'SUM(num)': null }] }])).toBe(false);
  });

  it('looks only at the queries that hold the chart’s rows (a second query of totals does not count)', () => {
    expect(hasNoResults({}, [{ data: [] }, { data: [{ rowcount: 0 }] }])).toBe(true);
  });

  it('reads a mixed chart as empty only when both its queries are', () => {
    expect(hasNoResults({ queryObjectCount: 2 }, [{ data: [] }, { data: [{ x: 1 }] }])).toBe(false);
    expect(hasNoResults({ queryObjectCount: 2 }, [{ data: [] }, { data: [] }])).toBe(true);
  });

  it('never reads a type drawn without data (markdown) as empty', () => {
    expect(hasNoResults({ needsQuery: false }, [])).toBe(false);
  });
});
