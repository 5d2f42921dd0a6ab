/**
 * Superset's conditional formatting rules (`conditional_formatting` form data), shared by the table, the pivot table
 * and the big number: which rule a value meets.
 */

/** One conditional formatting rule (Superset's `conditional_formatting` entries). */
export interface FormattingRule {
  column: string;
  operator: '<' | '>' | '≤' | '≥' | '=' | '≠' | '< x <' | '≤ x ≤' | 'None';
  targetValue?: number;
  targetValueLeft?: number;
  targetValueRight?: number;
  colorScheme: string;
}

/** Whether a value meets a rule (Superset's getColorFunction operators). */
export function ruleMatches(rule: FormattingRule, value: number): boolean {
  const t = Number(rule.targetValue);
  const l = Number(rule.targetValueLeft);
  const r = Number(rule.targetValueRight);
  switch (rule.operator) {
    case '<': return value < t;
    case '>': return value > t;
    case '≤': return value <= t;
    case '≥': return value >= t;
    case '=': return value === t;
    case '≠': return value !== t;
    case '< x <': return value > l && value < r;
    case '≤ x ≤': return value >= l && value <= r;
    case 'None': return true;
    default: return false;
  }
}
