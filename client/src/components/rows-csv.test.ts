import { LosslessNumber } from 'lossless-json';
import { describe, expect, it } from 'vitest';
import { rowsCsvRecords } from './rows-csv';

describe('rows as CSV records (the data panes\' CSV download)', () => {
  it('puts the column names first, then every row in column order', () => {
    expect(rowsCsvRecords(['name', 'num'], [1, 0], [{ num: 3, name: 'Aaron' }, { name: 'Abby', num: 5 }])).toEqual([
      ['name', 'num'],
      ['Aaron', '3'],
      ['Abby', '5'],
    ]);
  });

  it('reads a temporal column as a date-time, as the pane shows it, and keeps every digit of a big integer', () => {
    expect(rowsCsvRecords(['ds', 'id'], [2, 0], [{ ds: 1099267200000, id: new LosslessNumber('9007199254740993') }])).toEqual([
      ['ds', 'id'],
      ['2004-11-01 00:00:00', '9007199254740993'],
    ]);
  });

  it('leaves a null cell empty (not the grid\'s NULL)', () => {
    expect(rowsCsvRecords(['a'], undefined, [{ a: null }, {}])).toEqual([['a'], [''], ['']]);
  });
});
