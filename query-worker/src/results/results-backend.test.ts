import path from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { createResultsBackend, readRows, readRowsChunks } from './results-backend.ts';
import { PageBufferPool } from './page-buffers.ts';
import { DiskResultsStore } from './disk-store.ts';
import { serializeValue } from './serialize.ts';
import { createPostgresDatabase, randomName, REDIS_URL, tempDir, testPool } from '../testing/test-databases.ts';
import type { ResultMeta, ResultsBackendOptions } from '../types.ts';

const tmp = tempDir();
afterAll(() => tmp.remove());

describe('serializeValue', () => {
  it('keeps integers beyond 2^53 exact and serialises dates, buffers and nested values', () => {
    expect(serializeValue(9007199254740993n)).toBe('9007199254740993');
    expect(serializeValue(new Date('2024-01-02T03:04:05Z'))).toBe('"2024-01-02T03:04:05.000Z"');
    expect(serializeValue(Buffer.from([0, 255]))).toBe('"\\\\x00ff"');
    expect(serializeValue([1n, null, 'a'])).toBe('[1,null,"a"]');
    expect(serializeValue(Number.NaN)).toBe('null');
    expect(serializeValue('line\nbreak')).toBe('"line\\nbreak"');
  });
});

/** Pages a 200,000-row result through the pool into `results`, then reads slices across page boundaries. */
async function pageLargeResult(results: Partial<ResultsBackendOptions>, uri: string, sql: string) {
  const { pool, results: options, cleanup } = testPool(results, 1);
  const backend = createResultsBackend(options);
  try {
    const run = await pool.run({ queryId: randomName('q'), uri, sql, limit: 250_000, pageRows: 10_000 });
    if (!run.ok) throw new Error(run.message);
    expect(run).toMatchObject({ rowCount: 200_000, pageCount: 20, limitingFactor: 'NOT_LIMITED' });
    const first = await readRows(backend, run.resultsKey, 0, 3);
    expect(JSON.parse(first!.json)).toEqual([{ i: 0, label: 'row 0' }, { i: 1, label: 'row 1' }, { i: 2, label: 'row 2' }]);
    const across = await readRows(backend, run.resultsKey, 9_998, 4);
    expect(JSON.parse(across!.json).map((r: { i: number }) => r.i)).toEqual([9_998, 9_999, 10_000, 10_001]);
    const tail = await readRows(backend, run.resultsKey, 199_999, 100);
    expect(tail!.rowCount).toBe(1);
    expect(JSON.parse(tail!.json)).toEqual([{ i: 199_999, label: 'row 199999' }]);
    const all = await readRows(backend, run.resultsKey);
    expect(all!.rowCount).toBe(200_000);
    expect(JSON.parse(all!.json)).toHaveLength(200_000);
    await backend.delete(run.resultsKey);
    expect(await readRows(backend, run.resultsKey)).toBeNull();
  } finally {
    await cleanup();
    await backend.close();
  }
}

describe('results backends page a 200k-row result', () => {
  it('on disk (from DuckDB)', async () => {
    await pageLargeResult({ dir: path.join(tmp.dir, 'disk') }, 'duckdb:///:memory:', "SELECT i, 'row ' || i AS label FROM range(200000) t(i) ORDER BY i");
  });

  it('in Redis (from PostgreSQL via COPY)', async () => {
    const db = await createPostgresDatabase();
    const prefix = `${randomName()}:`;
    try {
      await pageLargeResult({ redisUrl: REDIS_URL, keyPrefix: prefix }, db.uri, "SELECT i, 'row ' || i AS label FROM generate_series(0, 199999) i ORDER BY i");
    } finally {
      await db.drop();
      const redis = new Redis(REDIS_URL);
      const keys = await redis.keys(`${prefix}*`);
      expect(keys).toEqual([]);
      await redis.quit();
    }
  });
});

