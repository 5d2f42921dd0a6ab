import { createRequire } from 'node:module';
import type { Parser } from 'node-sql-parser';

/**
 * node-sql-parser's one-dialect builds, each loaded on first use. The package's main build loads
 * every dialect it knows (about 3 MB of parsers, a quarter of a second of a server's start); Meridian
 * parses in four. Server-side only (the client never parses SQL).
 */
const load = createRequire(import.meta.url);

const BUILDS = { PostgresQL: 'postgresql', MySQL: 'mysql', MariaDB: 'mariadb', Sqlite: 'sqlite' } as const;
export type ParserDatabase = keyof typeof BUILDS;

const parsers = new Map<ParserDatabase, Parser>();

/** The parser of one dialect; `astify(sql, { database })` with the same name. */
export function sqlParser(database: ParserDatabase): Parser {
  let parser = parsers.get(database);
  if (!parser) {
    const build = load(`node-sql-parser/build/${BUILDS[database]}`) as { Parser: new () => Parser };
    parser = new build.Parser();
    parsers.set(database, parser);
  }
  return parser;
}
