import { afterAll, describe, expect, it } from 'vitest';
import { QueueFullError } from './pool.ts';
import { createResultsBackend, readRows } from './results/results-backend.ts';
import { createPostgresDatabase, testPool } from './testing/test-databases.ts';
import type { RunResult } from './types.ts';

const made = testPool({}, 1, 1);
afterAll(() => made.cleanup());

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
      expect((await readRows(backend, big.resultsKey))!.json).toBe('[{"i":0,"label":"row 0","big":9007199254740993},{"i":1,"label":"row 1","big":9007199254740993}]');
      await backend.delete(big.resultsKey);
    } finally {
      await backend.close();
    }
  });

  it('says false when stopping a query it does not run', async () => {
    expect(await made.pool.stop('nope')).toBe(false);
  });
});
