import * as echarts from 'echarts';
import { describe, expect, it } from 'vitest';
import { labelWidth } from '../shared/label-room';
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
    expect(series.label.formatter({ name: 'boy', value: 3000, percent: 75 })).toBe('boy: 3,000 (75.00%)');
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
    // its line leave 123px of 185 (half the 370px the legend's band leaves of the height); at 70% its 'Small' ran off
    // the left edge.
    expect(radius(423, 'Medium')).toBe('66%');
    // With ECharts' own line (from 480px) the room is counted the same way: 900px, a 90px label, leaves 300px of 185.
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

describe("pie: Superset's options", () => {
  const births = [
    { gender: 'boy', sum__num: 900 },
    { gender: 'girl', sum__num: 60 },
    { gender: 'other', sum__num: 30 },
    { gender: 'unknown', sum__num: 10 },
  ];
  const draw = (patch: Record<string, unknown> = {}, data: Array<Record<string, unknown>> = births, extra: Record<string, unknown> = {}) =>
    pie.transformProps({ formData: { viz_type: 'pie', groupby: ['gender'], metric: 'sum__num', ...patch }, datasource: null, theme: 'light', width: 600, height: 400, queriesData: [{ data, ...extra } as any] });
  /** The texts ECharts itself draws (server-side SVG). */
  const drawnTexts = (option: Record<string, unknown>) => {
    const chart = echarts.init(null, null, { renderer: 'svg', ssr: true, width: 600, height: 400 });
    chart.setOption(option);
    const texts = [...chart.renderToSVGString().matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((m) => m[1]);
    chart.dispose();
    return texts;
  };

  it('draws outside labels without an outline on the dark theme (ECharts outlined them in a dark halo)', () => {
    const labelTags = (theme: 'light' | 'dark') => {
      const chart = echarts.init(null, theme === 'dark' ? 'dark' : null, { renderer: 'svg', ssr: true, width: 600, height: 400 });
      chart.setOption(pie.transformProps({ formData: { viz_type: 'pie', groupby: ['gender'], metric: 'sum__num', show_legend: false }, datasource: null, theme, width: 600, height: 400, queriesData: [{ data: births } as any] }).option);
      const tags = [...chart.renderToSVGString().matchAll(/<text[^>]*>(boy|girl)<\/text>/g)].map((m) => m[0]);
      chart.dispose();
      return tags;
    };
    for (const theme of ['dark', 'light'] as const) {
      const tags = labelTags(theme);
      expect(tags).toHaveLength(2);
      for (const tag of tags) expect(tag).not.toMatch(/stroke=/);
    }
  });

  it("'Percentage threshold' (5 unless set) leaves the labels off slices under that share, as Superset's minShowLabelAngle", () => {
    expect(draw().option.series[0].minShowLabelAngle).toBe(18);
    // Stored as the text box holds it; emptied, no threshold (Superset's `(showLabelsThreshold || 0) * 3.6`).
    expect([draw({ show_labels_threshold: '10' }).option.series[0].minShowLabelAngle, draw({ show_labels_threshold: null }).option.series[0].minShowLabelAngle]).toEqual([36, 0]);
    // 'other' is 3% and 'unknown' 1% of the births: no labels at 5%; all four at 0.
    const at5 = drawnTexts({ ...draw({ show_legend: false }).option });
    expect(['boy', 'girl', 'other', 'unknown'].map((g) => at5.includes(g))).toEqual([true, true, false, false]);
    const at0 = drawnTexts({ ...draw({ show_legend: false, show_labels_threshold: '0' }).option });
    expect(['boy', 'girl', 'other', 'unknown'].map((g) => at0.includes(g))).toEqual([true, true, true, true]);
  });

  it("'Threshold for Other' gathers the slices under it into a grey 'Other', whose tooltip lists them and their total", () => {
    const out = draw({ threshold_for_other: 5 });
    const data = out.option.series[0].data;
    expect(data.map((d: any) => [d.name, d.value])).toEqual([['boy', 900], ['girl', 60], ['Other', 40]]);
    expect(data[2].itemStyle.color).toBe('#6b7280');
    // 'Other' selects nothing: it is not one group-by value.
    expect(out.sliceGroups).toEqual({ boy: ['boy'], girl: ['girl'] });
    const tip = out.option.tooltip.formatter({ name: 'Other', value: 40, percent: 4, data: data[2] });
    expect(tip).toBe('other: 30 (3.00%)<br/>unknown: 10 (1.00%)<br/>Total: 40 (4.00%)');
    expect(draw().option.series[0].data).toHaveLength(4);
  });

  it("reads the label types Superset offers, 'Value and Percentage' and a 'Template' among them", () => {
    const label = (patch: Record<string, unknown>) => draw(patch).option.series[0].label.formatter({ name: 'girl', value: 60, percent: 6, seriesName: 'series0' });
    expect(label({ label_type: 'value_percent' })).toBe('60 (6.00%)');
    expect(label({ label_type: 'template', label_template: '{name}: {value}\\n{percent} of {a} ({c}, {d})' })).toBe('girl: 60\n6.00% of series0 (60, 6)');
    expect(label({ label_type: 'template' })).toBe('');
  });

  it("draws 'Rose Type' as a Nightingale chart, and the label lines only when asked ('Label Line' is off by default)", () => {
    expect([draw({ roseType: 'area' }).option.series[0].roseType, draw({}).option.series[0].roseType]).toEqual(['area', undefined]);
    expect(draw({}).option.series[0].labelLine.show).toBe(false);
    expect(draw({ label_line: true }).option.series[0].labelLine.show).toBe(true);
    expect(draw({ label_line: true, labels_outside: false }).option.series[0].labelLine.show).toBe(false);
  });

  it("places the legend where asked, plain or scrolling, and keeps the pie out of its room, 'Margin' added", () => {
    const right = draw({ legendOrientation: 'right', legendType: 'plain', legendMargin: 20 }).option;
    expect([right.legend.orient, right.legend.right, right.legend.type]).toEqual(['vertical', 0, 'plain']);
    // The widest name ('unknown', estimated as label-room does) and the symbol, and the margin.
    expect(right.series[0].right).toBeCloseTo(labelWidth('unknown') + 48 + 20, 6);
    expect(right.series[0].top).toBe(0);
    const bottom = draw({ legendOrientation: 'bottom' }).option.series[0];
    expect([bottom.bottom, bottom.top]).toEqual([30, 0]);
    expect(draw({ show_legend: false }).option.series[0]).toMatchObject({ top: 0, bottom: 0, left: 0, right: 0 });
  });

  it("names a time group-by's slices in 'Date format' (Superset's adaptive date unless set)", () => {
    const rows = [{ ds: Date.UTC(2004, 0, 1), sum__num: 3 }, { ds: Date.UTC(2005, 0, 1), sum__num: 1 }];
    const names = (patch: Record<string, unknown>) => draw({ groupby: ['ds'], ...patch }, rows, { colnames: ['ds', 'sum__num'], coltypes: [2, 0] }).option.series[0].data.map((d: any) => d.name);
    expect(names({})).toEqual(['2004', '2005']);
    expect(names({ date_format: '%Y-%m-%d' })).toEqual(['2004-01-01', '2005-01-01']);
  });

  it("writes the total in the donut's hole, and above a whole pie rather than over its slices", () => {
    const total = (patch: Record<string, unknown>) => draw({ show_total: true, ...patch }).option.graphic[0];
    expect(total({ donut: true })).toMatchObject({ x: 300, y: 30 + 185, style: { text: 'Total: 1k', align: 'center', verticalAlign: 'middle' } });
    expect(total({})).toMatchObject({ x: 300, y: 30, style: { align: 'center', verticalAlign: 'top' } });
    // Beside a legend on the right, in the middle of the pie's own box.
    expect(total({ donut: true, legendOrientation: 'right' }).x).toBeCloseTo((600 - (labelWidth('unknown') + 48)) / 2, 6);
  });

  it("shows a row limit of 100, the label options only with labels, and the template only for 'Template'", () => {
    const controls = pie.controlPanel.sections.flatMap((s) => s.controlSetRows.flat()) as any[];
    const find = (name: string) => controls.find((c) => (typeof c === 'string' ? c : c.name) === name);
    expect(find('row_limit').override.default).toBe(100);
    const ctx = (formData: Record<string, unknown>) => ({ formData: { viz_type: 'pie', ...formData }, datasource: null });
    expect([find('labels_outside').visibility(ctx({})), find('label_line').visibility(ctx({ show_labels: false }))]).toEqual([true, false]);
    expect([find('label_template').visibility(ctx({ label_type: 'template' })), find('label_template').visibility(ctx({}))]).toEqual([true, false]);
    expect([find('show_labels_threshold').default, find('label_line').default]).toEqual([5, false]);
  });
});

describe("pie: 'Currency format'", () => {
  it('puts the symbol on the values of the labels, the tooltip and the total, not on the percentages', () => {
    const out = pie.transformProps({ formData: { ...fd, show_total: true, currency_format: { symbol: 'USD', symbolPosition: 'prefix' } }, datasource: null, theme: 'light', width: 400, height: 300, queriesData: [{ data: [{ gender: 'boy', sum__num: 3000 }, { gender: 'girl', sum__num: 1000 }] } as any] });
    expect(out.option.series[0].label.formatter({ name: 'boy', value: 3000, percent: 75 })).toBe('boy: $ 3,000 (75.00%)');
    expect(out.option.tooltip.formatter({ name: 'boy', value: 3000, percent: 75 })).toBe('boy: $ 3,000 (75.00%)');
    expect(JSON.stringify(out.option.graphic)).toContain('Total: $ 4,000');
  });
});
