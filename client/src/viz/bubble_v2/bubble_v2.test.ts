import { describe, expect, it } from 'vitest';
import bubble from './index';

describe('bubble chart type', () => {
  it('queries x, y and size per entity and series, largest first', () => {
    const q = bubble.buildQuery({ viz_type: 'bubble_v2', datasource: '1__table', entity: 'name', series: 'gender', x: 'a', y: 'b', size: 'c' }).queries[0]!;
    expect(q.columns).toEqual(['name', 'gender']);
    expect(q.metrics).toEqual(['a', 'b', 'c']);
    expect(q.orderby).toEqual([['c', false]]);
  });

  it('sizes bubbles by the square root of the size metric up to the max bubble size', () => {
    const rows = [
      { name: 'A', gender: 'boy', a: 1, b: 2, c: 100 },
      { name: 'B', gender: 'girl', a: 3, b: 4, c: 25 },
    ];
    const out = bubble.transformProps({ formData: { viz_type: 'bubble_v2', entity: 'name', series: 'gender', x: 'a', y: 'b', size: 'c', max_bubble_size: 25 }, queriesData: [{ data: rows } as any], datasource: null, theme: 'light', width: 400, height: 300 });
    const [boys, girls] = out.option.series;
    expect(boys.data[0]).toMatchObject({ name: 'A', value: [1, 2, 100], symbolSize: 50 });
    expect(girls.data[0].symbolSize).toBe(25);
  });
});
