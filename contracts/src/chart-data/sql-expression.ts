/**
 * Checks an ad hoc SQL expression (a custom SQL metric, column, WHERE or HAVING clause) before it
 * is placed inside generated SQL: it must stay inside its parentheses (balanced, one statement) and
 * must not hold a subquery unless ALLOW_ADHOC_SUBQUERY is on. The expression is parsed with
 * node-sql-parser inside a fixed wrapper, and a tokenizer check keeps the guarantee when the parser
 * does not know an engine's syntax.
 */
import { sqlParser, type ParserDatabase } from './sql-parsers';

export type Backend = 'postgresql' | 'mysql' | 'duckdb' | 'sqlite';

/** Where the expression goes; decides the wrapper it is parsed in. */
export type ExpressionPlace = 'select' | 'where' | 'having';

/** A refused expression with Superset's error type. */
export class SqlExpressionError extends Error {
  constructor(
    message: string,
    readonly errorType: 'ADHOC_SUBQUERY_NOT_ALLOWED_ERROR' | 'INVALID_SQL_ERROR',
  ) {
    super(message);
    this.name = 'SqlExpressionError';
  }
}

export const SUBQUERY_NOT_ALLOWED = 'Custom SQL fields cannot contain sub-queries.';
export const MULTIPLE_STATEMENTS = 'Custom SQL fields cannot contain multiple statements.';

interface Token {
  kind: 'word' | 'string' | 'quoted' | 'punct' | 'other';
  text: string;
}

/** Splits SQL into words, strings, quoted identifiers and punctuation; comments are dropped. */
export function tokenizeSql(sql: string, backend: Backend = 'postgresql'): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  const n = sql.length;
  const unterminated = () => new SqlExpressionError(`Unterminated quote or comment in SQL expression: ${sql}`, 'INVALID_SQL_ERROR');
  while (i < n) {
    const c = sql[i];
    if (/\s/.test(c)) {
      i++;
    } else if (c === '-' && sql[i + 1] === '-') {
      while (i < n && sql[i] !== '\n') i++;
    } else if (c === '#' && backend === 'mysql') {
      while (i < n && sql[i] !== '\n') i++;
    } else if (c === '/' && sql[i + 1] === '*') {
      const end = sql.indexOf('*/', i + 2);
      if (end < 0) throw unterminated();
      i = end + 2;
    } else if (c === "'" || c === '"' || c === '`') {
      let j = i + 1;
      const backslash = backend === 'mysql' || (c === "'" && /[eE]$/.test(sql.slice(0, i)));
      for (;;) {
        if (j >= n) throw unterminated();
        if (backslash && sql[j] === '\\') {
          j += 2;
          continue;
        }
        if (sql[j] === c) {
          if (sql[j + 1] === c) {
            j += 2;
            continue;
          }
          break;
        }
        j++;
      }
      tokens.push({ kind: c === "'" ? 'string' : 'quoted', text: sql.slice(i, j + 1) });
      i = j + 1;
    } else if (c === '$' && backend === 'postgresql' && /^\$[A-Za-z_]*\$/.test(sql.slice(i))) {
      const tag = /^\$[A-Za-z_]*\$/.exec(sql.slice(i))![0];
      const end = sql.indexOf(tag, i + tag.length);
      if (end < 0) throw unterminated();
      tokens.push({ kind: 'string', text: sql.slice(i, end + tag.length) });
      i = end + tag.length;
    } else if (/[A-Za-z_]/.test(c)) {
      const m = /^[A-Za-z_][A-Za-z0-9_$]*/.exec(sql.slice(i))!;
      tokens.push({ kind: 'word', text: m[0] });
      i += m[0].length;
    } else if ('();,'.includes(c)) {
      tokens.push({ kind: 'punct', text: c });
      i++;
    } else {
      tokens.push({ kind: 'other', text: c });
      i++;
    }
  }
  return tokens;
}

const PARSER_DATABASE: Record<Backend, ParserDatabase> = { postgresql: 'PostgresQL', mysql: 'MySQL', duckdb: 'PostgresQL', sqlite: 'Sqlite' };
/** Reserved words that only start statements; never part of an expression. */
const STATEMENT_WORDS = new Set(['insert', 'update', 'delete', 'drop', 'create', 'alter', 'truncate', 'grant', 'revoke']);

