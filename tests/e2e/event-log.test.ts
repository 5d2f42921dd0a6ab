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
import { ensureClientBuilt, launchBrowser, screenshot, signedInPage } from './browser';
import { layoutOfRows, positionFromLayout } from '../../contracts/src/dashboard/layout-reducer';

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

  it("logs a failed chart load with has_err and its error type, the drawings, a chart's force refresh, edit mode and Explore's loads (spec 01 §4)", { timeout: 120_000 }, async () => {
    const rest = (method: 'get' | 'post', path: string, body?: unknown) => (body === undefined ? t.http[method](path).set(bearer(admin)) : t.http[method](path).set(bearer(admin)).send(body as object));
    const datasetId = (await rest('get', '/api/v1/dataset/?q=(filters:!((col:table_name,opr:eq,value:birth_names)))')).body.ids[0] as number;
    const chart = async (name: string, metric: unknown) =>
      (await rest('post', '/api/v1/chart/', { slice_name: name, viz_type: 'big_number_total', datasource_id: datasetId, datasource_type: 'table', params: JSON.stringify({ viz_type: 'big_number_total', datasource: `${datasetId}__table`, metric }) })).body.id as number;
    const broken = await chart('Logged broken', { expressionType: 'SQL', sqlExpression: 'SUM(no_such_column)', label: 'broken' });
    const good = await chart('Logged total', 'sum__num');
    const layout = layoutOfRows('Logged', [[{ chartId: broken, width: 6 }, { chartId: good, width: 6 }]]);
    const position = positionFromLayout(layout);
    const dashboardId = (await rest('post', '/api/v1/dashboard/', { dashboard_title: 'Logged', position_json: JSON.stringify(position) })).body.id as number;
    const logged = async (name: string, sliceId: number) =>
      ((await rest('get', `/api/v1/log/?q=(filters:!((col:action,opr:eq,value:${name})),page_size:100)`)).body.result as Array<Record<string, any>>).filter((l) => l.slice_id === sliceId).map((l) => JSON.parse(l.json) as Record<string, any>);

    await page.goto(`${t.url}/superset/dashboard/${dashboardId}/`);
    await page.locator(`[data-testid="dashboard-chart"][data-chart-id="${broken}"][data-chart-state="failed"]`).waitFor({ timeout: 30_000 });
    const goodCell = page.locator(`[data-testid="dashboard-chart"][data-chart-id="${good}"]`);
    await page.locator(`[data-testid="dashboard-chart"][data-chart-id="${good}"][data-chart-state="rendered"]`).waitFor({ timeout: 30_000 });
    // The failed load: has_err and the error's text, on the dashboard; the good one's load without has_err, and its drawing.
    await expect.poll(async () => (await logged('load_chart', broken)).length, { timeout: 15_000 }).toBeGreaterThan(0);
    const [failed] = await logged('load_chart', broken);
    expect(failed).toMatchObject({ source: 'dashboard', source_id: dashboardId, event_type: 'timing', has_err: true, datasource: `${datasetId}__table` });
    expect(failed!.error_details).toMatch(/no_such_column/);
    expect(failed!.duration).toBeGreaterThanOrEqual(0);
    await expect.poll(async () => (await logged('render_chart', good)).length, { timeout: 15_000 }).toBe(1);
    expect((await logged('load_chart', good))[0]).toMatchObject({ has_extra_filters: false, force_refresh: false, is_cached: expect.any(Boolean), viz_type: 'big_number_total', row_count: 1 });
    expect((await logged('load_chart', good))[0]!.has_err).toBeUndefined();
    expect((await logged('render_chart', good))[0]).toMatchObject({ event_type: 'timing', viz_type: 'big_number_total', source_id: dashboardId });
    expect(await logged('render_chart', broken)).toEqual([]);

    // The chart menu's Force refresh: force_refresh_chart, then a forced load and one more drawing.
    await goodCell.getByTestId('chart-menu').click();
    await page.getByRole('menuitem', { name: 'Force refresh' }).click();
    await expect.poll(async () => (await logged('force_refresh_chart', good)).length, { timeout: 15_000 }).toBe(1);
    expect((await logged('force_refresh_chart', good))[0]).toMatchObject({ event_type: 'user', source_id: dashboardId });
    await expect.poll(async () => (await logged('load_chart', good)).some((e) => e.force_refresh === true), { timeout: 15_000 }).toBe(true);
    await expect.poll(async () => (await logged('render_chart', good)).length, { timeout: 15_000 }).toBe(2);

    // Edit mode entered, then left by Discard.
    await page.getByRole('button', { name: 'Edit dashboard' }).click();
    await page.getByRole('button', { name: 'Discard' }).click();
    const toggles = async () => ((await rest('get', '/api/v1/log/?q=(filters:!((col:action,opr:eq,value:toggle_edit_dashboard)),page_size:100)')).body.result as Array<Record<string, any>>).filter((l) => l.dashboard_id === dashboardId).map((l) => JSON.parse(l.json).edit_mode);
    await expect.poll(async () => (await toggles()).sort(), { timeout: 15_000 }).toEqual([false, true]);

    // Opened on a permalink's anchor: mount_dashboard names it as its target.
    const goodComponent = Object.values(layout).find((c) => c.type === 'CHART' && c.meta.chartId === good)!.id;
    await page.goto('about:blank');
    await page.goto(`${t.url}/superset/dashboard/${dashboardId}/#${goodComponent}`);
    const mounts = async () => ((await rest('get', '/api/v1/log/?q=(filters:!((col:action,opr:eq,value:mount_dashboard)),page_size:100)')).body.result as Array<Record<string, any>>).filter((l) => l.dashboard_id === dashboardId).map((l) => JSON.parse(l.json).target_id);
    await expect.poll(mounts, { timeout: 15_000 }).toContain(goodComponent);

    // Explore logs its chart's load too, failed or not.
    await page.goto(`${t.url}/explore/?slice_id=${broken}`);
    await expect.poll(async () => (await logged('load_chart', broken)).filter((e) => e.source === 'explore').length, { timeout: 20_000 }).toBe(1);
    expect((await logged('load_chart', broken)).find((e) => e.source === 'explore')).toMatchObject({ has_err: true, source_id: broken, error_details: expect.stringMatching(/no_such_column/) });
    await page.goto(`${t.url}/explore/?slice_id=${good}`);
    await expect.poll(async () => (await logged('render_chart', good)).filter((e) => e.source === 'explore').length, { timeout: 20_000 }).toBe(1);
    expect((await logged('load_chart', good)).filter((e) => e.source === 'explore')).toHaveLength(1);
    await screenshot(page, 'event-log-explore-chart');
  });
});
