/**
 * Row-level security (Superset's `get_rls_filters` and `get_sqla_row_level_filters`), as pure rules: which
 * filters of a dataset apply to a user, and the WHERE clauses they add to its queries.
 */
import type { RlsFilterType } from '../schemas/rls';

export interface RlsRule {
  id: number;
  filter_type: RlsFilterType | string;
  clause: string;
  group_key: string | null;
  /** The roles the rule names: the users it filters (Regular), or the users it spares (Base). */
  roleIds: readonly number[];
}

/**
 * The rules of a dataset that apply to a user with these roles: a Regular rule when the user holds one of its
 * roles, a Base rule unless the user holds one of its roles.
 */
export function rlsRulesFor<R extends RlsRule>(rules: readonly R[], userRoleIds: readonly number[]): R[] {
  const held = new Set(userRoleIds);
  return rules.filter((rule) => {
    const named = rule.roleIds.some((id) => held.has(id));
    return rule.filter_type === 'Base' ? !named : named;
  });
}

/**
 * The WHERE clauses of the applying rules, each to be ANDed with the query's own: a rule without a group key
 * is one clause; rules sharing a group key are ORed into one clause. Ordered by rule id, ungrouped first.
 */
export function rlsClauses(rules: readonly RlsRule[]): string[] {
  const sorted = [...rules].sort((a, b) => a.id - b.id);
  const clauses: string[] = [];
  const groups = new Map<string, string[]>();
  for (const rule of sorted) {
    const clause = `(${rule.clause.trim()})`;
    if (!rule.group_key) clauses.push(clause);
    else groups.set(rule.group_key, [...(groups.get(rule.group_key) ?? []), clause]);
  }
  for (const group of groups.values()) clauses.push(group.length === 1 ? group[0] : `(${group.join(' OR ')})`);
  return clauses;
}
