import { describe, expect, it } from 'vitest';
import { queryContextModified } from './query-context-modified';

const SUM_NUM = { expressionType: 'SIMPLE', column: { column_name: 'num' }, aggregate: 'SUM', label: 'SUM(num)' };
const pie = { id: 7, params: { viz_type: 'pie', groupby: ['gender'], metric: 'sum__num', adhoc_filters: [{ subject: 'state', comparator: 'CA' }] }, queries: [] };

describe("query_context_modified: 'used to ensure guest users don't modify the payload and fetch data different from what was shared with them in dashboards'", () => {
  it("the chart's own request is not modified, whatever the keys its type keeps its metrics and columns under", () => {
    expect(queryContextModified({ form_data: { slice_id: 7 }, queries: [{ columns: ['gender'], metrics: ['sum__num'], orderby: [['sum__num', false]] }] }, pie)).toBe(false);
    const line = { id: 8, params: { x_axis: 'ds', metrics: [SUM_NUM], groupby: ['gender'], order_by_cols: ['["ds", true]'] }, queries: [] };
    const axis = { columnType: 'BASE_AXIS', sqlExpression: 'ds', expressionType: 'SQL', label: 'ds', timeGrain: 'P1M' };
    expect(queryContextModified({ queries: [{ columns: [axis, 'gender'], metrics: [{ ...SUM_NUM, label: 'Births', optionName: 'metric_x' }], orderby: [[SUM_NUM, false], ['ds', true]] }] }, line)).toBe(false);
  });

  it("'cannot request a different chart': another slice_id in the form data is modified", () => {
    expect(queryContextModified({ form_data: { slice_id: 8 }, queries: [{ columns: ['gender'], metrics: ['sum__num'] }] }, pie)).toBe(true);
  });

  it('a column, metric or ordering the chart does not have is modified; a relabelled one is not', () => {
    expect(queryContextModified({ queries: [{ columns: ['name'], metrics: ['sum__num'] }] }, pie)).toBe(true);
    // A column the chart only filters on is not one it shows.
    expect(queryContextModified({ queries: [{ columns: ['state'], metrics: ['sum__num'] }] }, pie)).toBe(true);
    expect(queryContextModified({ queries: [{ columns: ['gender'], metrics: ['count'] }] }, pie)).toBe(true);
    expect(queryContextModified({ queries: [{ columns: ['gender'], metrics: [{ expressionType: 'SQL', sqlExpression: 'MAX(name)', label: 'sum__num' }] }] }, pie)).toBe(true);
    expect(queryContextModified({ queries: [{ columns: [{ expressionType: 'SQL', sqlExpression: 'name || gender', label: 'gender' }] }] }, pie)).toBe(true);
    expect(queryContextModified({ queries: [{ columns: ['gender'], orderby: [[{ expressionType: 'SIMPLE', column: { column_name: 'num' }, aggregate: 'MAX' }, false]] }] }, pie)).toBe(true);
    expect(queryContextModified({ form_data: { metrics: ['count'] }, queries: [] }, pie)).toBe(true);
    // A filter only narrows the rows: not compared.
    expect(queryContextModified({ queries: [{ columns: ['gender'], metrics: ['sum__num'], filters: [{ col: 'name', op: 'ILIKE', val: 'J%' }] }] }, pie)).toBe(false);
  });

  it("the stored query context's queries count as the chart's own, as Superset reads them", () => {
    const stored = { id: 9, params: {}, queries: [{ columns: ['state'], metrics: [{ expressionType: 'SQL', sqlExpression: 'COUNT(DISTINCT  name)', label: 'names' }] }] };
    expect(queryContextModified({ queries: [{ columns: ['state'], metrics: [{ expressionType: 'SQL', sqlExpression: 'COUNT(DISTINCT name)', label: 'n' }] }] }, stored)).toBe(false);
    expect(queryContextModified({ queries: [{ columns: ['gender'] }] }, stored)).toBe(true);
  });
});
