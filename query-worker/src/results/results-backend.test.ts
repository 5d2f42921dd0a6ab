import { rm } from 'node:fs/promises';
import path from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { createResultsBackend, openRows, readRows } from './results-backend.ts';
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

  it('looks over the directory once a tenth of maxBytes was written, not after every result', async () => {
    const store = new DiskResultsStore({ dir: path.join(tmp.dir, 'scans'), maxBytes: 100_000, ttlSeconds: 3600 });
    let scans = 0;
    const evict = store.evict.bind(store);
    store.evict = async () => {
      scans++;
      await evict();
    };
    const page = Buffer.alloc(1_000, 'x');
    for (let i = 0; i < 25; i++) {
      await store.putPage(`k${i}`, 0, page);
      await store.putMeta(`k${i}`, meta(`k${i}`, 1_000));
    }
    // The first result looks (nothing was looked at yet), then every 10,000 bytes written.
    expect(scans).toBe(3);
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

/** Leases from `pool`, counting those not yet given back (and the most at once). */
function countingLeases(pool: PageBufferPool) {
  const counts = {
    lent: 0,
    mostLent: 0,
    lease: () => {
      const buffers = pool.lease();
      let given = false;
      counts.lent++;
      counts.mostLent = Math.max(counts.mostLent, counts.lent);
      return {
        take: buffers.take,
        release: () => {
          if (!given) counts.lent--;
          given = true;
          buffers.release();
        },
      };
    },
  };
  return counts;
}

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

  it('streams slices read into lent buffers exactly like fresh ones, two pages lent at most, all given back', async () => {
    const store = new DiskResultsStore({ dir: path.join(tmp.dir, 'lent'), maxBytes: 1e9, ttlSeconds: 3600 });
    const rows = Array.from({ length: 10 }, (_, i) => `{"i":${i},"s":"${'x'.repeat(i * 300)}"}`);
    const pageRowCounts = [4, 3, 2, 1];
    for (let page = 0, at = 0; page < pageRowCounts.length; at += pageRowCounts[page], page++) await store.putPage('k', page, Buffer.from(rows.slice(at, at + pageRowCounts[page]).join(',\n')));
    await store.putMeta('k', { version: 2, queryId: 'k', columns: [], rowCount: 10, pageCount: 4, pageRowCounts, bytes: 0, limit: null, limitingFactor: 'NOT_LIMITED', executedSql: 'SELECT', createdAt: Date.now() });
    const pool = new PageBufferPool(16_384, 8);
    const counting = countingLeases(pool);
    const slices = [[0, null], [2, 3], [5, 10], [3, 5], [1, null]] as const;
    const send = async ([offset, limit]: (typeof slices)[number]) => {
      const stream = await openRows(store, 'k', offset, limit, counting);
      const sent: string[] = [];
      await stream!.pipe(async (chunk) => {
        // Another request takes a block meanwhile and fills it: were the page's block back in the pool already, it would be this one.
        const other = pool.lease();
        other.take(1).fill('#');
        other.release();
        await new Promise((r) => setTimeout(r, 1));
        sent.push(chunk.toString());
      });
      const fresh = await readRows(store, 'k', offset, limit);
      expect(sent.join('')).toBe(fresh!.json);
      const expected = Array.from({ length: 10 }, (_, i) => i).slice(offset, limit == null ? 10 : offset + limit);
      expect(JSON.parse(sent.join('')).map((r: { i: number }) => r.i)).toEqual(expected);
      expect(stream!.rowCount).toBe(expected.length);
    };
    for (const slice of slices) await send(slice);
    expect(counting.lent).toBe(0);
    expect(counting.mostLent).toBe(2);
    // Several answers at once share the pool's blocks.
    await Promise.all(slices.map(send));
    expect(counting.lent).toBe(0);
    expect(await store.readPage('missing', 0, pool.lease())).toBeNull();
  });

  it('gives every buffer back when the writer fails half way, and fails when a page goes missing while streaming', async () => {
    const store = new DiskResultsStore({ dir: path.join(tmp.dir, 'abandoned'), maxBytes: 1e9, ttlSeconds: 3600 });
    for (let page = 0; page < 3; page++) await store.putPage('k', page, Buffer.from(`{"p":${page}}`));
    await store.putMeta('k', { version: 2, queryId: 'k', columns: [], rowCount: 3, pageCount: 3, pageRowCounts: [1, 1, 1], bytes: 0, limit: null, limitingFactor: 'NOT_LIMITED', executedSql: 'SELECT', createdAt: Date.now() });
    const counting = countingLeases(new PageBufferPool(64, 8));
    let writes = 0;
    const stream = await openRows(store, 'k', 0, null, counting);
    await expect(stream!.pipe(async () => { if (++writes === 3) throw new Error('client went away'); })).rejects.toThrow('client went away');
    await new Promise((r) => setTimeout(r, 10));
    expect(counting.lent).toBe(0);

    const again = await openRows(store, 'k', 0, null, counting);
    await rm(path.join(tmp.dir, 'abandoned'), { recursive: true, force: true });
    await expect(again!.pipe(async () => undefined)).rejects.toThrow(/missing/);
    expect(counting.lent).toBe(0);
    expect(await openRows(store, 'k')).toBeNull();
  });
});
