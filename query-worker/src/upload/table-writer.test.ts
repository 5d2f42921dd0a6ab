import { describe, expect, it } from 'vitest';
import { copyValue, sqlLiteral } from './table-writer.ts';

describe('upload values as SQL literals (issue 14: a value that does not fit its column is null, as pandas coerces)', () => {
  it('writes numbers bare, and anything else in a number column as NULL', () => {
    expect(sqlLiteral('42', 'integer', 'postgresql')).toBe('42');
    expect(sqlLiteral(' -1.5e3 ', 'float', 'duckdb')).toBe('-1.5e3');
    expect(sqlLiteral('N/A', 'float', 'mysql')).toBe('NULL');
    expect(sqlLiteral('1; DROP TABLE x', 'integer', 'postgresql')).toBe('NULL');
    expect(sqlLiteral(null, 'text', 'postgresql')).toBe('NULL');
  });

  it('writes booleans in each engine’s words', () => {
    expect(sqlLiteral('true', 'boolean', 'postgresql')).toBe('TRUE');
    expect(sqlLiteral('0', 'boolean', 'mysql')).toBe('FALSE');
    expect(sqlLiteral('yes', 'boolean', 'sqlite')).toBe('1');
    expect(sqlLiteral('maybe', 'boolean', 'duckdb')).toBe('NULL');
  });

  it('quotes text, escaping quotes (and backslashes for MySQL), and writes timestamps without T and Z', () => {
    expect(sqlLiteral("O'Brien", 'text', 'postgresql')).toBe("'O''Brien'");
    expect(sqlLiteral('a\\b', 'text', 'mysql')).toBe("'a\\\\b'");
    expect(sqlLiteral('a\\b', 'text', 'postgresql')).toBe("'a\\b'");
    expect(sqlLiteral('2024-05-01T10:00:00Z', 'timestamp', 'mysql')).toBe("'2024-05-01 10:00:00'");
  });

  it("writes PostgreSQL's COPY text: \\N for null, tabs, newlines and backslashes escaped", () => {
    expect(copyValue(null, 'text')).toBe('\\N');
    expect(copyValue('a\tb\nc\\d', 'text')).toBe('a\\tb\\nc\\\\d');
    expect(copyValue('x', 'integer')).toBe('\\N');
    expect(copyValue('false', 'boolean')).toBe('f');
    expect(copyValue('2024-05-01T10:00:00Z', 'timestamp')).toBe('2024-05-01 10:00:00');
  });
});
