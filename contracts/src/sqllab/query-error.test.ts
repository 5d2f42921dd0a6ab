import { describe, expect, it } from 'vitest';
import type { SupersetError } from '../messages';
import { errorRowInEditor, queryErrorDetails } from './query-error';

describe("a failed query's database message and line", () => {
  it("reads the database's own message and its line from the first error", () => {
    const query = {
      errorMessage: 'We can\'t seem to resolve the column "b".',
      errors: [{ message: 'We can\'t seem to resolve the column "b".', error_type: 'COLUMN_DOES_NOT_EXIST_ERROR', level: 'error', extra: { database_message: 'Binder Error: Referenced column "b" not found', line: 2 } }] as SupersetError[],
    };
    expect(queryErrorDetails(query)).toEqual({ databaseMessage: 'Binder Error: Referenced column "b" not found', line: 2 });
  });

  it('gives nothing more when the error has no details, or the same text as the catalogue message', () => {
    expect(queryErrorDetails({ errorMessage: 'x', errors: [] })).toEqual({ databaseMessage: null, line: null });
    expect(queryErrorDetails({ errorMessage: 'same', errors: [{ message: 'same', error_type: 'GENERIC_DB_ENGINE_ERROR', level: 'error', extra: { database_message: 'same', line: 0 } }] as SupersetError[] })).toEqual({ databaseMessage: null, line: null });
  });

  it("maps the query's line to the editor row, where the query's text sits in the editor", () => {
    expect(errorRowInEditor('SELECT a,\n  b\nFROM t', 'SELECT a,\n  b\nFROM t', 2)).toBe(1);
    expect(errorRowInEditor('SELECT 1;\n\nSELECT x\nFROM t', 'SELECT x\nFROM t', 2)).toBe(3);
  });

  it('marks nothing once the editor no longer holds the query, or the line is past its end', () => {
    expect(errorRowInEditor('SELECT y FROM t', 'SELECT x FROM t', 1)).toBeNull();
    expect(errorRowInEditor('SELECT x FROM t', 'SELECT x FROM t', 2)).toBeNull();
  });
});
