import { describe, expect, it } from 'vitest';
import { loadChartPlugin } from '../../viz/registry';
import { normaliseFormData, validateFormData, visibleControlNames } from './panel';

const datasource = { id: 1, type: 'table', name: 'birth_names', columns: [{ column_name: 'ds', is_dttm: true }, { column_name: 'gender' }], metrics: [{ metric_name: 'count', expression: 'COUNT(*)' }] };

describe('control panel rules (spec 01 §5)', async () => {
  const line = (await loadChartPlugin('echarts_timeseries_line'))!;
  const table = (await loadChartPlugin('table'))!;

  it("blocks a run while metrics are empty, the row limit is not a whole number or above the maximum", () => {
    const errors = validateFormData(line, { formData: { viz_type: 'echarts_timeseries_line', x_axis: 'ds', metrics: [], row_limit: '12.5' }, datasource }, 50000);
    expect(errors.metrics).toEqual(['cannot be empty']);
    expect(errors.row_limit).toEqual(['is expected to be an integer']);
    expect(validateFormData(line, { formData: { viz_type: 'echarts_timeseries_line', x_axis: 'ds', metrics: ['count'], row_limit: 60000 }, datasource }, 50000).row_limit).toEqual(['Value cannot exceed 50000']);
    expect(validateFormData(line, { formData: { viz_type: 'echarts_timeseries_line', x_axis: 'ds', metrics: ['count'], row_limit: 100 }, datasource }, 50000)).toEqual({});
  });

  it('shows the controls of the table query mode in use', () => {
    const aggregate = visibleControlNames(table, { formData: { viz_type: 'table', query_mode: 'aggregate' }, datasource });
    expect(aggregate.has('groupby') && aggregate.has('metrics') && !aggregate.has('all_columns')).toBe(true);
    const raw = visibleControlNames(table, { formData: { viz_type: 'table', query_mode: 'raw' }, datasource });
    expect(raw.has('all_columns') && !raw.has('metrics')).toBe(true);
  });

  it('fills defaults, resets an unknown colour scheme and drops a time grain that is not a choice', () => {
    const fd = normaliseFormData(line, { viz_type: 'echarts_timeseries_line', color_scheme: 'nope', time_grain_sqla: 'P9X' }, { datasource });
    expect(fd.color_scheme).toBe('supersetColors');
    expect(fd.time_grain_sqla).toBeNull();
    expect(fd.row_limit).toBe(10000);
    expect(fd.time_range).toBe('No filter');
  });

  it("keeps every time grain of spec 01 §9 a saved chart may hold (5 minutes, 7 days, the week variants), and offers the dataset engine's own", () => {
    for (const grain of ['PT5M', 'PT6H', 'P7D', '1969-12-28T00:00:00Z/P1W', 'P1W/1970-01-03T00:00:00Z', 'P3M']) {
      expect(normaliseFormData(line, { viz_type: 'echarts_timeseries_line', time_grain_sqla: grain }, { datasource }).time_grain_sqla).toBe(grain);
    }
    // A dataset whose database lists its grains: those are the choices.
    const engine = { ...datasource, time_grain_sqla: [['PT1H', 'Hour'], ['P1D', 'Day']] as Array<[string, string]> };
    expect(normaliseFormData(line, { viz_type: 'echarts_timeseries_line', time_grain_sqla: 'PT1H' }, { datasource: engine }).time_grain_sqla).toBe('PT1H');
    expect(normaliseFormData(line, { viz_type: 'echarts_timeseries_line', time_grain_sqla: 'PT5M' }, { datasource: engine }).time_grain_sqla).toBeNull();
  });

  it("reads an earlier 'Stacked bars' checkbox as Superset's 'Stacked Style': true stacks, false is none; unknown styles are dropped", async () => {
    const bar = (await loadChartPlugin('echarts_timeseries_bar'))!;
    const area = (await loadChartPlugin('echarts_area'))!;
    const read = (plugin: typeof bar, stack: unknown) => normaliseFormData(plugin, { viz_type: plugin.key, stack }, { datasource }).stack;
    expect([read(bar, true), read(bar, false), read(bar, 'Stream'), read(bar, 'Expand')]).toEqual(['Stack', null, 'Stream', null]);
    expect([read(area, true), read(area, 'Expand')]).toEqual(['Stack', 'Expand']);
  });
});
