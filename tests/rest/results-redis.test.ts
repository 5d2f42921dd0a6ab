import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app';
import { bearer, clientId, registerDatabase, waitFor } from './sqllab.helpers';

/** Redis database used only by this file: its keys never meet another test's. Cleaned after. */
const REDIS_URL = 'redis://127.0.0.1:6379/12';
const PREFIX = 'meridian:results:';
const GONE = 'Data could not be retrieved from the results backend. You need to re-run the original query.';

describe('SQL Lab results on Redis (REDIS_URL)', () => {
  let t: TestApp;
  let short: TestApp;
  let admin: string;
  let dir: string;
  let duck: number;
  let redis: Redis;

  beforeAll(async () => {
    redis = new Redis(REDIS_URL);
    t = await startTestApp({ env: { REDIS_URL, DISPLAY_MAX_ROW: '1000', RESULTS_TTL_SECONDS: '600' } });
    short = await startTestApp({ env: { REDIS_URL, RESULTS_TTL_SECONDS: '1' } });
    admin = await t.token();
    dir = mkdtempSync(join(tmpdir(), 'meridian-redis-results-'));
    duck = await registerDatabase(t, admin, { database_name: 'redis_duck', sqlalchemy_uri: `duckdb:///${join(dir, 'r.duckdb')}` });
  });
  afterAll(async () => {
    await t?.close();
    await short?.close();
    const keys = await redis.keys('meridian:*');
    if (keys.length) await redis.del(...keys);
    await redis.quit();
    rmSync(dir, { recursive: true, force: true });
  });

  const page = (key: string, rows: number, offset: number) => t.http.get('/api/v1/sqllab/results/').query({ q: `(key:'${key}',offset:${offset},rows:${rows})` }).set(bearer(admin));

  it('keeps a result larger than DISPLAY_MAX_ROW in Redis, pages it, exports every row as CSV, and answers 410 once the keys are gone', async () => {
    const id = clientId();
    const res = await t.http
      .post('/api/v1/sqllab/execute/')
      .set(bearer(admin))
      .send({ database_id: duck, sql: "SELECT range AS i, 'row ' || range AS label FROM range(25000) ORDER BY i", client_id: id, queryLimit: 30000 });
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(1000);
    expect(res.body.displayLimitReached).toBe(true);
    expect(res.body.query).toMatchObject({ state: 'success', rows: 25000 });
    const key = res.body.query.resultsKey as string;

    // The rows really live in Redis: a meta key and several pages, each expiring with RESULTS_TTL_SECONDS.
    const keys = await redis.keys(`${PREFIX}${key}:*`);
    expect(keys).toContain(`${PREFIX}${key}:meta`);
    expect(keys.filter((k) => k.startsWith(`${PREFIX}${key}:page:`)).length).toBeGreaterThanOrEqual(2);
    expect(JSON.parse((await redis.get(`${PREFIX}${key}:meta`))!)).toMatchObject({ rowCount: 25000 });
    for (const k of keys) {
      const ttl = await redis.ttl(k);
      expect(ttl, k).toBeGreaterThan(0);
      expect(ttl, k).toBeLessThanOrEqual(600);
    }

    // Pages across a stored page boundary, and the tail.
    let slice = await page(key, 1000, 9500);
    expect(slice.status).toBe(200);
    expect(slice.body.data).toHaveLength(1000);
    expect(slice.body.data[0]).toEqual({ i: 9500, label: 'row 9500' });
    expect(slice.body.data[999]).toEqual({ i: 10499, label: 'row 10499' });
    expect(slice.body.displayLimitReached).toBe(true);
    slice = await page(key, 1000, 24500);
    expect(slice.body.data).toHaveLength(500);
    expect(slice.body.data[499]).toEqual({ i: 24999, label: 'row 24999' });
    expect(slice.body.displayLimitReached).toBeUndefined();

    const csv = await t.http.get(`/api/v1/sqllab/export/${id}/`).set(bearer(admin));
    expect(csv.status).toBe(200);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    let lines = csv.text.trimEnd().split(/\r?\n/);
    expect(lines).toHaveLength(25001);
    expect(lines.slice(0, 2)).toEqual(['i,label', '0,row 0']);
    expect(lines[25000]).toBe('24999,row 24999');

    // The results expire (here: the keys are removed): paging answers 410 asking to re-run.
    await redis.del(...keys);
    const gone = await page(key, 1000, 0);
    expect(gone.status).toBe(410);
    expect(gone.body.errors).toEqual([{ message: GONE, error_type: 'RESULTS_BACKEND_ERROR', level: 'error', extra: { issue_codes: [] } }]);

    // The export runs the query again, streams every row and leaves nothing behind in Redis.
    const again = await t.http.get(`/api/v1/sqllab/export/${id}/`).set(bearer(admin));
    expect(again.status).toBe(200);
    lines = again.text.trimEnd().split(/\r?\n/);
    expect(lines).toHaveLength(25001);
    expect(lines[25000]).toBe('24999,row 24999');
    await waitFor('re-run result removed from Redis', async () => (await redis.keys(`${PREFIX}export-*`)).length === 0);
  });

  it('answers 410 when Redis expired the result by its TTL', async () => {
    const token = await short.token();
    const db = await registerDatabase(short, token, { database_name: 'redis_short', sqlalchemy_uri: `duckdb:///${join(dir, 's.duckdb')}` });
    const res = await short.http.post('/api/v1/sqllab/execute/').set(bearer(token)).send({ database_id: db, sql: 'SELECT 1 AS one', client_id: clientId() });
    expect(res.status).toBe(200);
    const key = res.body.query.resultsKey as string;
    await waitFor('Redis expiry', async () => (await redis.exists(`${PREFIX}${key}:meta`)) === 0);
    const gone = await short.http.get('/api/v1/sqllab/results/').query({ q: `(key:'${key}')` }).set(bearer(token));
    expect(gone.status).toBe(410);
    expect(gone.body.errors[0]).toMatchObject({ message: GONE, error_type: 'RESULTS_BACKEND_ERROR' });
  });
});
