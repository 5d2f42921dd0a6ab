/**
 * The lowest and highest of the numbers (nulls skipped), in one pass without spreading them into Math.min/max,
 * which overflows the call's arguments for a large answer; `empty` when there are none.
 */
export function extent(values: Iterable<number | null>, empty: [number, number]): [number, number] {
  let min = Infinity;
  let max = -Infinity;
  for (const v of values) {
    if (v === null) continue;
    if (v < min) min = v;
    if (v > max) max = v;
  }
  return min > max ? empty : [min, max];
}
