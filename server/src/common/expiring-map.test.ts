import { describe, expect, it } from 'vitest';
import { ExpiringMap } from './expiring-map';

describe('ExpiringMap', () => {
  it('answers a key only until its own expiry, and empties itself when full', () => {
    const map = new ExpiringMap<string, number>(2);
    map.set('a', 1, 1_000);
    map.set('b', 2, 2_000);
    expect(map.get('a', 999)).toBe(1);
    expect(map.get('a', 1_000)).toBeUndefined();
    expect(map.get('b', 1_500)).toBe(2);
    map.set('b', 3, 2_000); // replacing a key is not growth
    expect(map.get('a', 0)).toBe(1);
    map.set('c', 4, 3_000);
    expect(map.get('a', 0)).toBeUndefined();
    expect(map.get('c', 0)).toBe(4);
  });
});
