import { describe, expect, it } from 'vitest';
import wordCloud from './index';

describe('word cloud chart type', () => {
  it('groups by the series column, most frequent first, and sizes words in the font range', () => {
    const fd = { viz_type: 'word_cloud', datasource: '1__table', series: 'name', metric: 'count', size_from: 12, size_to: 60, rotation: 'flat' };
    const q = wordCloud.buildQuery(fd).queries[0]!;
    expect(q.columns).toEqual(['name']);
    expect(q.orderby).toEqual([['count', false]]);
    const out = wordCloud.transformProps({ formData: fd, queriesData: [{ data: [{ name: 'Mike', count: 9 }, { name: 'Ann', count: 3 }] } as any], datasource: null, theme: 'light', width: 400, height: 300 });
    expect(out.option.series[0].sizeRange).toEqual([12, 60]);
    expect(out.option.series[0].rotationRange).toEqual([0, 0]);
    // Laid out word by word, each in its own task, so a large cloud never blocks the page.
    expect(out.option.series[0].layoutAnimation).toBe(true);
    expect(out.option.series[0].data.map((d: any) => d.name)).toEqual(['Mike', 'Ann']);
  });

  it('leaves out the smallest words past what the box can hold at the smallest size, never the largest', () => {
    const fd = { viz_type: 'word_cloud', datasource: '1__table', series: 'name', metric: 'count', size_from: 10, size_to: 60 };
    const rows = Array.from({ length: 5000 }, (_, i) => ({ name: `w${i}`, count: i }));
    const out = wordCloud.transformProps({ formData: fd, queriesData: [{ data: rows } as any], datasource: null, theme: 'light', width: 400, height: 300 });
    const names = out.option.series[0].data.map((d: any) => d.name);
    // The ellipse in 96% of 400 × 300 px is π/4 · 384 · 288 ≈ 86,860 px². A 5-letter word at 10 px takes at
    // least (0.3 · 10 · 5 + 6) · (10 + 6) = 336 px², so 258 of them fill it.
    expect(names).toHaveLength(258);
    expect(names[0]).toBe('w4999');
    expect(names).not.toContain('w0');
  });

  it('holds more short words than long ones', async () => {
    const { wordsThatFit } = await import('./transform-props');
    expect(wordsThatFit(Array(1000).fill('Al'), 400, 300, 10)).toBeGreaterThan(wordsThatFit(Array(1000).fill('Alexandra'), 400, 300, 10));
    expect(wordsThatFit(['a', 'b'], 400, 300, 10)).toBe(2);
  });
});
