import { describe, expect, it } from 'vitest';
import wordCloud from './index';
import { ROTATIONS, wordsThatFit } from './transform-props';

describe('word cloud chart type', () => {
  it('groups by the series column, most frequent first, and sizes words in the font range', () => {
    const fd = { viz_type: 'word_cloud', datasource: '1__table', series: 'name', metric: 'count', size_from: 12, size_to: 60, rotation: 'flat' };
    const q = wordCloud.buildQuery(fd).queries[0]!;
    expect(q.columns).toEqual(['name']);
    expect(q.orderby).toEqual([['count', false]]);
    const out = wordCloud.transformProps({ formData: fd, queriesData: [{ data: [{ name: 'Mike', count: 9 }, { name: 'Ann', count: 3 }] } as any], datasource: null, theme: 'light', width: 400, height: 300 });
    expect(out.option.series[0].sizeRange).toEqual([12, 60]);
    expect(out.option.series[0].rotationRange).toEqual([0, 0]);
    expect(out.option.series[0].data.map((d: any) => d.name)).toEqual(['Mike', 'Ann']);
  });

  it("'Sort by metric' unticked leaves the database's order (Superset's buildQuery orders only when it is ticked)", () => {
    const q = (extra: object) => wordCloud.buildQuery({ viz_type: 'word_cloud', datasource: '1__table', series: 'name', metric: 'count', ...extra }).queries[0]!;
    expect(q({ sort_by_metric: true }).orderby).toEqual([['count', false]]);
    expect(q({ sort_by_metric: false }).orderby).toEqual([]);
  });

  it('gives each word a whole-pixel size, its value mapped linearly onto the font range', () => {
    const fd = { viz_type: 'word_cloud', datasource: '1__table', series: 'name', metric: 'count', size_from: 10, size_to: 70 };
    const rows = [{ name: 'a', count: 100 }, { name: 'b', count: 55 }, { name: 'c', count: 33 }, { name: 'd', count: 1 }];
    const out = wordCloud.transformProps({ formData: fd, queriesData: [{ data: rows } as any], datasource: null, theme: 'light', width: 800, height: 600 });
    // 10 + (v - 1) / 99 · 60: 70, 42.7, 29.4 and 10 px.
    expect(out.option.series[0].data.map((d: any) => d.textStyle.fontSize)).toEqual([70, 43, 29, 10]);
    const one = wordCloud.transformProps({ formData: fd, queriesData: [{ data: rows.slice(0, 1) } as any], datasource: null, theme: 'light', width: 800, height: 600 });
    expect(one.option.series[0].data[0].textStyle.fontSize).toBe(40);
  });

  it('lays every cloud out without the word-by-word animation, large or small (its words are placed in tasks of ~40 ms)', () => {
    const fd = { viz_type: 'word_cloud', datasource: '1__table', series: 'name', metric: 'count', size_from: 10, size_to: 30 };
    for (const length of [2, 5000]) {
      const rows = Array.from({ length }, (_, i) => ({ name: `w${i}`, count: i }));
      const out = wordCloud.transformProps({ formData: fd, queriesData: [{ data: rows } as any], datasource: null, theme: 'light', width: 1600, height: 1000 });
      expect(out.option.series[0].layoutAnimation).toBe(false);
    }
  });

  it('leaves out the smallest words past what the box can hold at the sizes they would get, never the largest', () => {
    const fd = { viz_type: 'word_cloud', datasource: '1__table', series: 'name', metric: 'count', size_from: 10, size_to: 60 };
    const rows = Array.from({ length: 5000 }, (_, i) => ({ name: `w${i}`, count: i }));
    const out = wordCloud.transformProps({ formData: fd, queriesData: [{ data: rows } as any], datasource: null, theme: 'light', width: 400, height: 300 });
    const names: string[] = out.option.series[0].data.map((d: any) => d.name);
    expect(names[0]).toBe('w4999');
    expect(names).not.toContain('w0');
    // The ellipse in 96% of 400 × 300 px is π/4 · 384 · 288 ≈ 86,860 px². Kept: the words' estimated room
    // (0.3 em a letter plus a 6 px cell, at the size each gets between 10 and 60 px) fits it; one more does not.
    const room = (Math.PI / 4) * 384 * 288;
    const used = (count: number) => {
      const max = 4999;
      const min = 4999 - (count - 1);
      return Array.from({ length: count }, (_, i) => {
        const size = 10 + ((4999 - i - min) / (max - min)) * 50;
        return (0.3 * size * String(4999 - i).length + 0.3 * size + 6) * (size + 6);
      }).reduce((a, b) => a + b, 0);
    };
    expect(used(names.length)).toBeLessThanOrEqual(room);
    expect(used(names.length + 1)).toBeGreaterThan(room);
  });

  it('holds more short words than long ones, and every word when few', () => {
    const many = (name: string) => Array.from({ length: 1000 }, (_, i) => ({ name, value: 1000 - i }));
    expect(wordsThatFit(many('Al'), 400, 300, 10, 40)).toBeGreaterThan(wordsThatFit(many('Alexandra'), 400, 300, 10, 40));
    expect(wordsThatFit([{ name: 'a', value: 2 }, { name: 'b', value: 1 }], 400, 300, 10, 70)).toBe(2);
    // Large words leave room for fewer.
    expect(wordsThatFit(many('Anna'), 400, 300, 10, 80)).toBeLessThan(wordsThatFit(many('Anna'), 400, 300, 10, 20));
  });

  it("turns words as Superset's rotations do: square 0° or 90° clockwise, random by multiples of 30° (ECharts counts anticlockwise)", () => {
    // Superset: square () => Math.floor(Math.random() * 2) * 90; random () => Math.floor(Math.random() * 6 - 3) * 30 (clockwise).
    const angles = ([least, most, step]: [number, number, number]) => (step ? Array.from({ length: (most - least) / step + 1 }, (_, i) => least + i * step) : [least]);
    expect(angles(ROTATIONS.square!).map((a) => 0 - a || 0).sort((a, b) => a - b)).toEqual([0, 90]);
    expect(angles(ROTATIONS.random!).map((a) => 0 - a || 0).sort((a, b) => a - b)).toEqual([-90, -60, -30, 0, 30, 60]);
    expect(angles(ROTATIONS.flat!)).toEqual([0]);
    const fd = { viz_type: 'word_cloud', series: 'name', metric: 'count' };
    const out = wordCloud.transformProps({ formData: fd, queriesData: [{ data: [{ name: 'Mike', count: 9 }] } as any], datasource: null, theme: 'light', width: 400, height: 300 });
    expect([out.option.series[0].rotationRange, out.option.series[0].rotationStep]).toEqual([[-90, 0], 90]);
  });
});
