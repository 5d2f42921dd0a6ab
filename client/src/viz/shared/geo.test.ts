import { describe, expect, it } from 'vitest';
import { unwrapAntimeridian } from './geo';
import { usStateCode } from './geo-codes';

describe('map shapes', () => {
  it('continues a ring that crosses the antimeridian past 180° instead of joining it across the map', () => {
    const fiji = { type: 'Polygon', coordinates: [[[179, -16], [-179.5, -16.5], [-179.9, -17], [179, -16]]] };
    expect(unwrapAntimeridian(fiji)).toEqual([[[179, -16], [180.5, -16.5], [180.1, -17], [179, -16]]]);
    const france = { type: 'MultiPolygon', coordinates: [[[[2, 48], [3, 49], [2, 48]]]] };
    expect(unwrapAntimeridian(france)).toEqual(france.coordinates);
  });

  it('reads US states written as postal codes, ISO 3166-2 or names', () => {
    expect(['CA', 'us-ny', 'Texas', 'other'].map(usStateCode)).toEqual(['CA', 'NY', 'TX', null]);
  });
});
