import * as echarts from 'echarts';
import { describe, expect, it } from 'vitest';
import pie from './index';

const fd = { viz_type: 'pie', datasource: '3__table', groupby: ['gender'], metric: 'sum__num', row_limit: 10, label_type: 'key_value_percent', number_format: ',d' };

describe('pie chart type', () => {
  it('queries the metric per group, largest first', () => {
    const q = pie.buildQuery(fd).queries[0]!;
    expect(q.columns).toEqual(['gender']);
    expect(q.metrics).toEqual(['sum__num']);
    expect(q.orderby).toEqual([['sum__num', false]]);
    expect(q.row_limit).toBe(10);
  });

  it('makes one slice per row, labelled by the chosen label type', () => {
    const out = pie.transformProps({ formData: fd, datasource: null, theme: 'light', width: 400, height: 300, queriesData: [{ data: [{ gender: 'boy', sum__num: 3000 }, { gender: 'girl', sum__num: 1000 }] } as any] });
    const series = out.option.series[0];
    expect(series.data.map((d: any) => [d.name, d.value])).toEqual([['boy', 3000], ['girl', 1000]]);
    expect(series.label.formatter({ name: 'boy', value: 3000, percent: 75 })).toBe('boy: 3,000 (75.0%)');
    expect(out.sliceGroups).toEqual({ boy: ['boy'], girl: ['girl'] });
  });

  it("keeps the slice of its own cross-filter drawn in full and pulled out, and fades the others, until the cross-filter goes", () => {
    const slices = (filterState?: { selectedValues?: unknown }) =>
      pie.transformProps({ formData: fd, datasource: null, theme: 'light', width: 400, height: 300, filterState, queriesData: [{ data: [{ gender: 'boy', sum__num: 3000 }, { gender: 'girl', sum__num: 1000 }] } as any] }).option.series[0];
    const selected = slices({ selectedValues: ['girl'] });
    expect(selected.data.map((d: any) => [d.name, d.itemStyle.opacity, !!d.selected])).toEqual([['boy', 0.3, false], ['girl', 1, true]]);
    expect(selected.selectedMode).toBe('single');
    const plain = slices({});
    expect(plain.data.map((d: any) => [d.itemStyle.opacity, !!d.selected])).toEqual([[undefined, false], [undefined, false]]);
    expect(plain.selectedMode).toBe(false);
  });

  it('shrinks the pie in a narrow cell so outside labels keep room (the label line and the longest label), and not in a wide one', () => {
    const radius = (width: number, name = 'a') =>
      pie.transformProps({ formData: { viz_type: 'pie', groupby: ['g'], metric: 'm' }, queriesData: [{ data: [{ g: name, m: 1 }] } as any], datasource: null, theme: 'light', width, height: 400 }).option.series[0].radius[1];
    expect(radius(900)).toBe('70%');
    // 300px: 150 - 37 (the narrow cell's shorter line and ECharts' gaps) - 7.5 ('a') leaves 105px of 150: room enough.
    expect(radius(300)).toBe('70%');
    // As wide as the sales dashboard's 'Deal size' at a wide window (423px): 'Medium' (51px estimated, 48px drawn) and
    // its line leave 123px of 200; at 70% its 'Small' ran off the left edge.
    expect(radius(423, 'Medium')).toBe('61%');
    // With ECharts' own line (from 480px) the room is counted the same way: 900px, a 90px label, leaves 300px of 200.
    expect(radius(900, 'a rather long category name')).toBe('70%');
    // A long label keeps at most 90px; the pie goes no smaller than 35%.
    expect(radius(300, 'a rather long category name')).toBe('35%');
  });

  it('keeps short outside labels whole in a narrow cell and truncates only what is longer than the room beside the pie', () => {
    const rows = [{ gender: 'boy', sum__num: 17_000_000 }, { gender: 'girl', sum__num: 12_500_000 }, { gender: 'a rather long category name', sum__num: 3_000_000 }];
    const out = pie.transformProps({ formData: { viz_type: 'pie', groupby: ['gender'], metric: 'sum__num', donut: true, show_legend: false }, datasource: null, theme: 'light', width: 294, height: 360, queriesData: [{ data: rows } as any] });
    // Drawn by ECharts itself (server-side SVG): before, with its own label room, 'boy' and 'girl' read '...'.
    const chart = echarts.init(null, null, { renderer: 'svg', ssr: true, width: 294, height: 360 });
    chart.setOption(out.option);
    const texts = [...chart.renderToSVGString().matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((m) => m[1]);
    chart.dispose();
    expect(texts).toContain('boy');
    expect(texts).toContain('girl');
    expect(texts.some((t) => t!.startsWith('a r') && t!.endsWith('...'))).toBe(true);
  });

  it("keeps 'Medium' whole in the sales dashboard's 'Deal size' cell (297px by 360px at a 1280px window): the room given is the room ECharts leaves", () => {
    const rows = [{ deal_size: 'Medium', sales: 980_000 }, { deal_size: 'Small', sales: 520_000 }, { deal_size: 'Large', sales: 320_000 }];
    const [width, height] = [297, 360];
    const series = pie.transformProps({ formData: { viz_type: 'pie', groupby: ['deal_size'], metric: 'sales', donut: true }, datasource: null, theme: 'light', width, height, queriesData: [{ data: rows } as any] }).option.series[0];
    const radius = (Number.parseFloat(series.radius[1]) / 100) * (Math.min(width, height) / 2);
    // ECharts places a level label's text at the radius + the line (out, then along) + 5px (distanceToLabelLine), and
    // truncates it 10px (bleedMargin) short of the edge.
    const echartsRoom = width / 2 - radius - series.labelLine.length - series.labelLine.length2 - 5 - 10;
    expect(series.label.width).toBeLessThanOrEqual(echartsRoom);
    // 'Medium' in the charts' 12px font stack (DejaVu Sans here), measured in Chromium: 48.0px. It read 'Medi…' with
    // the room counted short (the line) and the label estimated short (45px).
    expect(echartsRoom).toBeGreaterThanOrEqual(48);
  });
});

describe("pie: 'Currency format'", () => {
  it('puts the symbol on the values of the labels, the tooltip and the total, not on the percentages', () => {
    const out = pie.transformProps({ formData: { ...fd, show_total: true, currency_format: { symbol: 'USD', symbolPosition: 'prefix' } }, datasource: null, theme: 'light', width: 400, height: 300, queriesData: [{ data: [{ gender: 'boy', sum__num: 3000 }, { gender: 'girl', sum__num: 1000 }] } as any] });
    expect(out.option.series[0].label.formatter({ name: 'boy', value: 3000, percent: 75 })).toBe('boy: $ 3,000 (75.0%)');
    expect(out.option.tooltip.formatter({ name: 'boy', value: 3000, percent: 75 })).toBe('boy: $ 3,000 (75.0%)');
    expect(JSON.stringify(out.option.graphic)).toContain('Total: $ 4,000');
  });
});
