import { describe, expect, it } from 'vitest';
import radar from './index';
import { radarLabel } from './transform-props';
import { radarFit } from './transform-props';

describe('radar chart type', () => {
  it('asks for each group with every metric, largest first metric first (so the row limit keeps the biggest)', () => {
    const query = radar.buildQuery({ viz_type: 'radar', datasource: '1__table', groupby: ['state'], metrics: ['sum__num', 'count'], row_limit: 4 } as any).queries[0]!;
    expect(query.columns).toEqual(['state']);
    expect(query.metrics).toEqual(['sum__num', 'count']);
    expect(query.orderby).toEqual([['sum__num', false]]);
    expect(query.row_limit).toBe(4);
    expect(radar.buildQuery({ viz_type: 'radar', datasource: '1__table', groupby: ['state'], metrics: [] } as any).queries[0]!.orderby ?? []).toEqual([]);
  });

  it('makes one axis per metric and one polygon per group', () => {
    const out = radar.transformProps({
      formData: { viz_type: 'radar', groupby: ['gender'], metrics: ['a', 'b'], column_config: { b: { radarMetricMaxValue: 100 } } },
      queriesData: [{ data: [{ gender: 'boy', a: 10, b: 20 }, { gender: 'girl', a: 5, b: 40 }] } as any],
      datasource: null,
      theme: 'light',
      width: 400,
      height: 300,
    });
    expect(out.option.radar.indicator).toEqual([{ name: 'a', max: 11 }, { name: 'b', max: 100 }]);
    expect(out.option.series[0].data.map((d: any) => [d.name, d.value])).toEqual([['boy', [10, 20]], ['girl', [5, 40]]]);
  });

  it("leaves the axis names room beside the radar: a narrow cell's radius shrinks, a name too long is shortened", () => {
    // Wide: the usual 68% of half the shorter side.
    expect(radarFit(800, 400, ['count'])).toEqual({ radius: 136, maxChars: 33 });
    // 380px wide: 'sum__num_girls' (14 characters, ~105px and its gap) leaves a radius of 72 (40%), not 122, and
    // 13 characters of room.
    expect(radarFit(380, 360, ['sum__num_boys', 'sum__num_girls', 'count'])).toEqual({ radius: 72, maxChars: 13 });
    // Very narrow: the radius stays at 40% and names are cut to the room left.
    expect(radarFit(200, 300, ['a_very_long_metric_name'])).toEqual({ radius: 40, maxChars: 6 });
    const out = radar.transformProps({ formData: { viz_type: 'radar', groupby: [], metrics: ['a_very_long_metric_name'] }, queriesData: [{ data: [{ a_very_long_metric_name: 1 }] } as any], datasource: null, theme: 'light', width: 200, height: 300 });
    expect(out.option.radar.radius).toBe(40);
    expect(out.option.radar.axisName.formatter('a_very_long_metric_name')).toBe('a_ver…');
  });

  it("'Customize Metrics' sets each metric's min and max (column_config radarMetricMinValue, radarMetricMaxValue), and lists only the metrics", () => {
    const control = radar.controlPanel.sections.flatMap((s) => s.controlSetRows.flat()).find((c) => typeof c === 'object' && 'type' in c && c.name === 'column_config') as any;
    expect(control).toMatchObject({ type: 'ColumnConfigControl', label: 'Customize Metrics', renderTrigger: true, configColumns: 'metrics', configFormLayout: { numeric: [['radarMetricMinValue', 'radarMetricMaxValue']] } });
    const out = radar.transformProps({ formData: { viz_type: 'radar', groupby: [], metrics: ['a', 'b'], column_config: { a: { radarMetricMaxValue: 500 } } }, queriesData: [{ data: [{ a: 10, b: 10 }] } as any], datasource: null, theme: 'light', width: 400, height: 400 });
    expect(out.option.radar.indicator.map((i: any) => i.max)).toEqual([500, 11]);
  });
});

