import { isSignificant, keyword, tokenize, type SqlDialect, type SqlToken } from './sql-tokens.ts';

/**
 * Splits SQL into statements on top-level `;`, respecting quotes, comments and `$$` bodies, and
 * drops statements holding only whitespace/comments. Each statement is trimmed, without its `;`.
 *
 * @example splitStatements("SELECT ';'; -- x\nSELECT 2;") // ["SELECT ';'", "-- x\nSELECT 2"]
 */
export function splitStatements(sql: string, dialect: SqlDialect = 'postgresql'): string[] {
  const statements: string[] = [];
  let start = 0;
  let hasContent = false;
  // SQLite/DuckDB/Postgres CREATE TRIGGER ... BEGIN ... END bodies hold `;`: track BEGIN..END after CREATE.
  let blockDepth = 0;
  let sawCreate = false;
  for (const token of tokenize(sql, dialect)) {
    if (token.kind === 'punct' && token.text === ';' && token.depth === 0 && blockDepth === 0) {
      if (hasContent) statements.push(sql.slice(start, token.start).trim());
      start = token.end;
      hasContent = false;
      sawCreate = false;
      continue;
    }
    if (!isSignificant(token)) continue;
    const kw = keyword(token);
    if (!hasContent && kw === 'CREATE') sawCreate = true;
    if (sawCreate && (kw === 'BEGIN' || kw === 'CASE') && dialect === 'sqlite') blockDepth++;
    else if (sawCreate && kw === 'END' && blockDepth > 0 && dialect === 'sqlite') blockDepth--;
    hasContent = true;
  }
  if (hasContent) statements.push(sql.slice(start).trim());
  return statements;
}

/** Removes trailing whitespace, `;` and trailing comments, like Superset's `ParsedQuery.stripped()`. */
export function stripStatement(sql: string, dialect: SqlDialect = 'postgresql'): string {
  const tokens = tokenize(sql, dialect);
  let end = tokens.length - 1;
  while (end >= 0 && (!isSignificant(tokens[end]) || (tokens[end].kind === 'punct' && tokens[end].text === ';'))) end--;
  let first = 0;
  while (first <= end && tokens[first].kind === 'space') first++;
  if (end < 0) return '';
  return sql.slice(tokens[first].start, tokens[end].end);
}

function significant(sql: string, dialect: SqlDialect): SqlToken[] {
  return tokenize(sql, dialect).filter(isSignificant);
}

const MUTATING_LEADING = new Set([
  'INSERT', 'UPDATE', 'DELETE', 'MERGE', 'UPSERT', 'REPLACE', 'CREATE', 'DROP', 'ALTER', 'TRUNCATE',
  'RENAME', 'GRANT', 'REVOKE', 'COPY', 'ATTACH', 'DETACH', 'INSTALL', 'LOAD', 'IMPORT', 'VACUUM',
  'REINDEX', 'CLUSTER', 'COMMENT', 'LOCK', 'REFRESH', 'CHECKPOINT', 'OPTIMIZE', 'REPAIR', 'HANDLER',
]);
const MUTATING_IN_WITH = new Set(['INSERT', 'UPDATE', 'DELETE', 'MERGE']);

/**
 * Superset's `is_mutating`: true for statements that change data or schema (INSERT, UPDATE,
 * DELETE, MERGE, CREATE, DROP, ALTER, TRUNCATE, ...), including data-modifying CTEs
 * (`WITH d AS (DELETE ... RETURNING *) SELECT ...`) and `SELECT ... INTO new_table`.
 * Checks every statement of `sql`.
 */
export function isMutating(sql: string, dialect: SqlDialect = 'postgresql'): boolean {
  return splitStatements(sql, dialect).some((statement) => isStatementMutating(statement, dialect));
}

function isStatementMutating(statement: string, dialect: SqlDialect): boolean {
  const tokens = significant(statement, dialect);
  let i = 0;
  while (i < tokens.length && tokens[i].text === '(') i++;
  const lead = keyword(tokens[i]);
  if (MUTATING_LEADING.has(lead)) return true;
  if (lead === 'EXPLAIN') {
    // EXPLAIN ANALYZE runs the statement it explains.
    const rest = tokens.slice(i + 1).map(keyword);
    return (rest.includes('ANALYZE') || rest.includes('ANALYSE')) && rest.some((kw) => MUTATING_LEADING.has(kw));
  }
  if (lead === 'WITH' || lead === 'SELECT') {
    for (let j = i + 1; j < tokens.length; j++) {
      const kw = keyword(tokens[j]);
      const prev = tokens[j - 1].text;
      if (MUTATING_IN_WITH.has(kw) && (prev === '(' || prev === ')')) return true;
      // SELECT ... INTO table (Postgres) / INTO OUTFILE (MySQL) writes; MySQL `INTO @var` does not.
      if (kw === 'INTO' && tokens[j].depth === 0 && !(tokens[j + 1]?.text.startsWith('@'))) return true;
    }
  }
  return false;
}

const SELECT_LEADING = new Set(['SELECT', 'WITH', 'VALUES', 'TABLE', 'FROM']);

