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

/** Statements that only read (or set session state): every other statement counts as mutating. */
const READ_LEADING = new Set([
  'SELECT', 'WITH', 'VALUES', 'TABLE', 'SHOW', 'DESCRIBE', 'DESC', 'EXPLAIN', 'PRAGMA', 'SET', 'RESET', 'USE',
  'BEGIN', 'START', 'COMMIT', 'ROLLBACK',
]);
/** DuckDB's read statements beyond the common ones (`FROM t`, `SUMMARIZE t`, `PIVOT t ON ...`). */
const DUCKDB_READ_LEADING = new Set(['FROM', 'SUMMARIZE', 'PIVOT', 'UNPIVOT']);
/**
 * The leading keyword of every statement PostgreSQL, MySQL/MariaDB, DuckDB and SQLite accept. A
 * statement led by any other word (`SELEC 1`) is no statement at all: the engine refuses it with a
 * syntax error, so it goes through and the user sees that error, as in Superset (sqlglot reads it as
 * an unknown command, which is not mutating).
 */
const STATEMENT_KEYWORDS = new Set([
  ...READ_LEADING, ...DUCKDB_READ_LEADING,
  'ABORT', 'ALTER', 'ANALYZE', 'ANALYSE', 'ATTACH', 'BACKUP', 'BINLOG', 'CACHE', 'CALL', 'CHANGE', 'CHECK', 'CHECKPOINT',
  'CHECKSUM', 'CLONE', 'CLOSE', 'CLUSTER', 'COMMENT', 'COPY', 'CREATE', 'DEALLOCATE', 'DECLARE', 'DELETE', 'DETACH',
  'DISCARD', 'DO', 'DROP', 'END', 'EXEC', 'EXECUTE', 'EXPORT', 'FETCH', 'FLUSH', 'FORCE', 'GET', 'GRANT', 'HANDLER',
  'HELP', 'IMPORT', 'INSERT', 'INSTALL', 'KILL', 'LISTEN', 'LOAD', 'LOCK', 'MERGE', 'MOVE', 'NOTIFY', 'OPTIMIZE',
  'PREPARE', 'PURGE', 'REASSIGN', 'REFRESH', 'REINDEX', 'RELEASE', 'RENAME', 'REPAIR', 'REPLACE', 'RESIGNAL',
  'RESTART', 'RESTORE', 'REVOKE', 'SAVEPOINT', 'SECURITY', 'SHUTDOWN', 'SIGNAL', 'STOP', 'TRANSACTION', 'TRUNCATE',
  'UNINSTALL', 'UNLISTEN', 'UNLOCK', 'UPDATE', 'UPSERT', 'VACUUM', 'XA',
]);
const MUTATING_IN_QUERY = new Set(['INSERT', 'UPDATE', 'DELETE', 'MERGE']);
/** PRAGMAs whose call form `name(arg)` only reads (SQLite and DuckDB introspection). */
const READ_PRAGMA_CALLS = new Set([
  'TABLE_INFO', 'TABLE_XINFO', 'INDEX_LIST', 'INDEX_INFO', 'INDEX_XINFO', 'FOREIGN_KEY_LIST', 'FOREIGN_KEY_CHECK',
  'INTEGRITY_CHECK', 'QUICK_CHECK', 'TABLE_LIST', 'STORAGE_INFO', 'SHOW',
]);
/** PRAGMAs that write even without a value. */
const WRITING_PRAGMAS = new Set(['OPTIMIZE', 'INCREMENTAL_VACUUM', 'WAL_CHECKPOINT', 'FORCE_CHECKPOINT', 'SHRINK_MEMORY']);

/**
 * Superset's `is_mutating` (DML_NOT_ALLOWED when a database has allow_dml off), made stricter:
 * instead of listing writes, it lists reads. A statement is a read when it is a SELECT, `WITH ...
 * SELECT`, VALUES, TABLE, SHOW, DESCRIBE, a session SET/RESET/USE, transaction control, a PRAGMA
 * that only reads, or an EXPLAIN (EXPLAIN ANALYZE only of a read, since it runs the statement);
 * anything else (INSERT, CREATE, `DO $$...$$`, CALL, EXECUTE, COPY, VACUUM, ANALYZE, `PRAGMA x = y`,
 * `SET GLOBAL`...) mutates. A read also mutates when it holds a data-modifying CTE
 * (`WITH d AS (DELETE ... RETURNING *) SELECT ...`), ends in one (`WITH x AS (...) DELETE ...`), or
 * writes a table (`SELECT ... INTO new_table`). Checks every statement of `sql`.
 *
 * @example isMutating('WITH x AS (SELECT 1) DELETE FROM t') // true
 */
export function isMutating(sql: string, dialect: SqlDialect = 'postgresql'): boolean {
  return splitStatements(sql, dialect).some((statement) => isStatementMutating(statement, dialect));
}

function isStatementMutating(statement: string, dialect: SqlDialect): boolean {
  const tokens = tokenize(statement, dialect);
  // MySQL runs the text of `/*! ... */` (and MariaDB `/*M! ... */`) comments: they may hold anything.
  if (dialect === 'mysql' && tokens.some((t) => t.kind === 'comment' && /^\/\*M?!/.test(t.text))) return true;
  return tokensMutate(tokens.filter(isSignificant), dialect);
}

