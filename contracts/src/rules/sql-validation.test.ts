import { describe, expect, it } from 'vitest';
import { hasSqlValidator, noValidatorMessage, validateSqlSyntax } from './sql-validation';

describe('validate SQL (Superset validate_sql annotations)', () => {
  it('passes SQL that parses, in PostgreSQL and MySQL', () => {
    expect(validateSqlSyntax('SELECT name, COUNT(*) FROM birth_names WHERE num > 3 GROUP BY name', 'postgresql')).toEqual([]);
    expect(validateSqlSyntax('SELECT `name` FROM t LIMIT 5', 'mysql')).toEqual([]);
  });

  it('annotates a syntax error where it is: line and columns counted from 1', () => {
    expect(validateSqlSyntax('SELECT name\nFROM t\nWHER num > 1', 'postgresql')).toEqual([{ line_number: 3, start_column: 6, end_column: 7, message: 'syntax error at or near "n"' }]);
    expect(validateSqlSyntax('SELECT * FROM', 'postgresql')[0]).toMatchObject({ line_number: 1, message: 'syntax error at or near end of input' });
  });

  it('knows which engines have a validator, and says so for the others', () => {
    expect(hasSqlValidator('postgresql')).toBe(true);
    expect(hasSqlValidator('duckdb')).toBe(false);
    expect(noValidatorMessage('DuckDB')).toBe('no SQL validator is configured for DuckDB');
  });
});