describe("radar: Superset's label options, per-metric Min, and sort", () => {
  const rows = [{ state: 'CA', boys: 50, girls: 40 }, { state: 'NY', boys: 30, girls: 35 }];
  const draw = (extra: Record<string, unknown>) => radar.transformProps({ formData: { viz_type: 'radar', groupby: ['state'], metrics: ['boys', 'girls'], ...extra }, queriesData: [{ data: rows } as any], datasource: null, theme: 'light', width: 500, height: 400 }).option;

  it("'Label Type' shows the value (default) or the group and value; 'Label position' places it (top by default)", () => {
    expect([radarLabel(undefined, 'CA', '50'), radarLabel('key_value', 'CA', '50')]).toEqual(['50', 'CA: 50']);
    const series = draw({ show_labels: true, label_type: 'key_value', label_position: 'insideTop' }).series[0];
    expect(series.label).toMatchObject({ show: true, position: 'insideTop' });
    expect(series.label.formatter({ name: 'CA', value: 50 })).toBe('CA: 50');
    expect(draw({}).series[0].label.position).toBe('top');
  });

  it("'Customize Metrics' Min starts a metric's axis there; Max ends it", () => {
    const indicator = draw({ column_config: { boys: { radarMetricMinValue: 20, radarMetricMaxValue: 60 } } }).radar.indicator;
    expect(indicator[0]).toMatchObject({ min: 20, max: 60 });
    expect(indicator[1].min).toBeUndefined();
  });

  it("orders the groups by 'Sort by' when set, else by the first metric", () => {
    const q = (extra: object) => radar.buildQuery({ viz_type: 'radar', datasource: '1__table', groupby: ['state'], metrics: ['boys', 'girls'], ...extra }).queries[0]!;
    expect(q({}).orderby).toEqual([['boys', false]]);
    expect(q({ timeseries_limit_metric: 'girls' }).orderby).toEqual([['girls', false]]);
  });
});

describe("radar: Superset's options", () => {
  const rows = [{ gender: 'boy', a: 10, b: 40 }, { gender: 'girl', a: 5, b: 20 }];
  const draw = (extra: Record<string, unknown>, data: Record<string, unknown>[] = rows, meta: Record<string, unknown> = {}) =>
    radar.transformProps({ formData: { viz_type: 'radar', groupby: ['gender'], metrics: ['a', 'b'], ...extra }, queriesData: [{ data, ...meta } as any], datasource: null, theme: 'light', width: 600, height: 400 }).option;

  it("'Normalize Values' draws each polygon as shares of its largest value on axes from 0 (to 1.1, room for the labels); labels and tooltip show the values", () => {
    const out = draw({ is_normalized: true, column_config: { a: { radarMetricMaxValue: 100 } } });
    expect(out.radar.indicator).toEqual([{ name: 'a', max: 1.1, min: 0 }, { name: 'b', max: 1.1, min: 0 }]);
    expect(out.series[0].data.map((d: any) => d.value)).toEqual([[0.25, 1], [0.25, 1]]);
    expect(out.series[0].label.formatter({ name: 'girl', value: 0.25 })).toBe('5');
    expect(out.tooltip.formatter({ name: 'boy', value: [0.25, 1] })).toBe('boy<br/>a: 10<br/>b: 40');
  });

  it("hides 'Customize Metrics' while values are normalised", () => {
    const control = radar.controlPanel.sections.flatMap((s) => s.controlSetRows.flat()).find((c) => typeof c !== 'string' && c.name === 'column_config') as any;
    expect(control.visibility({ formData: { is_normalized: true }, datasource: null })).toBe(false);
    expect(control.visibility({ formData: {}, datasource: null })).toBe(true);
  });

  it("a Min cleared to empty starts the axis at the smallest value; unset, at 0", () => {
    expect(draw({ column_config: { b: { radarMetricMinValue: null } } }).radar.indicator[1]).toEqual({ name: 'b', max: 44, min: 20 });
    expect(draw({ column_config: { b: { radarMetricMinValue: 5 } } }).radar.indicator[1]).toEqual({ name: 'b', max: 44, min: 5 });
    expect(draw({}).radar.indicator[1]).toEqual({ name: 'b', max: 44 });
  });

  it("'Orientation', 'Type' and 'Margin' place the legend, and the radar is centred in the room it leaves", () => {
    const right = draw({ legendOrientation: 'right', legendType: 'plain', legendMargin: 10 });
    expect([right.legend.right, right.legend.orient, right.legend.type]).toEqual([0, 'vertical', 'plain']);
    expect(right.radar.center[0]).toBeLessThan(300);
    expect(right.radar.center[1]).toBe(200);
    const top = draw({});
    expect(top.radar.center).toEqual([300, 215]);
    expect(draw({ show_legend: false }).radar.center).toEqual([300, 200]);
  });

  it("writes temporal groups in the 'Date format'", () => {
    const out = draw({ groupby: ['ds'], date_format: '%Y' }, [{ ds: Date.UTC(2004, 0, 1), a: 1, b: 2 }], { colnames: ['ds', 'a', 'b'], coltypes: [2, 0, 0] });
    expect(out.series[0].data[0].name).toBe('2004');
  });
});
