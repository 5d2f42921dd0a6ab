import { describe, expect, it } from 'vitest';
import { conditionalFormattingColumns } from './column-config';

const datasource = {
  id: 1,
  type: 'table',
  name: 'birth_names',
  columns: [{ column_name: 'num', type: 'BIGINT' }, { column_name: 'name', type: 'VARCHAR' }, { column_name: 'ds', type: 'TIMESTAMP', is_dttm: true }],
  metrics: [{ metric_name: 'sum__num', expression: 'SUM(num)', verbose_name: 'Births' }],
  verbose_map: { sum__num: 'Births' },
};

describe("conditional formatting's columns", () => {
  it("offers a raw table's numeric columns, as Superset offers the answer's numeric columns", () => {
    expect(conditionalFormattingColumns({ formData: { viz_type: 'table', query_mode: 'raw', all_columns: ['name', 'num', 'ds'] }, datasource })).toEqual([{ value: 'num', label: 'num' }]);
  });

  it("offers an aggregate table's metrics and percent metrics under their verbose names, and numeric group-bys", () => {
    expect(conditionalFormattingColumns({ formData: { viz_type: 'table', groupby: ['name', 'num'], metrics: ['sum__num'], percent_metrics: ['sum__num'] }, datasource })).toEqual([
      { value: 'num', label: 'num' },
      { value: 'sum__num', label: 'Births' },
      { value: '%sum__num', label: '%Births' },
    ]);
  });

  it("offers the pivot's metrics and big_number_total's metric", () => {
    expect(conditionalFormattingColumns({ formData: { viz_type: 'pivot_table_v2', metrics: ['sum__num', { expressionType: 'SQL', sqlExpression: 'COUNT(*)', label: 'rows' }] }, datasource })).toEqual([
      { value: 'sum__num', label: 'Births' },
      { value: 'rows', label: 'rows' },
    ]);
    expect(conditionalFormattingColumns({ formData: { viz_type: 'big_number_total', metric: 'sum__num' }, datasource })).toEqual([{ value: 'sum__num', label: 'Births' }]);
  });
});
