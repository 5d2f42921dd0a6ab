import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { TIME_GRAINS, timeGrainExpression, type TimeGrain } from './engine-spec.ts';
import { getEngineSpec } from './registry.ts';
import { createResultsBackend, readRows } from '../results/results-backend.ts';
import { createMysqlDatabase, createPostgresDatabase, ok, tempDir, testPool } from '../testing/test-databases.ts';

const made = testPool({}, 2);
const backend = createResultsBackend(made.results);
const tmp = tempDir();
afterAll(async () => {
  await backend.close();
  await made.cleanup();
  tmp.remove();
});

/**
 * Every grain applied to Wednesday 2024-03-13 14:37:52, computed by hand. Superset's week (P1W)
 * starts on Monday on PostgreSQL and DuckDB and on Sunday on MySQL and SQLite (their engine specs);
 * 7 days (P7D) are 7-day buckets counted from 1970-01-01 (a Thursday), as Druid's period grain.
 */
const COMMON: Record<Exclude<TimeGrain, 'P1W'>, string> = {
  PT1S: '2024-03-13 14:37:52',
  PT5S: '2024-03-13 14:37:50',
  PT30S: '2024-03-13 14:37:30',
  PT1M: '2024-03-13 14:37:00',
  PT5M: '2024-03-13 14:35:00',
  PT10M: '2024-03-13 14:30:00',
  PT15M: '2024-03-13 14:30:00',
  PT30M: '2024-03-13 14:30:00',
  PT1H: '2024-03-13 14:00:00',
  PT6H: '2024-03-13 12:00:00',
  P1D: '2024-03-13 00:00:00',
  P7D: '2024-03-07 00:00:00',
  P1M: '2024-03-01 00:00:00',
  P3M: '2024-01-01 00:00:00',
  P1Y: '2024-01-01 00:00:00',
  '1969-12-28T00:00:00Z/P1W': '2024-03-10 00:00:00',
  '1969-12-29T00:00:00Z/P1W': '2024-03-11 00:00:00',
  'P1W/1970-01-03T00:00:00Z': '2024-03-16 00:00:00',
  'P1W/1970-01-04T00:00:00Z': '2024-03-17 00:00:00',
};
let queryNumber = 0;
const MONDAY = '2024-03-11 00:00:00';
const SUNDAY = '2024-03-10 00:00:00';

/** A serialised timestamp or date (ISO text, with or without time, `T` or space, fraction, Z) as `YYYY-MM-DD HH:MM:SS`. */
function normalise(value: unknown): string {
  if (typeof value === 'number') return new Date(value).toISOString().slice(0, 19).replace('T', ' ');
  const text = String(value).replace('T', ' ').replace(/Z$/, '').replace(/\.0+$/, '');
  return /^\d{4}-\d{2}-\d{2}$/.test(text) ? `${text} 00:00:00` : text;
}

/** Runs one SELECT with a column per grain over a one-row table holding the timestamp. */
async function truncated(uri: string, from: string): Promise<Record<string, string>> {
  const spec = getEngineSpec(uri);
  queryNumber++;
  const columns = TIME_GRAINS.map((grain) => `${timeGrainExpression(spec, grain, 'ts')} AS ${spec.quoteIdentifier(grain)}`);
  const result = ok(await made.pool.run({ queryId: `grains_${spec.backend}_${queryNumber}`, uri, sql: `SELECT ${columns.join(',\n  ')}\nFROM ${from}`, inlineMaxBytes: 100_000 }));
  const json = result.rowsJson ?? (await readRows(backend, result.resultsKey))!.json;
  const [row] = JSON.parse(json) as Record<string, unknown>[];
  return Object.fromEntries(Object.entries(row).map(([grain, value]) => [grain, normalise(value)]));
}

function expected(week: string): Record<string, string> {
  return Object.fromEntries(TIME_GRAINS.map((grain) => [grain, grain === 'P1W' ? week : COMMON[grain]]));
}

const WEEK_GRAINS = ['P7D', '1969-12-28T00:00:00Z/P1W', '1969-12-29T00:00:00Z/P1W', 'P1W/1970-01-03T00:00:00Z', 'P1W/1970-01-04T00:00:00Z'] as const;
/** The week grains at the edges of a week: Saturday 2024-03-16 00:00:00 and Sunday 2024-03-17 23:59:59. */
const EDGES: { ts: string; weeks: string[] }[] = [
  { ts: '2024-03-16 00:00:00', weeks: ['2024-03-14', '2024-03-10', '2024-03-11', '2024-03-16', '2024-03-17'] },
  { ts: '2024-03-17 23:59:59', weeks: ['2024-03-14', '2024-03-17', '2024-03-11', '2024-03-23', '2024-03-17'] },
];

/** Checks the week grains at the edges, with `from(ts)` the engine's one-row table. */
async function checkEdges(uri: string, from: (ts: string) => string): Promise<void> {
  for (const edge of EDGES) {
    const got = await truncated(uri, from(edge.ts));
    expect([edge.ts, WEEK_GRAINS.map((g) => got[g])]).toEqual([edge.ts, edge.weeks.map((d) => `${d} 00:00:00`)]);
  }
}

describe('time grains on the real engines (2024-03-13 14:37:52, a Wednesday, and the edges of a week)', () => {
  it('lists 7 days (P7D) beside week, as spec 01 §9 does', () => {
    expect(TIME_GRAINS).toContain('P7D');
    expect(TIME_GRAINS).toContain('P1W');
  });

  it('PostgreSQL', async () => {
    const db = await createPostgresDatabase();
    try {
      const from = (ts: string) => `(SELECT TIMESTAMP '${ts}' AS ts) AS t`;
      expect(await truncated(db.uri, from('2024-03-13 14:37:52'))).toEqual(expected(MONDAY));
      await checkEdges(db.uri, from);
    } finally {
      await db.drop();
    }
  });

  it('MariaDB', async () => {
    const db = await createMysqlDatabase();
    try {
      const from = (ts: string) => `(SELECT CAST('${ts}' AS DATETIME) AS ts) AS t`;
      expect(await truncated(db.uri, from('2024-03-13 14:37:52'))).toEqual(expected(SUNDAY));
      await checkEdges(db.uri, from);
    } finally {
      await db.drop();
    }
  });

  it('DuckDB', async () => {
    const from = (ts: string) => `(SELECT TIMESTAMP '${ts}' AS ts) AS t`;
    expect(await truncated('duckdb:///:memory:', from('2024-03-13 14:37:52'))).toEqual(expected(MONDAY));
    await checkEdges('duckdb:///:memory:', from);
  });

  it('SQLite', async () => {
    const file = path.join(tmp.dir, 'grains.db');
    new Database(file).close();
    const from = (ts: string) => `(SELECT '${ts}' AS ts) AS t`;
    expect(await truncated(`sqlite:///${file}`, from('2024-03-13 14:37:52'))).toEqual(expected(SUNDAY));
    await checkEdges(`sqlite:///${file}`, from);
  });
});
