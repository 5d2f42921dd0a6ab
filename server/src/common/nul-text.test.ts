import { describe, expect, it } from 'vitest';
import { Invalid } from '../errors/domain-errors';
import { NUL_TEXT, nulTextPaths, refuseNulText } from './nul-text';

describe('NUL characters in input text', () => {
  it('finds them at any depth, by path', () => {
    expect(nulTextPaths({ a: 'ok', b: ['x', 'y\0'], c: { d: '\0' }, e: 1, f: null })).toEqual(['b.1', 'c.d']);
    expect(nulTextPaths('a\0')).toEqual(['']);
    expect(nulTextPaths({ a: 'fine', b: [1, { c: 'also fine' }] })).toEqual([]);
  });

  it('refuses them with the field map', () => {
    expect(() => refuseNulText({ slice_name: 'a\0b' })).toThrow(Invalid);
    try {
      refuseNulText({ slice_name: 'a\0b' });
    } catch (error) {
      expect((error as Invalid).fields).toEqual({ slice_name: [NUL_TEXT] });
    }
    expect(() => refuseNulText({ slice_name: 'ab' })).not.toThrow();
  });
});
