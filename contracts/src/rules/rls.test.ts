import { describe, expect, it } from 'vitest';
import { rlsClauses, rlsRulesFor, type RlsRule } from './rls';

const rule = (id: number, filter_type: string, clause: string, roleIds: number[], group_key: string | null = null): RlsRule => ({ id, filter_type, clause, group_key, roleIds });

describe('row-level security (Superset get_rls_filters / get_sqla_row_level_filters)', () => {
  it('a Regular filter applies to the users of its roles; a Base filter to everyone except them', () => {
    const rules = [rule(1, 'Regular', "region = 'North'", [3]), rule(2, 'Base', 'amount < 100', [1])];
    expect(rlsRulesFor(rules, [3]).map((r) => r.id)).toEqual([1, 2]);
    expect(rlsRulesFor(rules, [1]).map((r) => r.id)).toEqual([]);
    expect(rlsRulesFor(rules, [2]).map((r) => r.id)).toEqual([2]);
    expect(rlsRulesFor(rules, [1, 3]).map((r) => r.id)).toEqual([1]);
  });

  it('filters with the same group key are ORed; different groups and ungrouped filters are ANDed', () => {
    const clauses = rlsClauses([
      rule(4, 'Regular', "department = 'Finance'", [], 'department'),
      rule(1, 'Regular', "region = 'North'", [], 'region'),
      rule(2, 'Regular', "region = 'South'", [], 'region'),
      rule(3, 'Regular', ' amount > 0 ', []),
    ]);
    expect(clauses).toEqual(['(amount > 0)', "((region = 'North') OR (region = 'South'))", "(department = 'Finance')"]);
    expect(rlsClauses([])).toEqual([]);
  });
});
