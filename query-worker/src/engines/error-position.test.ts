import { describe, expect, it } from 'vitest';
import { errorLine, lineInSubmittedSql, mapByRules, supersetError, type ErrorRule } from './errors.ts';

const RULES: ErrorRule[] = [
  { regex: /Referenced column "(?<column_name>.+?)" not found/, message: 'We can\'t seem to resolve the column "%(column_name)s".', errorType: 'COLUMN_DOES_NOT_EXIST_ERROR' },
];

describe("the database's own message and the line it points at", () => {
  it('reads the line of DuckDB and PostgreSQL (LINE n:) and of MySQL (at line n)', () => {
    expect(errorLine('Binder Error: Referenced column "b" not found in FROM clause!\n\nLINE 2:   b\n          ^')).toBe(2);
    expect(errorLine("You have an error in your SQL syntax; check the manual ... near 'FORM t' at line 3")).toBe(3);
    expect(errorLine('Catalog Error: Table with name nope does not exist!')).toBeNull();
  });

  it("keeps the driver's text under a rule's message, with the line", () => {
    const raw = 'Binder Error: Referenced column "b" not found in FROM clause!\nCandidate bindings: "a"\n\nLINE 2:   b\n          ^';
    const error = mapByRules(RULES, raw, 'DuckDB');
    expect(error).toMatchObject({ error_type: 'COLUMN_DOES_NOT_EXIST_ERROR', message: 'We can\'t seem to resolve the column "b".', extra: { database_message: raw, line: 2 } });
  });

  it('a generic error already is the driver text: no copy of it, the line still given; a position given by the driver wins', () => {
    const generic = mapByRules(RULES, 'Some Error\nLINE 4: x', 'DuckDB');
    expect(generic.message).toBe('DuckDB error: Some Error\nLINE 4: x');
    expect(generic.extra.database_message).toBeUndefined();
    expect(generic.extra.line).toBe(4);
    expect(mapByRules(RULES, 'Referenced column "z" not found\nLINE 1', 'PostgreSQL', { databaseMessage: 'column "z" does not exist', line: 3 }).extra).toMatchObject({ database_message: 'column "z" does not exist', line: 3 });
  });

  it("turns a statement's line into the line of the submitted SQL, past the statements before it", () => {
    const sql = 'SELECT 1;\n\nSELECT a,\n  b\nFROM t';
    const error = supersetError('COLUMN_DOES_NOT_EXIST_ERROR', 'm', 'DuckDB', { line: 2 });
    const statements = ['SELECT 1', 'SELECT a,\n  b\nFROM t'];
    expect(lineInSubmittedSql(error, sql, 'SELECT a,\n  b\nFROM t\nLIMIT 1001', 1, statements).extra.line).toBe(4);
  });

  it('finds the line in a statement Meridian wrapped, and drops a line Meridian added', () => {
    const sql = 'SELECT x\nFROM t\nFETCH FIRST 5 ROWS ONLY';
    const sent = `SELECT * FROM (\n${sql}\n) AS inner_qry LIMIT 11`;
    const atFrom = supersetError('GENERIC_DB_ENGINE_ERROR', 'm', 'DuckDB', { line: 3 });
    expect(lineInSubmittedSql(atFrom, sql, sent, 0, [sql]).extra.line).toBe(2);
    const atWrapper = supersetError('GENERIC_DB_ENGINE_ERROR', 'm', 'DuckDB', { line: 5 });
    expect(lineInSubmittedSql(atWrapper, sql, sent, 0, [sql]).extra.line).toBeUndefined();
  });
});
