import type { FilterOperator } from '@meridian/contracts/schemas/list-query';
import { api } from '../../api';
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

/** A select of a related field's choices (`<endpoint>related/<col>`: owners, created_by, changed_by ...), by id. */
export const relatedFilter = (endpoint: string, col: string, label: string, operator: FilterOperator): ListViewFilter => ({
  col,
  label,
  input: 'select',
  operator,
  loadOptions: async () => {
    const answer = await api<{ result: Array<{ value: number | string; text: string }> }>(`${endpoint}related/${col}`, { query: { q: { page_size: 100 } } });
    return answer.result.map((r) => ({ value: String(r.value), label: r.text || String(r.value) }));
  },
  parse: (v) => Number(v),
});
