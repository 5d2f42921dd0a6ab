import { GenericDataType } from '@meridian/contracts/rules/constants';
import { LosslessNumber } from 'lossless-json';
import { describe, expect, it } from 'vitest';
import { cellText } from './cell-text';
import { chartRowCount, rowCountText } from './row-count';

describe('cellText', () => {
  it('shows a temporal column’s epoch milliseconds as Superset’s database date-time (UTC)', () => {
    expect(cellText(1099267200000, GenericDataType.TEMPORAL)).toBe('2004-11-01 00:00:00');
    expect(cellText(-157766400000, GenericDataType.TEMPORAL)).toBe('1965-01-01 00:00:00');
    expect(cellText(Date.UTC(2019, 0, 14, 1, 32, 10), GenericDataType.TEMPORAL)).toBe('2019-01-14 01:32:10');
    expect(cellText(new LosslessNumber('1041379200000'), GenericDataType.TEMPORAL)).toBe('2003-01-01 00:00:00');
  });

  it('leaves numbers of other columns, text dates and nulls as they came', () => {
    expect(cellText(1099267200000)).toBe('1099267200000');
    expect(cellText(1099267200000, GenericDataType.NUMERIC)).toBe('1099267200000');
    expect(cellText('2004-11-01', GenericDataType.TEMPORAL)).toBe('2004-11-01');
    expect(cellText(null, GenericDataType.TEMPORAL)).toBe('NULL');
    expect(cellText(new LosslessNumber('9007199254740993'))).toBe('9007199254740993');
  });
});

describe('rowCountText', () => {
  it("reads '1 row' for one and separates thousands", () => {
    expect(rowCountText(1)).toBe('1 row');
    expect(rowCountText(0)).toBe('0 rows');
    expect(rowCountText(1000000)).toBe('1,000,000 rows');
  });
});

describe('chartRowCount', () => {
  it("counts a server-paginated table's rows from its is_rowcount query (Superset's ChartPills: 'check second query for total count'), not the page", () => {
    const answer = [{ rowcount: 10, data: [] }, { rowcount: 1, data: [{ rowcount: 95 }] }, { rowcount: 1, data: [{ sum__num: 3 }] }];
    expect(chartRowCount({ viz_type: 'table', server_pagination: true }, answer)).toBe(95);
    // Without server pagination the second query is the summary: the first query's rows are the count.
    expect(chartRowCount({ viz_type: 'table' }, answer)).toBe(10);
    expect(chartRowCount({ viz_type: 'pie', server_pagination: true }, answer)).toBe(10);
    expect(chartRowCount({ viz_type: 'table', server_pagination: true }, [])).toBe(0);
  });
});
