// big_ids: BIGINT identifiers beyond JavaScript's safe-integer range (2^53), for checking that
// values survive the whole pipeline (drivers, JSON serialization, filters) without rounding.

import type { GeneratedTable } from './model';

export const BIG_IDS: readonly (readonly [bigint, string])[] = [
  [1n, 'one'],
  [42n, 'small'],
  [9007199254740991n, '2^53 - 1 (MAX_SAFE_INTEGER)'],
  [9007199254740992n, '2^53'],
  [9007199254740993n, '2^53 + 1 (first integer a double cannot represent)'],
  [9007199254740995n, '2^53 + 3'],
  [9007199254741001n, '2^53 + 9'],
  [12345678901234567n, 'seventeen digits'],
  [1152921504606846977n, '2^60 + 1'],
  [4611686018427387903n, '2^62 - 1'],
  [9223372036854775806n, '2^63 - 2'],
  [9223372036854775807n, '2^63 - 1 (BIGINT max)'],
  [-9007199254740993n, '-(2^53 + 1)'],
  [-9223372036854775808n, '-2^63 (BIGINT min)'],
];

export function generateBigIds(): GeneratedTable {
  return {
    name: 'big_ids',
    columns: [
      { name: 'id', type: 'BIGINT' },
      { name: 'label', type: 'VARCHAR' },
    ],
    rows: BIG_IDS.map(([id, label]) => [id, label]),
  };
}