function tokensMutate(tokens: SqlToken[], dialect: SqlDialect): boolean {
  let i = 0;
  while (i < tokens.length && tokens[i].text === '(') i++;
  const lead = keyword(tokens[i]);
  const rest = tokens.slice(i + 1);
  // Not a statement keyword (a typo, a stray token): the engine refuses it with a syntax error.
  if (!STATEMENT_KEYWORDS.has(lead) || (dialect !== 'duckdb' && DUCKDB_READ_LEADING.has(lead))) return false;
  if (!READ_LEADING.has(lead) && !(dialect === 'duckdb' && DUCKDB_READ_LEADING.has(lead))) {
    // MariaDB's `ANALYZE SELECT ...` runs the SELECT and reports on it; ANALYZE TABLE writes statistics.
    if (lead === 'ANALYZE' && dialect === 'mysql') return !explainedQueryReads(explainOptions(rest).statement, dialect, false);
    return true;
  }
  switch (lead) {
    case 'EXPLAIN':
    case 'DESCRIBE':
    case 'DESC': {
      // Plain EXPLAIN only plans; EXPLAIN ANALYZE runs the statement.
      const { analyze, statement } = explainOptions(rest);
      return analyze && !explainedQueryReads(statement, dialect, true);
    }
    case 'PRAGMA': {
      const name = keyword(rest[0]);
      if (rest.some((t) => t.text === '=') || WRITING_PRAGMAS.has(name)) return true;
      // `PRAGMA journal_mode(WAL)` sets like `= WAL`; the introspection calls read.
      return rest[1]?.text === '(' && !READ_PRAGMA_CALLS.has(name);
    }
    case 'SET': {
      // Server-wide settings outlive the session.
      const serverWide = (kw: string) => kw === 'GLOBAL' || kw === 'PERSIST' || kw === 'PERSIST_ONLY';
      return serverWide(keyword(rest[0])) || rest.some((t, j) => t.text === '@' && rest[j + 1]?.text === '@' && serverWide(keyword(rest[j + 2])));
    }
    case 'START':
      return keyword(rest[0]) !== 'TRANSACTION';
  }
  for (let j = i + 1; j < tokens.length; j++) {
    const kw = keyword(tokens[j]);
    const prev = tokens[j - 1].text;
    // A data-modifying CTE body, or the statement a WITH ends in.
    if (MUTATING_IN_QUERY.has(kw) && (prev === '(' || prev === ')')) return true;
    // MySQL `WITH ... REPLACE INTO t` (not the replace() function).
    if (kw === 'REPLACE' && prev === ')' && keyword(tokens[j + 1]) === 'INTO') return true;
    // SELECT ... INTO table (Postgres) / INTO OUTFILE (MySQL) writes; MySQL `INTO @var` does not.
    if (kw === 'INTO' && tokens[j].depth === 0 && !(tokens[j + 1]?.text.startsWith('@'))) return true;
  }
  return false;
}

const EXPLAIN_OPTION_WORDS = new Set(['ANALYZE', 'ANALYSE', 'VERBOSE', 'EXTENDED', 'PARTITIONS', 'FORMAT', 'QUERY', 'PLAN', 'TEXT', 'JSON', 'TREE', 'TRADITIONAL', 'XML', 'YAML']);

/**
 * Splits what follows EXPLAIN/ANALYZE into its options (`ANALYZE VERBOSE`, `FORMAT=JSON`,
 * Postgres' `(ANALYZE, FORMAT JSON)`) and the statement it explains.
 */
function explainOptions(tokens: SqlToken[]): { analyze: boolean; statement: SqlToken[] } {
  let analyze = false;
  let j = 0;
  const isAnalyze = (t: SqlToken) => keyword(t) === 'ANALYZE' || keyword(t) === 'ANALYSE';
  if (tokens[0]?.text === '(' && tokens[1] && EXPLAIN_OPTION_WORDS.has(keyword(tokens[1]))) {
    const depth = tokens[0].depth;
    for (j = 1; j < tokens.length && !(tokens[j].text === ')' && tokens[j].depth === depth); j++) {
      // `ANALYZE` or `ANALYZE true`; `ANALYZE false` / `off` turns it off.
      if (isAnalyze(tokens[j])) analyze = !['FALSE', 'OFF', '0'].includes(keyword(tokens[j + 1]) || (tokens[j + 1]?.text ?? ''));
    }
    j++;
  }
  while (j < tokens.length && (EXPLAIN_OPTION_WORDS.has(keyword(tokens[j])) || tokens[j].text === '=')) {
    if (isAnalyze(tokens[j])) analyze = true;
    j++;
  }
  return { analyze, statement: tokens.slice(j) };
}

/** Whether an explained statement is a read query (SELECT, WITH ... SELECT, VALUES; TABLE when `allowTable`). */
function explainedQueryReads(tokens: SqlToken[], dialect: SqlDialect, allowTable: boolean): boolean {
  let i = 0;
  while (i < tokens.length && tokens[i].text === '(') i++;
  const lead = keyword(tokens[i]);
  const query = lead === 'SELECT' || lead === 'WITH' || lead === 'VALUES' || (allowTable && lead === 'TABLE') || (dialect === 'duckdb' && lead === 'FROM');
  return query && !tokensMutate(tokens, dialect);
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
    // A count past 2^53 (MySQL's `LIMIT 18446744073709551615` idiom) is not rewritten as a rounded number.
    const count = countToken && countToken.kind === 'number' && /^\d+$/.test(countToken.text) && Number.isSafeInteger(Number(countToken.text)) ? Number(countToken.text) : null;
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
