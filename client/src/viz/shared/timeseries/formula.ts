/**
 * Formula annotation layers evaluated with fparser: loaded on its own, only by charts and editors that have
 * a formula layer, so every other chart keeps it out of its JavaScript.
 */
import Formula from 'fparser';
import { formulaExpression } from '@meridian/contracts/explore/annotations';

/** A formula's value at x, or null when it does not evaluate (parse errors are the editor's to report). */
export function evalFormula(expression: string, x: number): number | null {
  try {
    const value = new Formula(formulaExpression(expression)).evaluate({ x });
    return typeof value === 'number' && Number.isFinite(value) ? value : null;
  } catch {
    return null;
  }
}

export function formulaParses(expression: string): boolean {
  try {
    new Formula(formulaExpression(expression));
    return true;
  } catch {
    return false;
  }
}
