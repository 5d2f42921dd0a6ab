import { describe, expect, it } from 'vitest';
import table from '../table/index';
import pivot from '../pivot_table_v2/index';
import line from '../echarts_timeseries_line/index';
import { displayNames } from './metrics';

// The dataset's verbose_map, as GET /api/v1/dataset/{id} and /dashboard/{id}/datasets answer it.
const datasource = { id: 1, type: 'table', name: 'birth_names', columns: [], metrics: [], verbose_map: { sum__num: 'Births', gender: 'Gender', name: '' } };
const size = { theme: 'light' as const, width: 600, height: 400 };

describe('verbose names on charts', () => {
  it('a label with a verbose name shows it; one without, or with an empty one, shows itself', () => {
    const names = displayNames(datasource);
    expect([names('sum__num'), names('num'), names('name'), names('toString')]).toEqual(['Births', 'num', 'name', 'toString']);
    expect(displayNames(null)('sum__num')).toBe('sum__num');
  });

  it('a table heads its columns with the verbose names, a percent metric with % before its name; the rows keep their keys', () => {
    const out = table.transformProps({
      formData: { viz_type: 'table', metrics: ['sum__num'], percent_metrics: ['sum__num'], groupby: ['gender'] },
      queriesData: [{ data: [{ gender: 'boy', sum__num: 10, '%sum__num': 1 }], colnames: ['gender', 'sum__num', '%sum__num'], coltypes: [1, 0, 0] } as any],
      datasource,
      ...size,
    });
    expect(out.columns.map((c) => [c.key, c.label])).toEqual([['gender', 'Gender'], ['sum__num', 'Births'], ['%sum__num', '%Births']]);
  });

  it('a pivot table names its metrics and row columns by their verbose names', () => {
    const out = pivot.transformProps({
      formData: { viz_type: 'pivot_table_v2', groupbyRows: ['gender'], groupbyColumns: [], metrics: ['sum__num'] },
      queriesData: [{ data: [{ gender: 'boy', sum__num: 10 }, { gender: 'girl', sum__num: 5 }] } as any],
      datasource,
      ...size,
    });
    expect(out.rowHeaders).toEqual(['Gender']);
    expect(out.columnLevels.flat().map(([label]) => label)).toEqual(['Births']);
  });

  it('a time series names a metric series by its verbose name, and leaves group values alone', () => {
    const rows = [{ ds: 0, gender: 'boy', sum__num: 1 }, { ds: 0, gender: 'girl', sum__num: 2 }];
    const single = line.transformProps({ formData: { viz_type: 'echarts_timeseries_line', x_axis: 'ds', metrics: ['sum__num'] }, queriesData: [{ data: [rows[0]], colnames: ['ds', 'sum__num'], coltypes: [2, 0] } as any], datasource, ...size });
    expect(single.option.series.map((s: any) => s.name)).toEqual(['Births']);
    const grouped = line.transformProps({ formData: { viz_type: 'echarts_timeseries_line', x_axis: 'ds', metrics: ['sum__num', 'count'], groupby: ['gender'], sort_series_type: 'name', sort_series_ascending: true }, queriesData: [{ data: rows, colnames: ['ds', 'gender', 'sum__num', 'count'], coltypes: [2, 1, 0, 0] } as any], datasource, ...size });
    expect(grouped.option.series.map((s: any) => s.name)).toEqual(['Births, boy', 'Births, girl', 'count, boy', 'count, girl']);
  });
});
