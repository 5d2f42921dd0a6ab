/**
 * SQL Lab's "validate SQL" (`POST /api/v1/database/{pk}/validate_sql/`): the statement is parsed in the
 * engine's dialect and each syntax error is reported where it is, as Superset's validators annotate
 * (line_number from 1, start_column/end_column from 1). Engines without a validator are refused, as
 * Superset refuses engines missing from SQL_VALIDATORS_BY_ENGINE.
 */
import { sqlParser, type ParserDatabase } from '../chart-data/sql-parsers';

export interface SqlValidationAnnotation {
  line_number: number;
  start_column: number;
  end_column: number;
  message: string;
}

/** The parser dialect of each engine that has a validator. */
const VALIDATOR_DIALECTS: Record<string, ParserDatabase> = { postgresql: 'PostgresQL', mysql: 'MariaDB', mariadb: 'MariaDB' };

export const hasSqlValidator = (dialect: string): boolean => dialect in VALIDATOR_DIALECTS;

/** Superset's refusal for an engine without a validator. */
export const noValidatorMessage = (engine: string) => `no SQL validator is configured for ${engine}`;

interface PegError {
  found?: string | null;
  location?: { start: { line: number; column: number }; end: { line: number; column: number } };
}

/** The annotations of `sql` in the engine's dialect; empty when it parses. */
export function validateSqlSyntax(sql: string, dialect: string): SqlValidationAnnotation[] {
  const database = VALIDATOR_DIALECTS[dialect];
  if (!database) throw new Error(noValidatorMessage(dialect));
  try {
    sqlParser(database).astify(sql, { database });
    return [];
  } catch (error) {
    const peg = error as PegError;
    if (!peg.location) return [{ line_number: 1, start_column: 1, end_column: 1, message: String((error as Error).message ?? error) }];
    const { start, end } = peg.location;
    const near = peg.found === null || peg.found === undefined ? 'end of input' : `"${peg.found}"`;
    return [{ line_number: start.line, start_column: start.column, end_column: Math.max(end.column, start.column), message: `syntax error at or near ${near}` }];
  }
}