/** True when the statement returns rows of a query (SELECT / WITH ... SELECT / VALUES / TABLE), Superset's `is_select`. */
export function isSelect(statement: string, dialect: SqlDialect = 'postgresql'): boolean {
  const tokens = significant(statement, dialect);
  let i = 0;
  while (i < tokens.length && tokens[i].text === '(') i++;
  const lead = keyword(tokens[i]);
  if (!SELECT_LEADING.has(lead)) return false;
  if (lead === 'FROM' && dialect !== 'duckdb') return false;
  return !isStatementMutating(statement, dialect);
}

interface LimitClause {
  /** Token holding the row count. */
  countToken: SqlToken | null;
  /** The count when it is a plain integer. */
  count: number | null;
  /** Whether a FETCH FIRST/NEXT clause exists (not replaceable). */
  hasFetch: boolean;
}

function findTopLevelLimit(tokens: SqlToken[]): LimitClause {
  let result: LimitClause = { countToken: null, count: null, hasFetch: false };
  for (let j = 0; j < tokens.length; j++) {
    const t = tokens[j];
    if (t.depth !== 0) continue;
    const kw = keyword(t);
    if (kw === 'FETCH' && ['FIRST', 'NEXT'].includes(keyword(tokens[j + 1]))) result = { ...result, hasFetch: true };
    if (kw !== 'LIMIT') continue;
    let countToken = tokens[j + 1] ?? null;
    // MySQL `LIMIT offset, count`.
    if (countToken && tokens[j + 2]?.text === ',' && tokens[j + 3]) countToken = tokens[j + 3];
    const count = countToken && countToken.kind === 'number' && /^\d+$/.test(countToken.text) ? Number(countToken.text) : null;
    result = { countToken, count, hasFetch: result.hasFetch };
  }
  return result;
}

/**
 * The row count of the statement's own top-level LIMIT, Superset's `get_limit_from_sql`; null when
 * there is none or it is not a plain integer.
 *
 * @example getLimitFromSql('SELECT * FROM t LIMIT 10 OFFSET 5') // 10
 */
export function getLimitFromSql(sql: string, dialect: SqlDialect = 'postgresql'): number | null {
  const statements = splitStatements(sql, dialect);
  const last = statements[statements.length - 1];
  if (!last) return null;
  return findTopLevelLimit(significant(last, dialect)).count;
}

export interface ApplyLimitOptions {
  dialect?: SqlDialect;
  /** Replace an existing LIMIT even when it is lower than `limit` (Superset's `force=True`). */
  force?: boolean;
}

/**
 * Superset's `apply_limit_to_sql` for the LAST statement of `sql`: no LIMIT → append
 * `\nLIMIT n`; an integer LIMIT higher than `n` (or any, with `force`) → replaced by `n`; a lower
 * one → kept; a LIMIT that cannot be rewritten (`LIMIT ALL`, a parameter, `FETCH FIRST`) → the
 * statement is wrapped as `SELECT * FROM (...) AS inner_qry LIMIT n`. Statements that are not
 * SELECTs are returned unchanged. Earlier statements are kept as they are.
 */
export function applyLimit(sql: string, limit: number, options: ApplyLimitOptions = {}): string {
  const dialect = options.dialect ?? 'postgresql';
  const statements = splitStatements(sql, dialect);
  if (statements.length === 0) return sql;
  const last = statements.length - 1;
  statements[last] = applyLimitToStatement(statements[last], limit, dialect, options.force ?? false);
  return statements.join(';\n');
}

function applyLimitToStatement(statement: string, limit: number, dialect: SqlDialect, force: boolean): string {
  const stripped = stripStatement(statement, dialect);
  if (!isSelect(stripped, dialect)) return stripped;
  const tokens = significant(stripped, dialect);
  const clause = findTopLevelLimit(tokens);
  if (clause.hasFetch || (clause.countToken && clause.count === null)) {
    return `SELECT * FROM (\n${stripped}\n) AS inner_qry LIMIT ${limit}`;
  }
  if (!clause.countToken || clause.count === null) return `${stripped}\nLIMIT ${limit}`;
  if (!force && clause.count <= limit) return stripped;
  return stripped.slice(0, clause.countToken.start) + String(limit) + stripped.slice(clause.countToken.end);
}

/**
 * Superset's limiting factor, from the dropdown limit, the SQL's own LIMIT, and whether the
 * fetch of limit+1 rows returned the extra row.
 */
export function computeLimitingFactor(dropdownLimit: number | null | undefined, sqlLimit: number | null, hasMoreRows: boolean): 'QUERY' | 'DROPDOWN' | 'QUERY_AND_DROPDOWN' | 'NOT_LIMITED' {
  if (!hasMoreRows) return 'NOT_LIMITED';
  if (dropdownLimit == null) return sqlLimit == null ? 'NOT_LIMITED' : 'QUERY';
  if (sqlLimit == null || sqlLimit > dropdownLimit) return 'DROPDOWN';
  if (dropdownLimit > sqlLimit) return 'QUERY';
  return 'QUERY_AND_DROPDOWN';
}

/** First keyword of a statement (after leading comments and parentheses), upper-cased. */
export function leadingKeyword(statement: string, dialect: SqlDialect = 'postgresql'): string {
  const tokens = significant(statement, dialect);
  let i = 0;
  while (i < tokens.length && tokens[i].text === '(') i++;
  return keyword(tokens[i]);
}
