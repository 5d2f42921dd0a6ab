import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureTestExamples } from '../helpers/examples';
import { ensureExampleDatasets } from '../../server/src/dataset/example-datasets';
import { startTestApp, type TestApp } from '../helpers/app';
import { bearer } from './sqllab.helpers';

/** Redis database used only by this file, so its keys never meet another test's or the app's. */
const REDIS_URL = 'redis://127.0.0.1:6379/13';

async function examples(t: TestApp, admin: string, dir: string) {
  await ensureTestExamples(t.services, { path: join(dir, 'examples.duckdb'), salesRows: 200 });
  await ensureExampleDatasets(t.services);
  const list = await t.http.get('/api/v1/dataset/').query({ q: '(filters:!((col:table_name,opr:eq,value:birth_names)))' }).set(bearer(admin));
  const dataset = (await t.http.get(`/api/v1/dataset/${list.body.ids[0]}`).set(bearer(admin))).body.result;
  return { datasetId: dataset.id as number, databaseId: dataset.database.id as number };
}

describe('chart data cache timeout: chart, then dataset, then database, then the default', () => {
  let t: TestApp;
  let admin: string;
  let dir: string;
  let datasetId: number;
  let databaseId: number;
  let chartId: number;

  const query = (extra: Record<string, unknown> = {}) => ({ datasource: { id: datasetId, type: 'table' }, queries: [{ columns: ['gender'], metrics: ['count'], orderby: [['gender', true]] }], ...extra });
  const timeout = async (extra: Record<string, unknown> = {}) => {
    const res = await t.http.post('/api/v1/chart/data').set(bearer(admin)).send(query({ force: true, ...extra }));
    expect(res.status).toBe(200);
    return res.body.result[0].cache_timeout as number;
  };
  const put = async (path: string, body: Record<string, unknown>) => expect((await t.http.put(path).set(bearer(admin)).send(body)).status).toBe(200);

  beforeAll(async () => {
    t = await startTestApp({ env: { CACHE_DEFAULT_TIMEOUT: '4321' } });
    admin = await t.token();
    dir = mkdtempSync(join(tmpdir(), 'meridian-cache-'));
    ({ datasetId, databaseId } = await examples(t, admin, dir));
    const chart = await t.http.post('/api/v1/chart/').set(bearer(admin)).send({ slice_name: 'Cached births', viz_type: 'table', params: '{}', datasource_id: datasetId, datasource_type: 'table' });
    chartId = chart.body.id;
  });
  afterAll(async () => {
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('takes the first timeout set, from the request, the chart, the dataset, the database, else CACHE_DEFAULT_TIMEOUT', async () => {
    const ofChart = { form_data: { slice_id: chartId } };
    expect(await timeout()).toBe(4321);
    await put(`/api/v1/database/${databaseId}`, { cache_timeout: 300 });
    expect(await timeout()).toBe(300);
    await put(`/api/v1/dataset/${datasetId}`, { cache_timeout: 200 });
    expect(await timeout()).toBe(200);
    expect(await timeout(ofChart)).toBe(200);
    await put(`/api/v1/chart/${chartId}`, { cache_timeout: 100 });
    expect(await timeout(ofChart)).toBe(100);
    expect(await timeout()).toBe(200);
    expect(await timeout({ ...ofChart, custom_cache_timeout: 50 })).toBe(50);
    await put(`/api/v1/dataset/${datasetId}`, { cache_timeout: null });
    expect(await timeout()).toBe(300);
    expect(await timeout(ofChart)).toBe(100);
  });

  it('answers carry cached_dttm and cache_timeout; the second call is cached, unless the timeout is -1', async () => {
    await put(`/api/v1/dataset/${datasetId}`, { cache_timeout: 200 });
    const body = query({ queries: [{ columns: ['state'], metrics: ['count'], orderby: [['state', true]] }] });
    const first = (await t.http.post('/api/v1/chart/data').set(bearer(admin)).send(body)).body.result[0];
    expect(first).toMatchObject({ is_cached: false, cache_timeout: 200, cache_key: expect.stringMatching(/^[0-9a-f]{32}$/) });
    expect(first.cached_dttm).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/);
    const second = (await t.http.post('/api/v1/chart/data').set(bearer(admin)).send(body)).body.result[0];
    expect(second).toMatchObject({ is_cached: true, cache_key: first.cache_key, cached_dttm: first.cached_dttm, cache_timeout: 200 });
    expect(second.data).toEqual(first.data);

    // -1 on the chart: never cached, although the dataset says 200.
    await put(`/api/v1/chart/${chartId}`, { cache_timeout: -1 });
    const uncached = query({ queries: [{ columns: ['name'], metrics: ['count'], orderby: [['name', true]], row_limit: 5 }], form_data: { slice_id: chartId } });
    const a = (await t.http.post('/api/v1/chart/data').set(bearer(admin)).send(uncached)).body.result[0];
    const b = (await t.http.post('/api/v1/chart/data').set(bearer(admin)).send(uncached)).body.result[0];
    expect([a.is_cached, a.cache_timeout, b.is_cached, b.cache_timeout]).toEqual([false, -1, false, -1]);
    expect(b.data).toEqual(a.data);
  });
});

describe('chart data cache on Redis (REDIS_URL)', () => {
  let t: TestApp;
  let admin: string;
  let dir: string;
  let redis: Redis;
  let datasetId: number;

  beforeAll(async () => {
    redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
    expect(await redis.ping()).toBe('PONG');
    t = await startTestApp({ env: { REDIS_URL } });
    admin = await t.token();
    dir = mkdtempSync(join(tmpdir(), 'meridian-cache-redis-'));
    ({ datasetId } = await examples(t, admin, dir));
  });
  afterAll(async () => {
    await t?.close();
    const keys = (await redis?.keys('meridian:*')) ?? [];
    if (keys.length) await redis.del(...keys);
    redis?.disconnect();
    rmSync(dir, { recursive: true, force: true });
  });

  it('the second identical request is answered from Redis', async () => {
    const body = { datasource: { id: datasetId, type: 'table' }, queries: [{ columns: ['gender'], metrics: ['sum__num'], orderby: [['gender', true]] }] };
    const first = (await t.http.post('/api/v1/chart/data').set(bearer(admin)).send(body)).body.result[0];
    expect(first.is_cached).toBe(false);
    const stored = await redis.get(`meridian:cache:chart-data:${first.cache_key}`);
    expect(stored).toContain('"sum__num"');
    expect(await redis.ttl(`meridian:cache:chart-data:${first.cache_key}`)).toBeGreaterThan(0);
    const second = (await t.http.post('/api/v1/chart/data').set(bearer(admin)).send(body)).body.result[0];
    expect(second).toMatchObject({ is_cached: true, cache_key: first.cache_key, cached_dttm: first.cached_dttm });
    expect(second.data).toEqual(first.data);
    const forced = (await t.http.post('/api/v1/chart/data').set(bearer(admin)).send({ ...body, force: true })).body.result[0];
    expect(forced.is_cached).toBe(false);
  });
});
