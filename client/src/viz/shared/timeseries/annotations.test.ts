import { NEW_ANNOTATION_LAYER, type AnnotationLayer } from '@meridian/contracts/explore/annotations';
import { describe, expect, it } from 'vitest';
import { annotationSeries, withAnnotations } from './annotations';
import { evalFormula, formulaParses } from './formula';
import { transformTimeseries } from './transform-props';

const layer = (patch: Partial<AnnotationLayer>): AnnotationLayer => ({ ...NEW_ANNOTATION_LAYER, ...patch });
const ctx = { isTime: true, xValues: [0, 10, 20], textColor: '#000', evaluate: evalFormula };
const DAY = 86_400_000;

describe('annotation layers on a time series', () => {
  it('evaluates a formula in x, with or without "y =", and reports one that does not parse', () => {
    expect(evalFormula('y = 2*x + 1', 3)).toBe(7);
    expect(evalFormula('x^2', 4)).toBe(16);
    expect(formulaParses('2*(x+')).toBe(false);
    expect(evalFormula('2*(x+', 1)).toBeNull();
    const { series, legend } = annotationSeries([layer({ name: 'double', value: '2*x' })], {}, ctx);
    expect(legend).toEqual(['double']);
    expect(series[0]).toMatchObject({ name: 'double', type: 'line', data: [[0, 0], [10, 20], [20, 40]] });
  });

  it('draws NATIVE events as mark lines and intervals as mark areas, labelled by short_descr', () => {
    const records = [
      { start_dttm: DAY, end_dttm: 3 * DAY, short_descr: 'Launch', long_descr: 'v1 out', json_metadata: '' },
      { start_dttm: 5 * DAY, end_dttm: 6 * DAY, short_descr: 'Outage', long_descr: '', json_metadata: '' },
    ];
    const data = { releases: { columns: [], records }, outages: { columns: [], records } };
    const layers = [layer({ name: 'releases', annotationType: 'EVENT', sourceType: 'NATIVE', value: 1, color: '#ff0000', style: 'dashed', width: 2 }), layer({ name: 'outages', annotationType: 'INTERVAL', sourceType: 'NATIVE', value: 2 })];
    const { series, legend } = annotationSeries(layers, data, ctx);
    expect(legend).toEqual([]);
    expect(series[0]!.markLine).toMatchObject({ lineStyle: { color: '#ff0000', type: 'dashed', width: 2 }, data: [{ name: 'Launch', xAxis: DAY, description: 'v1 out' }, { name: 'Outage', xAxis: 5 * DAY }] });
    expect(series[1]!.markArea.data).toEqual([
      [{ name: 'Launch', xAxis: DAY, description: 'v1 out' }, { xAxis: 3 * DAY }],
      [{ name: 'Outage', xAxis: 5 * DAY, description: '' }, { xAxis: 6 * DAY }],
    ]);
  });

  it("reads a table chart's rows by the layer's time, end, title and description columns", () => {
    const rows = [{ ds: '2024-01-02T00:00:00', until: '2024-01-04T00:00:00', title: 'Promo', note: 'spring', n: 3 }];
    const l = layer({ name: 'promos', annotationType: 'INTERVAL', sourceType: 'table', value: 9, timeColumn: 'ds', intervalEndColumn: 'until', titleColumn: 'title', descriptionColumns: ['note'] });
    const [area] = annotationSeries([l], { promos: { records: rows } }, ctx).series;
    expect(area!.markArea.data).toEqual([[{ name: 'Promo', xAxis: Date.parse('2024-01-02T00:00:00'), description: 'spring' }, { xAxis: Date.parse('2024-01-04T00:00:00') }]]);
  });

  it("draws a line chart's rows as extra lines: x from its time column, one line per numeric column", () => {
    const T = Date.UTC(2024, 0, 1);
    const rows = [
      { ds: T + DAY, births: 5 },
      { ds: T, births: 4 },
    ];
    const { series, legend } = annotationSeries([layer({ name: 'last year', annotationType: 'TIME_SERIES', sourceType: 'line', value: 4, showMarkers: true })], { 'last year': { records: rows } }, ctx);
    expect(legend).toEqual(['last year']);
    expect(series[0]).toMatchObject({ type: 'line', showSymbol: true, data: [[T, 4], [T + DAY, 5]] });
  });

  it('skips hidden layers, layers without data, and any layer on a category axis', () => {
    const events = layer({ name: 'e', annotationType: 'EVENT', sourceType: 'NATIVE', value: 1 });
    expect(annotationSeries([{ ...events, show: false }], { e: { records: [{ start_dttm: 1 }] } }, ctx).series).toEqual([]);
    expect(annotationSeries([events], {}, ctx).series).toEqual([]);
    expect(annotationSeries([layer({ name: 'f', value: 'x' })], {}, { ...ctx, isTime: false }).series).toEqual([]);
  });

  it("hands the layers and the answer's annotation_data from transformTimeseries to withAnnotations, which joins series and legend", () => {
    const formData = { viz_type: 'echarts_timeseries_line', x_axis: 'ds', metrics: ['count'], annotation_layers: [layer({ name: 'goal', value: '100' }), layer({ name: 'e', annotationType: 'EVENT', sourceType: 'NATIVE', value: 1 })] };
    const queriesData = [{ data: [{ ds: DAY, count: 1 }, { ds: 2 * DAY, count: 3 }], colnames: ['ds', 'count'], coltypes: [2, 0], annotation_data: { e: { records: [{ start_dttm: DAY, short_descr: 'x' }] } } }];
    const { option, annotations } = transformTimeseries({ formData, queriesData, width: 400, height: 300, theme: 'light', datasource: null } as never, 'line');
    expect(option.legend.show).toBe(false);
    expect(annotations).toMatchObject({ xValues: [DAY, 2 * DAY], seriesNames: ['count'], legendAllowed: true });
    const drawn = withAnnotations(option, annotations!, evalFormula);
    expect(drawn.series.map((s: { name: string }) => s.name)).toEqual(['count', 'goal', 'e']);
    expect(drawn.legend).toMatchObject({ show: true, data: ['count', 'goal'] });
    // Before the evaluator has loaded, the formula waits and the events are drawn.
    expect(withAnnotations(option, annotations!, null).series.map((s: { name: string }) => s.name)).toEqual(['count', 'e']);
  });
});
