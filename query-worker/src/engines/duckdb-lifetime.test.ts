import path from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QueryPool } from '../pool.ts';
import { createResultsBackend, readRows, type ResultsBackend } from '../results/results-backend.ts';
import { tempDir } from '../testing/test-databases.ts';
import type { RunResult } from '../types.ts';
import { duckdbSpec } from './duckdb.ts';

/**
 * Regression: SQL Lab's 100k-row runs on the examples file, with metadata and estimate tasks and
 * stops in between, failed with "Unique file handle conflict: Cannot attach ..." and could take
 * the process down, because a thread's DuckDB instance was garbage-collected while its connection
 * still ran, and the next task reopened the file while DuckDB was shutting the old one down.
 * The pool's threads here collect garbage every few milliseconds (testing/gc-worker.ts).
 */
const THREADS = 3;
const ROWS = 20_000;

let tmp: ReturnType<typeof tempDir>;
let pool: QueryPool;
let backend: ResultsBackend;
let uri: string;
let n = 0;
const qid = () => `life${++n}`;

function expectOk(result: { ok: boolean }, what: string): void {
  if (!result.ok) throw new Error(`${what} failed: ${JSON.stringify(result)}`);
}

beforeAll(async () => {
  tmp = tempDir();
  const file = path.join(tmp.dir, 'examples.duckdb');
  uri = `duckdb:///${file}`;
  const results = { dir: path.join(tmp.dir, 'results'), maxBytes: 1024 * 1024 * 1024, ttlSeconds: 3600 };
  pool = new QueryPool({ results, maxThreads: THREADS, maxQueue: 200, filename: new URL('../testing/gc-worker.ts', import.meta.url).href });
  backend = createResultsBackend(results);
  expectOk(await pool.run({
    queryId: 'setup', uri,
    sql: `CREATE TABLE cleaned_sales_data AS SELECT i AS id, 'customer ' || (i % 997) AS customer, i * 1.25 AS amount, TIMESTAMP '2024-01-01' + i * INTERVAL 1 MINUTE AS ts
          FROM range(${ROWS}) t(i); SELECT 1`,
  }), 'setup');
}, 120_000);

afterAll(async () => {
  await pool?.close();
  await backend?.close();
  tmp?.remove();
});

describe('DuckDB instance lifetime in one thread', () => {
  it('reopens a file while a connection from an earlier, unreferenced open still runs', async () => {
    v8.setFlagsFromString('--expose-gc');
    const gc = vm.runInNewContext('gc') as () => void;
    const first = await duckdbSpec.connect({ uri });
    // Nothing in JS refers to the instance `first` came from any more; collect it.
    for (let i = 0; i < 3; i++) {
      gc();
      await new Promise((r) => setImmediate(r));
    }
    // Before the fix DuckDB busy-spun here until `first` closed, then failed with
    // "Unique file handle conflict" (or took the process down). The bound only detects that hang.
    const second = duckdbSpec.connect({ uri });
    const outcome = await Promise.race([second.then(() => 'opened', (e: unknown) => `failed: ${String(e)}`), new Promise((r) => setTimeout(() => r('hung'), 20_000))]);
    await first.close();
    const late = await second.catch(() => null);
    await late?.close();
    expect(outcome).toBe('opened');
  }, 60_000);
});

describe('DuckDB instance lifetime across the pool', () => {
  it('runs many concurrent reads, metadata and estimates on one file across all threads, with stops in between', async () => {
    for (let round = 0; round < 4; round++) {
      const runs: Promise<RunResult>[] = [];
      const stoppedIds: string[] = [];
      for (let i = 0; i < THREADS; i++) {
        runs.push(pool.run({ queryId: qid(), uri, schema: 'main', limit: ROWS, sql: `SELECT * FROM cleaned_sales_data -- ${round}.${i}` }));
      }
      // A run stopped while it streams, and one stopped before it starts.
      const stopLater = qid();
      runs.push(pool.run({ queryId: stopLater, uri, limit: ROWS, sql: 'SELECT * FROM cleaned_sales_data a, range(50) b ORDER BY b.range DESC, a.id' }));
      stoppedIds.push(stopLater);
      const stopNow = qid();
      runs.push(pool.run({ queryId: stopNow, uri, limit: ROWS, sql: 'SELECT * FROM cleaned_sales_data' }));
      stoppedIds.push(stopNow);
      void pool.stop(stopNow);
      const others = [
        pool.metadata({ uri, what: 'schemas' }),
        pool.metadata({ uri, what: 'tables', schema: 'main' }),
        pool.metadata({ uri, what: 'table', schema: 'main', table: 'cleaned_sales_data' }),
        pool.estimate({ uri, schema: 'main', sql: 'SELECT * FROM cleaned_sales_data' }),
      ];
      setTimeout(() => void pool.stop(stopLater), 30 * round);
      for (const result of await Promise.all(others)) expectOk(result, `round ${round} metadata/estimate`);
      const settled = await Promise.all(runs);
      settled.forEach((result, i) => {
        const id = i < THREADS ? null : stoppedIds[i - THREADS];
        if (id && !result.ok) expect(result.status, `round ${round} ${id}: ${JSON.stringify(result)}`).toBe('stopped');
        else expectOk(result, `round ${round} run ${i}`);
      });
      for (const result of settled.slice(0, THREADS)) {
        if (!result.ok) continue;
        expect(result.rowCount).toBe(ROWS);
        await backend.delete(result.resultsKey);
      }
    }
    // The threads still answer, and see the file's data.
    const last = await pool.run({ queryId: qid(), uri, sql: 'SELECT count(*) AS c FROM cleaned_sales_data' });
    expectOk(last, 'last run');
    if (last.ok) expect(JSON.parse((await readRows(backend, last.resultsKey))!.json)).toEqual([{ c: ROWS }]);
  }, 300_000);
});

describe('DuckDB stop, then the pool closes', () => {
  it('acknowledges a stop only once DuckDB has ended the statement, so closing the pool does not abort the process', async () => {
    const dir = tempDir();
    const results = { dir: path.join(dir.dir, 'results'), maxBytes: 64 * 1024 * 1024, ttlSeconds: 3600 };
    const closing = new QueryPool({ results, maxThreads: 2 });
    try {
      const started: Promise<void>[] = [];
      const runs = [0, 1].map((i) => {
        let onStart!: () => void;
        started.push(new Promise<void>((r) => (onStart = r)));
        return closing.run(
          { queryId: `closing${i}`, uri, limit: 1000, sql: 'SELECT count(*) FROM range(100000000) a, range(100000) b WHERE a.range + b.range = -1' },
          { onEvent: (event) => event.type === 'progress' && onStart() },
        ).then((result) => (result.ok ? 'succeeded' : result.status), (error: unknown) => `rejected: ${String(error)}`);
      });
      await Promise.all(started);
      await new Promise((r) => setTimeout(r, 300));
      // Stops both (DuckDB interrupt), then terminates the threads. Before the fix the stop was
      // acknowledged at interrupt() and the process aborted with a Napi::Error here.
      await closing.close();
      for (const outcome of await Promise.all(runs)) expect(outcome).not.toBe('succeeded');
    } finally {
      dir.remove();
    }
  }, 60_000);
});

