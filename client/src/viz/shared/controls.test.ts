import { describe, expect, it } from 'vitest';
import type { ControlContext, DatasourceMeta } from '../types';
import { SHARED_CONTROLS } from './controls';

const datasource = {
  id: 1,
  type: 'table',
  name: 'births',
  columns: [
    { column_name: 'ds', type: 'TIMESTAMP', is_dttm: true },
    { column_name: 'num', type: 'BIGINT' },
    { column_name: 'name', type: 'VARCHAR' },
  ],
  metrics: [],
} satisfies DatasourceMeta;
const visible = (name: string, formData: Record<string, unknown>) => SHARED_CONTROLS[name]!.visibility!({ formData: { viz_type: 'echarts_timeseries_line', ...formData }, datasource } as ControlContext);

describe("Superset's x-axis controls: shown where they apply", () => {
  it("'Force categorical' only for an x-axis of numbers (Superset's checkColumnType(x_axis, [NUMERIC]))", () => {
    expect(['num', 'ds', 'name'].map((x_axis) => visible('xAxisForceCategorical', { x_axis }))).toEqual([true, false, false]);
  });

  it("'X Axis Bounds' with 'Truncate X Axis' on (its default), and only for a number x-axis: 'Not applicable for temporal or categorical axes'", () => {
    expect(visible('xAxisBounds', { x_axis: 'num' })).toBe(true);
    expect(visible('xAxisBounds', { x_axis: 'num', truncateXAxis: false })).toBe(false);
    expect(visible('xAxisBounds', { x_axis: 'ds', truncateXAxis: true })).toBe(false);
    expect([SHARED_CONTROLS.truncateXAxis!.default, SHARED_CONTROLS.truncateXAxis!.visibility]).toEqual([true, undefined]);
  });
});