describe('disk store bounds', () => {
  const meta = (key: string, bytes: number): ResultMeta => ({ version: 1, queryId: key, columns: [], rowCount: 1, pageCount: 1, pageRowCounts: [1], bytes, limit: null, limitingFactor: 'NOT_LIMITED', executedSql: 'SELECT 1', createdAt: Date.now() });

  it('evicts the least recently read results past maxBytes', async () => {
    const store = new DiskResultsStore({ dir: path.join(tmp.dir, 'lru'), maxBytes: 5_000, ttlSeconds: 3600 });
    const page = Buffer.alloc(2_000, 'x');
    for (const key of ['a', 'b']) {
      await store.putPage(key, 0, page);
      await store.putMeta(key, meta(key, 2_000));
      await new Promise((r) => setTimeout(r, 20));
    }
    // Reading `a` makes `b` the least recently used.
    expect(await store.getMeta('a')).not.toBeNull();
    await new Promise((r) => setTimeout(r, 20));
    await store.putPage('c', 0, page);
    await store.putMeta('c', meta('c', 2_000));
    expect(await store.getMeta('b')).toBeNull();
    expect(await store.getMeta('a')).not.toBeNull();
    expect(await store.getMeta('c')).not.toBeNull();
  });

  it('expires results after the TTL', async () => {
    const store = new DiskResultsStore({ dir: path.join(tmp.dir, 'ttl'), maxBytes: 1e9, ttlSeconds: 1 });
    await store.putPage('k', 0, Buffer.from('{"a":1}'));
    await store.putMeta('k', { ...meta('k', 7), createdAt: Date.now() - 2_000 });
    expect(await store.getMeta('k')).toBeNull();
    expect(await store.getPage('k', 0)).toBeNull();
  });
});

describe('page formats', () => {
  it('reads results written before rows were separated by ",\\n" (version 1, newline only) as well as current ones', async () => {
    const store = new DiskResultsStore({ dir: path.join(tmp.dir, 'formats'), maxBytes: 1e9, ttlSeconds: 3600 });
    const base = { queryId: 'q', columns: [], rowCount: 4, pageCount: 2, pageRowCounts: [3, 1], bytes: 0, limit: null, limitingFactor: 'NOT_LIMITED' as const, executedSql: 'SELECT', createdAt: Date.now() };
    await store.putPage('v1', 0, Buffer.from('{"a":1}\n{"a":2}\n{"a":3}'));
    await store.putPage('v1', 1, Buffer.from('{"a":4}'));
    await store.putMeta('v1', { ...base, version: 1 });
    await store.putPage('v2', 0, Buffer.from('{"a":1},\n{"a":2},\n{"a":3}'));
    await store.putPage('v2', 1, Buffer.from('{"a":4}'));
    await store.putMeta('v2', { ...base, version: 2 });
    for (const key of ['v1', 'v2']) {
      expect(JSON.parse((await readRows(store, key))!.json)).toEqual([{ a: 1 }, { a: 2 }, { a: 3 }, { a: 4 }]);
      expect(JSON.parse((await readRows(store, key, 1, 1))!.json)).toEqual([{ a: 2 }]);
      expect(JSON.parse((await readRows(store, key, 1, 3))!.json)).toEqual([{ a: 2 }, { a: 3 }, { a: 4 }]);
    }
  });
});

describe('page buffers', () => {
  it('lends a block to one request at a time, takes it back on release, and gives an oversized page a buffer of its own', () => {
    const pool = new PageBufferPool(1024, 4);
    const first = pool.lease();
    const a = first.take(100);
    const big = first.take(5000);
    expect(big.length).toBeGreaterThanOrEqual(5000);
    const second = pool.lease();
    expect(second.take(100)).not.toBe(a);
    first.release();
    expect(pool.lease().take(10)).toBe(a);
    expect(pool.lease().take(10)).not.toBe(big);
  });

  it('serves slices read into lent buffers exactly like fresh ones', async () => {
    const store = new DiskResultsStore({ dir: path.join(tmp.dir, 'lent'), maxBytes: 1e9, ttlSeconds: 3600 });
    const rows = Array.from({ length: 7 }, (_, i) => `{"i":${i},"s":"${'x'.repeat(i * 300)}"}`);
    await store.putPage('k', 0, Buffer.from(rows.slice(0, 4).join(',\n')));
    await store.putPage('k', 1, Buffer.from(rows.slice(4).join(',\n')));
    await store.putMeta('k', { version: 2, queryId: 'k', columns: [], rowCount: 7, pageCount: 2, pageRowCounts: [4, 3], bytes: 0, limit: null, limitingFactor: 'NOT_LIMITED', executedSql: 'SELECT', createdAt: Date.now() });
    const pool = new PageBufferPool(2048, 4);
    for (const [offset, limit] of [[0, null], [2, 3], [5, 10]] as const) {
      const buffers = pool.lease();
      const lent = await readRowsChunks(store, 'k', offset, limit, buffers);
      const fresh = await readRowsChunks(store, 'k', offset, limit);
      expect(Buffer.concat(lent!.chunks).toString()).toBe(Buffer.concat(fresh!.chunks).toString());
      expect(JSON.parse(Buffer.concat(lent!.chunks).toString()).map((r: { i: number }) => r.i)).toEqual(Array.from({ length: 7 }, (_, i) => i).slice(offset, limit == null ? 7 : offset + limit));
      buffers.release();
    }
    expect(await store.readPage('missing', 0, pool.lease())).toBeNull();
  });
});
