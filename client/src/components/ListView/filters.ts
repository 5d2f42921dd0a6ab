import type { FilterOperator } from '@meridian/contracts/schemas/list-query';
import type { ListViewFilter } from './ListView';

/** A free-text filter (`ct`: contains, unless another operator is given). */
export const searchFilter = (col: string, label: string, operator: FilterOperator = 'ct'): ListViewFilter => ({ col, label, input: 'search', operator });

/** A yes/no select: its two options send `true` / `false` as the filter value. */
export const booleanFilter = (col: string, label: string, operator: FilterOperator, labels: { true: string; false: string }): ListViewFilter => ({
  col,
  label,
  input: 'select',
  operator,
  options: [
    { value: 'true', label: labels.true },
    { value: 'false', label: labels.false },
  ],
  parse: (v) => v === 'true',
});
