import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureTestExamples } from '../helpers/examples';
import { ensureExampleDatasets } from '../../server/src/dataset/example-datasets';
import { ensureExampleDashboards } from '../../server/src/dashboard/example-dashboards';
import { startTestApp, type TestApp } from '../helpers/app';
import { bearer } from '../rest/sqllab.helpers';
import { ensureClientBuilt, launchBrowser, signedInPage } from './browser';

// Issue 15's event logging: the client batches spec 02 §3 log events (a second's delay, at most 1024 a send)
// to /superset/log/?explode=events, and they show in the action log with their dashboard and chart.
describe('event log in the browser', () => {
  let t: TestApp;
  let browser: Browser;
  let page: Page;
  let dir: string;
  let admin: string;

  beforeAll(async () => {
    ensureClientBuilt();
    t = await startTestApp({ listen: true });
    admin = await t.token();
    dir = mkdtempSync(join(tmpdir(), 'meridian-e2e-events-'));
    await ensureTestExamples(t.services, { path: join(dir, 'examples.duckdb'), salesRows: 200 });
    await ensureExampleDatasets(t.services);
    await ensureExampleDashboards(t.services);
    browser = await launchBrowser();
    page = await signedInPage(browser, t.url);
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("sends a dashboard's mount and chart loads in batches, and a navigation; they land in the log", async () => {
    const dashboard = (await t.http.get('/api/v1/dashboard/').set(bearer(admin))).body.result[0] as { id: number; url: string };
    const sent: Request[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/superset/log/')) sent.push(r);
    });
    await page.goto(`${t.url}/superset/dashboard/${dashboard.id}/`);
    await page.locator('canvas').first().waitFor();
    // Charts that answer more than a second after the mount go in the next batch.
    const bodies = () => sent.map((r) => r.postData() ?? '').join('');
    await expect.poll(bodies, { timeout: 10_000 }).toContain('mount_dashboard');
    await expect.poll(bodies, { timeout: 10_000 }).toContain('load_chart');

    // Leaving for another screen: a spa_navigation event, then the page hidden sends what is queued.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Charts', exact: true }).click();
    await page.waitForURL(`${t.url}/chart/list/`);
    await expect.poll(() => sent.map((r) => r.postData() ?? '').join('').includes('spa_navigation'), { timeout: 10_000 }).toBe(true);

    const logged = async (name: string) => (await t.http.get('/api/v1/log/').query({ q: `(filters:!((col:action,opr:eq,value:${name})),page_size:100)` }).set(bearer(admin))).body.result as Array<Record<string, any>>;
    await expect.poll(async () => (await logged('mount_dashboard')).length).toBeGreaterThan(0);
    expect((await logged('mount_dashboard'))[0]).toMatchObject({ dashboard_id: dashboard.id, user: { username: 'admin' } });
    const loads = await logged('load_chart');
    expect(loads.length).toBeGreaterThan(0);
    expect(loads.every((l) => l.dashboard_id === dashboard.id && Number.isInteger(l.slice_id))).toBe(true);
    expect(JSON.parse(loads[0]!.json)).toMatchObject({ event_type: 'timing', impression_id: expect.any(String), version: 'v2', visibility: 'visible' });
  });
});
