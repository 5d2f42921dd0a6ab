import { toNumber } from './metrics';

/**
 * [min, max] as a BoundsControl stores them ('X Axis Bounds', 'Y Axis Bounds', 'Value bounds'); an empty side (null,
 * '', not a number), or no bounds at all, reads as null: that end is left to the data.
 *
 * @example axisBounds([0, '']) // [0, null]
 */
export function axisBounds(value: unknown): [number | null, number | null] {
  return Array.isArray(value) ? [toNumber(value[0]), toNumber(value[1])] : [null, null];
}
