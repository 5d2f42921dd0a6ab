import { isSelect, splitStatements, stripStatement } from './statements.ts';
import type { SqlDialect } from './sql-tokens.ts';
import type { CtasOptions, SupersetErrorType } from '../types.ts';

/** Outcome of preparing CTAS/CVAS SQL: the statements to run, or the Superset error to return. */
export type CtasPlan =
  | { ok: true; statements: string[]; fullTableName: string }
  | { ok: false; errorType: SupersetErrorType; message: string };

/**
 * Superset's `as_create_table`: the last statement becomes `CREATE TABLE|VIEW <schema>.<table> AS
 * <select>`. CTAS needs a SELECT last (INVALID_CTAS_QUERY_ERROR); CVAS needs exactly one SELECT
 * (INVALID_CVAS_QUERY_ERROR).
 */
export function buildCtas(sql: string, ctas: CtasOptions, quote: (name: string) => string, dialect: SqlDialect = 'postgresql'): CtasPlan {
  const statements = splitStatements(sql, dialect);
  const last = statements[statements.length - 1];
  if (ctas.method === 'VIEW') {
    if (statements.length !== 1) return { ok: false, errorType: 'INVALID_CVAS_QUERY_ERROR', message: 'CVAS (create view as select) query has more than one statement.' };
    if (!isSelect(last, dialect)) return { ok: false, errorType: 'INVALID_CVAS_QUERY_ERROR', message: 'CVAS (create view as select) query is not a SELECT statement.' };
  } else if (!last || !isSelect(last, dialect)) {
    return { ok: false, errorType: 'INVALID_CTAS_QUERY_ERROR', message: "CTAS (create table as select) can only be run with a query where the last statement is a SELECT. Please make sure your query has a SELECT as its last statement. Then, try running your query again." };
  }
  const fullTableName = ctas.schema ? `${quote(ctas.schema)}.${quote(ctas.tableName)}` : quote(ctas.tableName);
  const head = statements.slice(0, -1);
  return { ok: true, statements: [...head, `CREATE ${ctas.method} ${fullTableName} AS \n${stripStatement(last, dialect)}`], fullTableName };
}
