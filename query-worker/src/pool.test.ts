import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { QueueFullError } from './pool.ts';
import { createResultsBackend, readRows } from './results/results-backend.ts';
import { cancelIdWatcher, createPostgresDatabase, failed, ok, testPool } from './testing/test-databases.ts';
import type { RunResult } from './types.ts';

const made = testPool({}, 1, 1);
/** One thread with room to queue: a long query holds the thread while others wait. */
const single = testPool({}, 1, 4);
afterAll(() => Promise.all([made.cleanup(), single.cleanup()]));

/** Rows of `marker` in a database: what queued INSERTs would have left had they run. */
async function markerRows(uri: string): Promise<number[]> {
  const client = new pg.Client({ connectionString: uri });
  await client.connect();
  try {
    return (await client.query<{ n: number }>('SELECT n FROM marker ORDER BY n')).rows.map((r) => r.n);
  } finally {
    await client.end();
  }
}

/** Starts `SELECT pg_sleep(60)` on the single thread; resolves once it is on the database. */
async function occupyThread(uri: string, queryId: string): Promise<{ run: Promise<RunResult> }> {
  const watcher = cancelIdWatcher();
  const run = single.pool.run({ queryId, uri, sql: 'SELECT pg_sleep(60)' }, { onEvent: watcher.onEvent });
  await watcher.cancelId;
  return { run };
}

describe('QueryPool', () => {
  it('rejects with ASYNC_WORKERS_ERROR when the queue is full, and runs the queued ones', async () => {
    const db = await createPostgresDatabase();
    try {
      const accepted: Promise<RunResult>[] = [];
      let rejection: unknown = null;
      for (let i = 0; i < 4 && !rejection; i++) {
        const run = made.pool.run({ queryId: `sleep${i}`, uri: db.uri, sql: 'SELECT pg_sleep(0.5) AS slept' });
        // A full queue rejects synchronously-ish: give it a tick.
        const settled = await Promise.race([run.then(() => 'done', (e) => e), new Promise((r) => setTimeout(() => r('pending'), 50))]);
        if (settled instanceof Error) rejection = settled;
        else accepted.push(run);
      }
      expect(rejection).toBeInstanceOf(QueueFullError);
      expect(rejection).toMatchObject({ errorType: 'ASYNC_WORKERS_ERROR', message: 'The query queue is full: too many queries are running. Try again shortly.' });
      expect((rejection as QueueFullError).error.extra.issue_codes).toEqual([{ code: 1035, message: 'Issue 1035 - Failed to start remote query on a worker.' }]);
      expect(accepted.length).toBeGreaterThanOrEqual(1);
      for (const result of await Promise.all(accepted)) expect(result.ok).toBe(true);
    } finally {
      await db.drop();
    }
  });

  it('returns a small result inline (nothing stored) and pages one past inlineMaxBytes', async () => {
    const backend = createResultsBackend(made.results);
    try {
      const sql = "SELECT i, 'row ' || i AS label, 9007199254740993 AS big FROM range(3) t(i) ORDER BY i";
      const small = await made.pool.run({ queryId: 'inline1', uri: 'duckdb:///:memory:', sql, inlineMaxBytes: 1000 });
      if (!small.ok) throw new Error(small.message);
      expect(small.rowsJson).toBe('[{"i":0,"label":"row 0","big":9007199254740993},{"i":1,"label":"row 1","big":9007199254740993},{"i":2,"label":"row 2","big":9007199254740993}]');
      expect(small).toMatchObject({ rowCount: 3, pageCount: 0, limitingFactor: 'NOT_LIMITED' });
      expect(small.columns.map((c) => c.name)).toEqual(['i', 'label', 'big']);
      expect(await backend.getMeta(small.resultsKey)).toBeNull();

      const big = await made.pool.run({ queryId: 'inline2', uri: 'duckdb:///:memory:', sql, inlineMaxBytes: 60, limit: 2 });
      if (!big.ok) throw new Error(big.message);
      expect(big.rowsJson).toBeUndefined();
      expect(big).toMatchObject({ rowCount: 2, hasMoreRows: true, limitingFactor: 'DROPDOWN' });
      expect((await readRows(backend, big.resultsKey))!.json).toBe('[{"i":0,"label":"row 0","big":9007199254740993},\n{"i":1,"label":"row 1","big":9007199254740993}]');
      await backend.delete(big.resultsKey);
    } finally {
      await backend.close();
    }
  });

  it('says false when stopping a query it does not run', async () => {
    expect(await made.pool.stop('nope')).toBe(false);
  });

  it('stops a query still waiting for a thread at once, and it never runs on the database', async () => {
    const db = await createPostgresDatabase();
    try {
      ok(await single.pool.run({ queryId: 'mkmarker1', uri: db.uri, sql: 'CREATE TABLE marker (n int)' }));
      const { run: long } = await occupyThread(db.uri, 'long1');
      const queued = single.pool.run({ queryId: 'queued1', uri: db.uri, sql: 'INSERT INTO marker VALUES (1)' });
      expect(single.pool.isRunning('queued1')).toBe(true);

      expect(await single.pool.stop('queued1')).toBe(true);
      expect(failed(await queued)).toMatchObject({ status: 'stopped', message: 'The query was stopped.' });
      // Answered while the thread is still busy with the long query.
      expect(single.pool.isRunning('long1')).toBe(true);
      expect(single.pool.isRunning('queued1')).toBe(false);

      expect(await single.pool.stop('long1')).toBe(true);
      expect((await long).status).toBe('stopped');
      // One thread, first in first out: by the time this runs, the thread has had the stopped task.
      ok(await single.pool.run({ queryId: 'after1', uri: db.uri, sql: 'SELECT 1' }));
      expect(await markerRows(db.uri)).toEqual([]);
    } finally {
      await db.drop();
    }
  });

  it('counts the timeout from submission: a query queued past it times out without running', async () => {
    const db = await createPostgresDatabase();
    try {
      ok(await single.pool.run({ queryId: 'mkmarker2', uri: db.uri, sql: 'CREATE TABLE marker (n int)' }));
      const { run: long } = await occupyThread(db.uri, 'long2');
      const queued = failed(await single.pool.run({ queryId: 'queued2', uri: db.uri, sql: 'INSERT INTO marker VALUES (2)', timeoutMs: 300 }));
      expect(queued).toMatchObject({ status: 'timed_out', errorType: 'SQLLAB_TIMEOUT_ERROR' });
      expect(queued.message).toBe('The query was killed after 0.3 seconds. It might be too complex, or the database might be under heavy load.');
      expect(single.pool.isRunning('long2')).toBe(true);

      await single.pool.stop('long2');
      expect((await long).status).toBe('stopped');
      ok(await single.pool.run({ queryId: 'after2', uri: db.uri, sql: 'SELECT 1' }));
      expect(await markerRows(db.uri)).toEqual([]);
    } finally {
      await db.drop();
    }
  });
});