function containsSubquery(node: unknown): boolean {
  if (!node || typeof node !== 'object') return false;
  if (Array.isArray(node)) return node.some(containsSubquery);
  const record = node as Record<string, unknown>;
  if (record.type === 'select' || 'ast' in record) return true;
  return Object.values(record).some(containsSubquery);
}

/**
 * Refuses an expression that could leave its place in the generated SQL or holds a subquery.
 * Returns the expression unchanged (callers wrap it in parentheses followed by a newline, so a
 * trailing `--` comment cannot swallow the rest of the query).
 *
 * @example validateSqlExpression('SUM(num) / COUNT(*)', 'select', { backend: 'postgresql' })
 */
export function validateSqlExpression(
  expression: string,
  place: ExpressionPlace,
  opts: { backend: Backend; allowSubquery?: boolean },
): string {
  // An adhoc metric or column sent with no expression (null) is as empty as ''.
  if (typeof expression !== 'string' || !expression.trim()) throw new SqlExpressionError('Custom SQL fields cannot be empty.', 'INVALID_SQL_ERROR');
  if (expression.includes('\0')) throw new SqlExpressionError('Custom SQL fields cannot contain NUL characters.', 'INVALID_SQL_ERROR');
  const tokens = tokenizeSql(expression, opts.backend);
  let depth = 0;
  tokens.forEach((token, i) => {
    if (token.text === '(') depth++;
    if (token.text === ')') depth--;
    if (depth < 0) throw new SqlExpressionError(`Unbalanced parentheses in SQL expression: ${expression}`, 'INVALID_SQL_ERROR');
    if (token.text === ';' && tokens.slice(i + 1).length > 0) throw new SqlExpressionError(MULTIPLE_STATEMENTS, 'INVALID_SQL_ERROR');
  });
  if (depth !== 0) throw new SqlExpressionError(`Unbalanced parentheses in SQL expression: ${expression}`, 'INVALID_SQL_ERROR');
  if (tokens.some((t) => t.text === ';')) throw new SqlExpressionError(MULTIPLE_STATEMENTS, 'INVALID_SQL_ERROR');
  const words = tokens.filter((t) => t.kind === 'word').map((t) => t.text.toLowerCase());
  if (!opts.allowSubquery && words.some((w) => w === 'select')) throw new SqlExpressionError(SUBQUERY_NOT_ALLOWED, 'ADHOC_SUBQUERY_NOT_ALLOWED_ERROR');
  const statementWord = words.find((w) => STATEMENT_WORDS.has(w));
  if (statementWord) throw new SqlExpressionError(`Custom SQL fields cannot contain "${statementWord.toUpperCase()}".`, 'INVALID_SQL_ERROR');

  const wrapped =
    place === 'select'
      ? `SELECT (${expression}\n) AS meridian_expr FROM meridian_table`
      : place === 'where'
        ? `SELECT * FROM meridian_table WHERE (${expression}\n)`
        : `SELECT 1 FROM meridian_table GROUP BY 1 HAVING (${expression}\n)`;
  let ast: unknown;
  try {
    ast = sqlParser(PARSER_DATABASE[opts.backend]).astify(wrapped, { database: PARSER_DATABASE[opts.backend] });
  } catch {
    // The parser does not know every engine function; the token checks above already keep the
    // expression inside its parentheses and free of statements and subqueries.
    return expression;
  }
  const statements = Array.isArray(ast) ? ast : [ast];
  if (statements.length !== 1) throw new SqlExpressionError(MULTIPLE_STATEMENTS, 'INVALID_SQL_ERROR');
  const select = statements[0] as Record<string, unknown>;
  if (select.type !== 'select' || select._next || select.set_op) throw new SqlExpressionError(MULTIPLE_STATEMENTS, 'INVALID_SQL_ERROR');
  const inner = place === 'select' ? select.columns : place === 'where' ? select.where : select.having;
  if (!opts.allowSubquery && containsSubquery(inner)) throw new SqlExpressionError(SUBQUERY_NOT_ALLOWED, 'ADHOC_SUBQUERY_NOT_ALLOWED_ERROR');
  return expression;
}
