import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QueryPool } from '../pool.ts';
import { createResultsBackend, readRows, type ResultsBackend } from '../results/results-backend.ts';
import { createPostgresDatabase, tempDir } from '../testing/test-databases.ts';

/**
 * Regression: every pool thread opened its own read-write DuckDB instance of the same file
 * (`DuckDBInstance.fromCache` caches per thread), so rows inserted through one thread were not
 * seen by a thread that had opened the file earlier, and two instances of one file in one process
 * can corrupt it. The pool now runs every DuckDB task on one dedicated thread.
 * The pool's worker here tags each result with the thread that ran it (testing/thread-worker.ts).
 */
const THREADS = 4;
const INSERTED = 250;

type Tagged = { ok: boolean; threadId?: number };

let tmp: ReturnType<typeof tempDir>;
let pool: QueryPool;
let backend: ResultsBackend;
let pgDb: Awaited<ReturnType<typeof createPostgresDatabase>>;
let uri: string;
let n = 0;
const qid = () => `one${++n}`;

function ok<T extends { ok: boolean }>(result: T, what: string): T {
  if (!result.ok) throw new Error(`${what} failed: ${JSON.stringify(result)}`);
  return result;
}

function threadOf(result: unknown): number {
  const id = (result as Tagged).threadId;
  if (typeof id !== 'number') throw new Error(`no threadId on ${JSON.stringify(result)}`);
  return id;
}

beforeAll(async () => {
  tmp = tempDir();
  uri = `duckdb:///${path.join(tmp.dir, 'shared.duckdb')}`;
  const results = { dir: path.join(tmp.dir, 'results'), maxBytes: 256 * 1024 * 1024, ttlSeconds: 3600 };
  pool = new QueryPool({ results, maxThreads: THREADS, maxQueue: 200, filename: new URL('../testing/thread-worker.ts', import.meta.url).href });
  backend = createResultsBackend(results);
  pgDb = await createPostgresDatabase();
}, 60_000);

afterAll(async () => {
  await pool?.close();
  await backend?.close();
  await pgDb?.drop();
  tmp?.remove();
});

describe('DuckDB tasks share one instance per file', () => {
  it('sees rows inserted through one task from every later run and metadata task, all on one thread', async () => {
    ok(await pool.run({ queryId: qid(), uri, sql: 'CREATE TABLE events (id INTEGER, label VARCHAR)' }), 'create');

    // Many concurrent DuckDB tasks, with PostgreSQL tasks beside them: with one pool of threads
    // these spread over every thread, each opening the file before the insert.
    const warm: Promise<unknown>[] = [];
    const pgRuns: Promise<unknown>[] = [];
    for (let i = 0; i < THREADS * 2; i++) {
      warm.push(pool.run({ queryId: qid(), uri, sql: 'SELECT count(*) AS c FROM events' }));
      warm.push(pool.metadata({ uri, what: 'tables', schema: 'main' }));
      pgRuns.push(pool.run({ queryId: qid(), uri: pgDb.uri, sql: 'SELECT pg_sleep(0.05) AS slept' }));
    }
    for (const result of await Promise.all(warm)) ok(result as Tagged, 'warm-up');
    for (const result of await Promise.all(pgRuns)) ok(result as Tagged, 'postgres run');

    const insert = ok(await pool.run({
      queryId: qid(), uri,
      sql: `INSERT INTO events SELECT i, 'event ' || i FROM range(${INSERTED}) t(i); CREATE TABLE events_copy AS SELECT * FROM events`,
    }), 'insert');

    // Read back concurrently, again with PostgreSQL tasks in between.
    const reads = [];
    const metas = [];
    for (let i = 0; i < THREADS * 2; i++) {
      reads.push(pool.run({ queryId: qid(), uri, sql: `SELECT count(*) AS c, sum(id) AS s FROM events -- ${i}` }));
      metas.push(pool.metadata({ uri, what: 'tables', schema: 'main' }));
      metas.push(pool.metadata({ uri, what: 'table', schema: 'main', table: 'events_copy' }));
      pgRuns.push(pool.run({ queryId: qid(), uri: pgDb.uri, sql: 'SELECT pg_sleep(0.05) AS slept' }));
    }
    const estimate = pool.estimate({ uri, schema: 'main', sql: 'SELECT * FROM events_copy' });
    const copyCount = pool.run({ queryId: qid(), uri, sql: 'SELECT count(*) AS c FROM events_copy' });

    const expected = [{ c: INSERTED, s: (INSERTED * (INSERTED - 1)) / 2 }];
    for (const read of await Promise.all(reads)) {
      const result = ok(read, 'read');
      if (!result.ok) continue;
      expect(JSON.parse(result.rowsJson ?? (await readRows(backend, result.resultsKey))!.json)).toEqual(expected);
    }
    const copy = ok(await copyCount, 'copy count');
    if (copy.ok) expect(JSON.parse(copy.rowsJson ?? (await readRows(backend, copy.resultsKey))!.json)).toEqual([{ c: INSERTED }]);
    const metaResults = await Promise.all(metas);
    for (const meta of metaResults) {
      const result = ok(meta, 'metadata');
      if (result.ok && result.what === 'tables') expect(result.tables.map((t) => t.name)).toEqual(['events', 'events_copy']);
      if (result.ok && result.what === 'table') expect(result.table.columns.map((c) => c.name)).toEqual(['id', 'label']);
    }
    ok(await estimate, 'estimate');
    const pgResults = await Promise.all(pgRuns);

    // Every DuckDB task ran on one thread; PostgreSQL tasks ran elsewhere.
    const warmResults = await Promise.all(warm);
    const duckThreads = new Set([...warmResults, insert, ...(await Promise.all(reads)), ...metaResults, await estimate, copy].map(threadOf));
    expect(duckThreads.size).toBe(1);
    const pgThreads = new Set(pgResults.map(threadOf));
    expect([...pgThreads].filter((id) => duckThreads.has(id))).toEqual([]);
  }, 120_000);
});
