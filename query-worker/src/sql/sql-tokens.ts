/** SQL dialect details the tokenizer needs: MySQL has `#` comments, backticks and backslash escapes; Postgres has `$tag$` strings. */
export type SqlDialect = 'postgresql' | 'mysql' | 'duckdb' | 'sqlite';

export type TokenKind = 'word' | 'number' | 'string' | 'quoted' | 'comment' | 'space' | 'punct';

export interface SqlToken {
  kind: TokenKind;
  text: string;
  start: number;
  end: number;
  /** Parenthesis depth at the token (0 = top level). */
  depth: number;
}

/**
 * Splits SQL into tokens that respect quotes, comments and dollar-quoted bodies, so callers can
 * find top-level keywords and `;` without being fooled by `'a;b'` or `-- LIMIT 5`.
 */
export function tokenize(sql: string, dialect: SqlDialect = 'postgresql'): SqlToken[] {
  const tokens: SqlToken[] = [];
  const n = sql.length;
  let i = 0;
  let depth = 0;
  const mysql = dialect === 'mysql';
  const push = (kind: TokenKind, start: number, end: number, d = depth) => {
    tokens.push({ kind, text: sql.slice(start, end), start, end, depth: d });
  };
  while (i < n) {
    const c = sql[i];
    const start = i;
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\f') {
      while (i < n && /\s/.test(sql[i])) i++;
      push('space', start, i);
    } else if ((c === '-' && sql[i + 1] === '-') || (mysql && c === '#')) {
      while (i < n && sql[i] !== '\n') i++;
      push('comment', start, i);
    } else if (c === '/' && sql[i + 1] === '*') {
      // Postgres nests block comments; the others do not.
      let nest = 1;
      i += 2;
      while (i < n && nest > 0) {
        if (sql[i] === '*' && sql[i + 1] === '/') {
          nest--;
          i += 2;
        } else if (dialect === 'postgresql' && sql[i] === '/' && sql[i + 1] === '*') {
          nest++;
          i += 2;
        } else i++;
      }
      push('comment', start, i);
    } else if (c === "'" || ((c === 'E' || c === 'e') && sql[i + 1] === "'" && dialect === 'postgresql')) {
      const backslash = mysql || c !== "'";
      i = c === "'" ? i + 1 : i + 2;
      while (i < n) {
        if (backslash && sql[i] === '\\') i += 2;
        else if (sql[i] === "'") {
          if (sql[i + 1] === "'") i += 2;
          else {
            i++;
            break;
          }
        } else i++;
      }
      push('string', start, i);
    } else if (c === '"' || c === '`' || (c === '[' && dialect === 'sqlite')) {
      const close = c === '[' ? ']' : c;
      i++;
      while (i < n) {
        if (sql[i] === close) {
          if (sql[i + 1] === close && close !== ']') i += 2;
          else {
            i++;
            break;
          }
        } else if (mysql && c === '"' && sql[i] === '\\') i += 2;
        else i++;
      }
      // In MySQL (without ANSI_QUOTES) "..." is a string.
      push(mysql && c === '"' ? 'string' : 'quoted', start, i);
    } else if (c === '$' && dialect !== 'mysql' && /^\$([A-Za-z_][A-Za-z0-9_]*)?\$/.test(sql.slice(i, i + 64))) {
      const tag = /^\$([A-Za-z_][A-Za-z0-9_]*)?\$/.exec(sql.slice(i, i + 64))![0];
      const close = sql.indexOf(tag, i + tag.length);
      i = close < 0 ? n : close + tag.length;
      push('string', start, i);
    } else if (/[0-9]/.test(c) || (c === '.' && /[0-9]/.test(sql[i + 1] ?? ''))) {
      while (i < n && /[0-9.]/.test(sql[i])) i++;
      if (i < n && (sql[i] === 'e' || sql[i] === 'E') && /[-+0-9]/.test(sql[i + 1] ?? '')) {
        i += 2;
        while (i < n && /[0-9]/.test(sql[i])) i++;
      }
      push('number', start, i);
    } else if (/[A-Za-z_\u0080-\uffff]/.test(c)) {
      while (i < n && /[A-Za-z0-9_$\u0080-\uffff]/.test(sql[i])) i++;
      push('word', start, i);
    } else {
      if (c === '(') {
        push('punct', start, ++i);
        depth++;
        continue;
      }
      if (c === ')') {
        depth = Math.max(0, depth - 1);
      }
      i++;
      push('punct', start, i);
    }
  }
  return tokens;
}

/** True for tokens that carry meaning (not whitespace or comments). */
export function isSignificant(token: SqlToken): boolean {
  return token.kind !== 'space' && token.kind !== 'comment';
}

/** Upper-cased keyword of a word token, or '' for anything else. */
export function keyword(token: SqlToken | undefined): string {
  return token && token.kind === 'word' ? token.text.toUpperCase() : '';
}
