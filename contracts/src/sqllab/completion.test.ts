import { describe, expect, it } from 'vitest';
import { COMPLETION_KIND_SCORE, rankCompletions, referencedTableNames, type CompletionKind } from './completion';

const w = (caption: string, kind: CompletionKind) => ({ caption, kind });
const captions = (list: { caption: string }[]) => list.map((x) => x.caption);

describe('autocomplete ranking', () => {
  it('tables and columns come first, then functions, then keywords', () => {
    const words = [w('NULLS LAST', 'keyword'), w('NULLIF', 'function'), w('nulls_report', 'table'), w('null_count', 'column')];
    expect(captions(rankCompletions(words, 'nul'))).toEqual(['null_count', 'nulls_report', 'NULLIF', 'NULLS LAST']);
    expect(COMPLETION_KIND_SCORE.table).toBeGreaterThan(COMPLETION_KIND_SCORE.function);
    expect(COMPLETION_KIND_SCORE.function).toBeGreaterThan(COMPLETION_KIND_SCORE.keyword);
  });

  it('a keyword such as NULLS LAST never outranks a matching table name', () => {
    const words = [w('NULLS LAST', 'keyword'), w('last_orders', 'table')];
    expect(captions(rankCompletions(words, 'last'))).toEqual(['last_orders', 'NULLS LAST']);
    expect(captions(rankCompletions([w('NULLS LAST', 'keyword'), w('numbers', 'table')], 'nu'))).toEqual(['numbers', 'NULLS LAST']);
  });

  it('words that start with the typed text come before words that only contain it, as the popup orders them', () => {
    const words = [w('order_count', 'column'), w('ORDER BY', 'keyword'), w('reorder_level', 'column')];
    expect(captions(rankCompletions(words, 'order'))).toEqual(['order_count', 'ORDER BY', 'reorder_level']);
  });

  it('matches ignoring case and drops words that do not contain the text', () => {
    expect(captions(rankCompletions([w('Country', 'column'), w('city', 'column'), w('COUNT', 'function')], 'COU'))).toEqual(['Country', 'COUNT']);
  });

  it('among words that only contain the text, a match far into a column name still outranks a keyword', () => {
    const long = `${'x'.repeat(200)}sales`;
    expect(captions(rankCompletions([w('xsales', 'keyword'), w(long, 'column')], 'sales'))).toEqual([long, 'xsales']);
  });
});

describe('tables named in a statement', () => {
  it('finds tables after FROM and JOIN, unquoted and without schema, once each', () => {
    expect(referencedTableNames('SELECT  FROM main."Sales" s JOIN regions r ON s.id = r.id JOIN regions x ON 1=1')).toEqual(['Sales', 'regions']);
  });

  it('finds a table after UPDATE and INSERT INTO, and none in a statement without one', () => {
    expect(referencedTableNames('UPDATE `orders` SET x = 1')).toEqual(['orders']);
    expect(referencedTableNames('insert into main.t1 values (1)')).toEqual(['t1']);
    expect(referencedTableNames('SELECT 1')).toEqual([]);
  });
});
