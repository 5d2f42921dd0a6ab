import { describe, expect, it } from 'vitest';
import { compareNatural } from './natural-order';

describe('compareNatural', () => {
  it('orders digit runs as numbers and text as the locale does, as localeCompare with numeric: true', () => {
    const words = ['item 10', 'item 2', 'Item 1', 'b', 'a', 'x100', 'x20', '', 'éclair', 'eclair'];
    expect([...words].sort(compareNatural)).toEqual([...words].sort((a, b) => a.localeCompare(b, undefined, { numeric: true })));
    expect([...words].sort(compareNatural).slice(0, 5)).toEqual(['', 'a', 'b', 'eclair', 'éclair']);
    expect(['x100', 'x20', 'x3'].sort(compareNatural)).toEqual(['x3', 'x20', 'x100']);
  });
});
