import { describe, expect, it } from 'vitest';
import { filterLabel, operatorsFor, simpleFilter } from './adhoc-filter';

describe('adhoc filters of the filter editor', () => {
  it('offers NOT LIKE and NOT ILIKE everywhere, TEMPORAL_RANGE only on a temporal column', () => {
    const names = (column: { is_dttm?: boolean } | null) => operatorsFor(column).map((o) => o.value);
    expect(names({ is_dttm: false })).toEqual(expect.arrayContaining(['LIKE', 'NOT LIKE', 'ILIKE', 'NOT ILIKE']));
    expect(names({ is_dttm: false })).not.toContain('TEMPORAL_RANGE');
    expect(names(null)).not.toContain('TEMPORAL_RANGE');
    expect(names({ is_dttm: true })).toContain('TEMPORAL_RANGE');
  });

  it('a Simple filter is on a column, so its clause is WHERE (Superset infers it from the column subject); the comparator takes the operator’s shape', () => {
    expect(simpleFilter('name', 'NOT ILIKE', ['%ann%'])).toEqual({ expressionType: 'SIMPLE', clause: 'WHERE', subject: 'name', operator: 'NOT ILIKE', comparator: '%ann%' });
    expect(simpleFilter('state', 'NOT IN', ['CA', 'NY']).comparator).toEqual(['CA', 'NY']);
    expect(simpleFilter('num', 'IS NULL', ['x']).comparator).toBeNull();
    expect(simpleFilter('ds', 'TEMPORAL_RANGE', ['Last year']).comparator).toBe('Last year');
    // A time range not chosen yet is Superset's default, 'No filter'.
    expect(simpleFilter('ds', 'TEMPORAL_RANGE', []).comparator).toBe('No filter');
  });

  it('reads on its chip with its operator', () => {
    expect(filterLabel(simpleFilter('name', 'NOT LIKE', ['A%']))).toBe('name NOT LIKE A%');
    expect(filterLabel(simpleFilter('ds', 'TEMPORAL_RANGE', ['Last year']))).toBe('ds TEMPORAL_RANGE (Last year)');
    expect(filterLabel({ expressionType: 'SQL', clause: 'HAVING', sqlExpression: 'SUM(num) > 10' })).toBe('SUM(num) > 10');
  });
});
