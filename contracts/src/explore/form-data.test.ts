import { describe, expect, it } from 'vitest';
import { dropMissingDatasourceValues, renameMetricConfig, SQL_ADHOC_KEPT_WARNING, switchVizType } from './form-data';

const ds = { columns: [{ column_name: 'name' }, { column_name: 'num' }], metrics: [{ metric_name: 'count' }] };
const controls = [
  { name: 'metrics', type: 'MetricsControl' },
  { name: 'groupby', type: 'GroupByControl', default: [] },
  { name: 'metric', type: 'MetricsControl' },
];

describe('Explore form data rules (spec 01 §4, §5)', () => {
  it('drops saved metrics and columns missing from the dataset, keeping SQL adhoc ones with a warning', () => {
    const sql = { expressionType: 'SQL', sqlExpression: 'SUM(x)', label: 'sx' };
    const { formData, warnings } = dropMissingDatasourceValues(
      { viz_type: 'table', metrics: ['count', 'gone', sql, { expressionType: 'SIMPLE', column: { column_name: 'num' }, aggregate: 'SUM' }, { expressionType: 'SIMPLE', column: { column_name: 'old' } }], groupby: ['name', 'state'], metric: 'gone' },
      controls,
      ds,
    );
    expect(formData.metrics).toHaveLength(3);
    expect(formData.groupby).toEqual(['name']);
    expect(formData.metric).toBeNull();
    expect(warnings).toEqual([SQL_ADHOC_KEPT_WARNING]);
  });

  it('stashes what the new chart type hides and restores it on the way back', () => {
    const line = { viz_type: 'echarts_timeseries_line', x_axis: 'ds', metrics: ['count'], markerEnabled: true, datasource: '1__table' };
    const toPie = switchVizType(line, {}, 'pie', new Set(['groupby', 'metric', 'row_limit']));
    expect(toPie.formData).toEqual({ viz_type: 'pie', datasource: '1__table', metric: 'count' });
    expect(toPie.stash).toMatchObject({ x_axis: 'ds', markerEnabled: true, metrics: ['count'] });
    const back = switchVizType(toPie.formData, toPie.stash, 'echarts_timeseries_line', new Set(['x_axis', 'metrics', 'markerEnabled']));
    expect(back.formData).toMatchObject({ viz_type: 'echarts_timeseries_line', x_axis: 'ds', metrics: ['count'], markerEnabled: true });
  });

  it("hands metrics and dimensions on under the new type's names (Superset's standardized form data)", () => {
    const pie = { viz_type: 'pie', groupby: ['gender'], metric: 'sum__num', datasource: '1__table' };
    const pivot = switchVizType(pie, {}, 'pivot_table_v2', new Set(['groupbyRows', 'groupbyColumns', 'metrics']));
    expect(pivot.formData).toMatchObject({ groupbyRows: ['gender'], metrics: ['sum__num'] });
    expect(pivot.formData.groupbyColumns).toBeUndefined();

    // Line → bubble → gauge keeps the metric all the way (the bubble's x holds it).
    const line = { viz_type: 'echarts_timeseries_line', x_axis: 'ds', metrics: ['sum__num'], groupby: ['state'] };
    const bubble = switchVizType(line, {}, 'bubble_v2', new Set(['x', 'y', 'size', 'entity', 'series']));
    expect(bubble.formData).toMatchObject({ x: 'sum__num', entity: 'state' });
    const gauge = switchVizType(bubble.formData, bubble.stash, 'gauge_chart', new Set(['metric', 'groupby']));
    expect(gauge.formData).toMatchObject({ metric: 'sum__num', groupby: ['state'] });

    // A type that holds its own (restored from the stash) keeps it.
    const back = switchVizType(pivot.formData, pivot.stash, 'pie', new Set(['groupby', 'metric']));
    expect(back.formData).toMatchObject({ groupby: ['gender'], metric: 'sum__num' });
  });

  it("keeps a type's own same-named controls with their type: a line's time shifts wait in the stash while it is a table", () => {
    const line = { viz_type: 'echarts_timeseries_line', x_axis: 'ds', metrics: ['count'], time_compare: ['1 year ago'], comparison_type: 'ratio', time_range: 'No filter' };
    const tableOwn = new Set(['time_compare', 'comparison_type']);
    const toTable = switchVizType(line, {}, 'table', new Set(['metrics', 'groupby', 'time_compare', 'comparison_type']), { comparison_type: 'values' }, { to: tableOwn });
    expect(toTable.formData).toEqual({ viz_type: 'table', metrics: ['count'], time_range: 'No filter', comparison_type: 'values' });
    // The table's own choice goes to the stash under its type, and the line gets its time shifts back.
    const withShift = { ...toTable.formData, time_compare: '1 week ago' };
    const back = switchVizType(withShift, toTable.stash, 'echarts_timeseries_line', new Set(['x_axis', 'metrics', 'time_compare', 'comparison_type']), {}, { from: tableOwn });
    expect(back.formData).toMatchObject({ x_axis: 'ds', time_compare: ['1 year ago'], comparison_type: 'ratio' });
    // Through a pie (which has neither), the table still starts without the line's time shifts, and finds its own.
    const pie = switchVizType(back.formData, back.stash, 'pie', new Set(['groupby', 'metric']));
    const table = switchVizType(pie.formData, pie.stash, 'table', new Set(['metrics', 'time_compare', 'comparison_type']), {}, { to: tableOwn });
    expect(table.formData).toMatchObject({ time_compare: '1 week ago', comparison_type: 'values' });
  });

  it('carries a renamed metric’s column config', () => {
    const fd = renameMetricConfig({ viz_type: 'table', column_config: { 'SUM(num)': { d3NumberFormat: ',d' } } }, 'SUM(num)', 'Total');
    expect(fd.column_config).toEqual({ Total: { d3NumberFormat: ',d' } });
  });
});
