import { SQL_ADHOC_KEPT_WARNING } from '@meridian/contracts/explore/form-data';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadChartPlugin } from '../viz/registry';
import type { ExploreBootstrap } from './explore.api';
import { openingFormData, withControlValue } from './useExplore';

const sqlMetric = { expressionType: 'SQL', sqlExpression: 'SUM(num_boys)', label: 'boys' };
const boot = (datasource: string) =>
  ({
    form_data: { viz_type: 'echarts_timeseries_line', datasource, x_axis: 'ds', metrics: ['sum__num', sqlMetric] },
    dataset: { id: 7, type: 'table', name: 'births', columns: [{ column_name: 'ds', is_dttm: true }], metrics: [{ metric_name: 'count', expression: 'COUNT(*)' }] },
  }) as unknown as ExploreBootstrap;

describe('opening Explore on form data made on another dataset (spec 01 §5)', () => {
  beforeAll(() => loadChartPlugin('echarts_timeseries_line'));

  it('a swapped dataset drops saved metrics it lacks, keeps SQL expressions and says so', () => {
    const { formData, warnings } = openingFormData(boot('3__table'));
    expect(formData.datasource).toBe('7__table');
    expect(formData.metrics).toEqual([sqlMetric]);
    expect(warnings).toEqual([SQL_ADHOC_KEPT_WARNING]);
  });

  it('a chart opened on its own dataset has no warning, SQL expressions or not', () => {
    expect(openingFormData(boot('7__table')).warnings).toEqual([]);
  });
});

describe('setting a control', () => {
  const renamed = { expressionType: 'SIMPLE', column: { column_name: 'num' }, aggregate: 'SUM', label: 'Total', hasCustomLabel: true };
  const plain = { ...renamed, label: 'SUM(num)', hasCustomLabel: false };

  it("a metric renamed in the metrics control keeps its column settings under the new label (renameMetricConfig)", () => {
    const fd = { viz_type: 'table', metrics: [plain, 'count'], percent_metrics: [plain], column_config: { 'SUM(num)': { d3NumberFormat: ',d' }, '%SUM(num)': { horizontalAlign: 'left' }, count: { columnWidth: 80 } } };
    const next = withControlValue(fd, 'metrics', [renamed, 'count']);
    expect(next.metrics).toEqual([renamed, 'count']);
    expect(next.column_config).toEqual({ Total: { d3NumberFormat: ',d' }, '%SUM(num)': { horizontalAlign: 'left' }, count: { columnWidth: 80 } });
    expect(withControlValue(fd, 'percent_metrics', [renamed]).column_config).toMatchObject({ '%Total': { horizontalAlign: 'left' } });
  });

  it('a metric added, removed or reordered moves no settings', () => {
    const fd = { viz_type: 'table', metrics: [plain, 'count'], column_config: { 'SUM(num)': { d3NumberFormat: ',d' } } };
    expect(withControlValue(fd, 'metrics', ['count', plain]).column_config).toEqual(fd.column_config);
    expect(withControlValue(fd, 'metrics', [plain, 'count', renamed]).column_config).toEqual(fd.column_config);
    expect(withControlValue(fd, 'row_limit', 10)).toEqual({ ...fd, row_limit: 10 });
  });
});
