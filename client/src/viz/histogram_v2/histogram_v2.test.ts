import { describe, expect, it } from 'vitest';
import histogram from './index';
import { binLabel } from './transform-props';
import { resolveControl } from '../shared/controls';

describe('histogram chart type', () => {
  it('queries the raw column and asks the server to bin it', () => {
    const q = histogram.buildQuery({ viz_type: 'histogram_v2', datasource: '1__table', column: 'num', groupby: ['gender'], bins: 10, normalize: true }).queries[0] as any;
    expect(q.columns).toEqual(['num', 'gender']);
    expect(q.metrics).toEqual([]);
    expect(q.post_processing).toEqual([{ operation: 'histogram', options: { column: 'num', groupby: ['gender'], bins: 10, normalize: true, cumulative: false } }]);
  });

  it('draws one bar series per group over the bin labels', () => {
    const data = [{ gender: 'boy', '0.0 - 5.0': 3, '5.0 - 10.0': 1 }, { gender: 'girl', '0.0 - 5.0': 2, '5.0 - 10.0': 4 }];
    const out = histogram.transformProps({ formData: { viz_type: 'histogram_v2', column: 'num', groupby: ['gender'] }, queriesData: [{ data, colnames: ['gender', '0.0 - 5.0', '5.0 - 10.0'] } as any], datasource: null, theme: 'light', width: 400, height: 300 });
    expect(out.option.xAxis.data).toEqual(['0 – 5', '5 – 10']);
    expect(out.option.series.map((s: any) => [s.name, s.data])).toEqual([['boy', [3, 1]], ['girl', [2, 4]]]);
  });

  it('labels bins by their edges, formatted', () => {
    expect(binLabel('64.71180000000001 - 69.54910000000001', (n) => n.toFixed(1))).toBe('64.7 – 69.5');
    expect(binLabel('-3 - 1e+21', String)).toBe('-3 – 1e+21');
    expect(binLabel('NULL', String)).toBe('NULL');
  });
});

describe("histogram: Superset's controls", () => {
  const control = (name: string) => histogram.controlPanel.sections.flatMap((s) => s.controlSetRows.flat()).map(resolveControl).find((c) => c.name === name)!;

  it("offers 'X Axis Format' for the bins' edges, and 'Bins' must be a whole number", () => {
    expect(control('x_axis_format')).toMatchObject({ type: 'NumberFormatControl', label: 'X Axis Format', default: 'SMART_NUMBER', renderTrigger: true });
    const bins = control('bins');
    const ctx = { formData: { viz_type: 'histogram_v2' }, datasource: null };
    expect(bins.validators!.map((v) => v('12', ctx))).toEqual([false]);
    expect(bins.validators!.map((v) => v('2.5', ctx))).toEqual(['Bins is expected to be an integer']);
  });

  it("formats the bins' edges with 'X Axis Format'", () => {
    const out = histogram.transformProps({ formData: { viz_type: 'histogram_v2', column: 'v', x_axis_format: ',.1f' }, queriesData: [{ data: [{ '1.234 - 2.5': 3 }], colnames: ['1.234 - 2.5'] } as any], datasource: null, theme: 'light', width: 400, height: 300 });
    expect(out.option.xAxis.data).toEqual(['1.2 – 2.5']);
  });
});
