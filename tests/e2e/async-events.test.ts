import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page, Request } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ensureTestExamples } from '../helpers/examples';
import { ensureExampleDatasets } from '../../server/src/dataset/example-datasets';
import { startTestApp, type TestApp } from '../helpers/app';
import { ensureClientBuilt, screenshot } from './browser';
import { afterFailedTest, openSqlLabBrowser, runAndWait, signIn, typeSql } from './sqllab.page';

// GLOBAL_ASYNC_QUERIES in a real Chromium (spec 01 §7): chart data answered 202 and async SQL Lab queries finish
// through the async-event client, over the /ws socket, and over GET /api/v1/async_event/ when the page has no WebSocket.
describe('Async query events in the browser', () => {
  let t: TestApp;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let dir: string;
  let admin: string;
  let birthNames: number;
  /** Explore on birth_names as a Big Number of SUM(num), so it runs on opening. */
  const bigNumber = (extra = '') => `${t.url}/explore/?datasource_id=${birthNames}&datasource_type=table&viz_type=big_number_total&form_data=${encodeURIComponent(JSON.stringify({ viz_type: 'big_number_total', metric: { expressionType: 'SQL', sqlExpression: 'SUM(num)', label: 'Births' } }))}${extra}`;
  const rest = (method: 'get' | 'put', path: string, body?: object) => {
    const req = t.http[method](path).set('Authorization', `Bearer ${admin}`);
    return body ? req.send(body) : req;
  };
  /** Every request the page makes from now on, by path. */
  const record = (target: Page): string[] => {
    const seen: string[] = [];
    target.on('request', (req: Request) => seen.push(`${req.method()} ${new URL(req.url()).pathname}`));
    return seen;
  };

  beforeAll(async () => {
    ensureClientBuilt();
    t = await startTestApp({ listen: true, env: { FEATURE_GLOBAL_ASYNC_QUERIES: 'true' } });
    admin = await t.token();
    dir = mkdtempSync(join(tmpdir(), 'meridian-e2e-async-'));
    const examples = await ensureTestExamples(t.services, { path: join(dir, 'examples.duckdb'), salesRows: 200 });
    await ensureExampleDatasets(t.services);
    expect((await rest('put', `/api/v1/database/${examples.id}`, { allow_run_async: true })).status).toBe(200);
    birthNames = (await rest('get', '/api/v1/dataset/?q=(filters:!((col:table_name,opr:eq,value:birth_names)))')).body.ids[0];
    ({ browser, context, page } = await openSqlLabBrowser(t.url));
    page.setDefaultTimeout(30_000);
  });
  afterEach((ctx) => afterFailedTest(ctx, page, 'async-events'));
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('draws an Explore chart answered 202 once its event arrives on the socket, and reads the result url', { timeout: 120_000 }, async () => {
    const sockets: string[] = [];
    page.on('websocket', (ws) => sockets.push(new URL(ws.url()).pathname));
    const accepted = page.waitForResponse((res) => res.url().includes('/api/v1/chart/data') && res.request().method() === 'POST' && res.status() === 202);
    const result = page.waitForResponse((res) => /\/api\/v1\/chart\/data\/[^/?]+/.test(res.url()) && res.request().method() === 'GET');
    await page.goto(bigNumber());
    const job = await (await accepted).json();
    expect(job).toMatchObject({ job_id: expect.any(String), status: 'pending' });
    expect((await result).status()).toBe(200);
    await page.locator('[data-testid="explore-chart"][data-chart-state="rendered"]').waitFor();
    expect(sockets).toContain('/ws');
    // The last event id is kept, so a reload resumes after it.
    await expect.poll(() => page.evaluate(() => localStorage.getItem('last_async_event_id'))).toBeTruthy();
    await screenshot(page, 'async-events-1-explore');
  });

  it('finishes an async SQL Lab query through its event, without polling updated_since', { timeout: 120_000 }, async () => {
    await page.goto(`${t.url}/sqllab/`);
    await expect.poll(() => page.getByTestId('database-select').inputValue()).toBe('examples');
    await typeSql(page, 'SELECT name, SUM(num) AS total FROM birth_names GROUP BY name ORDER BY total DESC LIMIT 7');
    const seen = record(page);
    const count = await runAndWait(page);
    expect(count).toBe('7 rows returned');
    const afterExecute = seen.slice(seen.findIndex((r) => r.includes('/api/v1/sqllab/execute/')));
    expect(afterExecute.some((r) => r.startsWith('GET /api/v1/sqllab/results/'))).toBe(true);
    expect(afterExecute.filter((r) => r.includes('/api/v1/query/updated_since'))).toEqual([]);
    await screenshot(page, 'async-events-2-sqllab');
  });

  it('falls back to polling /api/v1/async_event/ when the page has no WebSocket', { timeout: 120_000 }, async () => {
    const bare = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    try {
      await bare.addInitScript(() => {
        delete (window as { WebSocket?: unknown }).WebSocket;
      });
      await signIn(bare, t.url);
      const polling = await bare.newPage();
      polling.setDefaultTimeout(30_000);
      const seen = record(polling);
      await polling.goto(bigNumber('&force=1'));
      await polling.locator('[data-testid="explore-chart"][data-chart-state="rendered"]').waitFor();
      expect(seen).toContain('POST /api/v1/chart/data');
      expect(seen).toContain('GET /api/v1/async_event/');
    } finally {
      await bare.close();
    }
  });
});
