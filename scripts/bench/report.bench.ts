import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS } from '../../server/src/screenshot/renderer';
import { adminHeaders, median, okBody, report, startServer } from './util';

const ROUNDS = 4;

/**
 * Issue 15's figure: the time the server takes to render a dashboard as PNG (POST cache_dashboard_screenshot, then
 * the picture polled until it is there), against loading the same dashboard in a browser until every chart is drawn.
 * Both in Chromium on the same machine, on the examples' largest dashboard; the first server picture (which starts
 * the server's browser) is printed apart.
 */
export async function reportBench(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'meridian-bench-'));
  const server = await startServer({ DATA_DIR: dataDir, EXAMPLES_SALES_ROWS: '100000' });
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
  try {
    const headers = await adminHeaders(server.url);
    const call = async (method: string, path: string) => JSON.parse((await okBody(await fetch(`${server.url}${path}`, { method, headers, body: method === 'GET' ? undefined : '{}' }))).toString());
    const listed = (await call('GET', '/api/v1/dashboard/')).result as Array<{ id: number; dashboard_title: string }>;
    const dashboards = await Promise.all(listed.map(async (d) => ({ ...d, charts: (await call('GET', `/api/v1/dashboard/${d.id}/charts`)).result as unknown[] })));
    const dashboard = dashboards.sort((a, b) => b.charts.length - a.charts.length)[0];
    if (!dashboard) throw new Error('the examples have no dashboard');

    // In the browser: the dashboard opened until every chart on it is drawn, in the renderer's viewport.
    const context = await browser.newContext({ viewport: { width: 1600, height: 1200 } });
    const login = await context.request.post(`${server.url}/login/`, { data: { username: 'admin', password: 'admin' } });
    if (login.status() !== 200) throw new Error(`login failed: ${login.status()}`);
    const page = await context.newPage();
    const loaded: number[] = [];
    for (let i = 0; i <= ROUNDS; i++) {
      const t0 = Date.now();
      await page.goto(`${server.url}/superset/dashboard/${dashboard.id}/?standalone=1`);
      await page.locator('[data-chart-state]').first().waitFor({ timeout: 60_000 });
      await page.waitForFunction(() => [...document.querySelectorAll('[data-chart-state]')].every((el) => ['rendered', 'failed'].includes(el.getAttribute('data-chart-state') ?? '')), undefined, { timeout: 60_000, polling: 20 });
      if (i > 0) loaded.push(Date.now() - t0);
    }
    await context.close();

    // On the server: a new picture each round (the dashboard's CSS touched first, so no picture of it is cached).
    const rendered: number[] = [];
    let first = 0;
    for (let i = 0; i <= ROUNDS; i++) {
      await okBody(await fetch(`${server.url}/api/v1/dashboard/${dashboard.id}`, { method: 'PUT', headers, body: JSON.stringify({ css: `/* bench round ${i} */` }) }));
      const t0 = Date.now();
      const asked = await call('POST', `/api/v1/dashboard/${dashboard.id}/cache_dashboard_screenshot/`);
      for (;;) {
        const res = await fetch(`${server.url}${asked.image_url}`, { headers });
        if (res.status === 200) {
          await res.arrayBuffer();
          break;
        }
        await res.arrayBuffer();
        if (res.status !== 202 && res.status !== 404) throw new Error(`screenshot answered ${res.status}`);
        await new Promise((r) => setTimeout(r, 100));
      }
      if (i === 0) first = Date.now() - t0;
      else rendered.push(Date.now() - t0);
    }
    report(`render "${dashboard.dashboard_title}" (${dashboard.charts.length} charts) as PNG`, median(rendered), median(loaded), 'ms', 'ratio to loading it in the browser');
    report('the same, first picture (starts the server\'s browser)', first, median(loaded), 'ms');
  } finally {
    await browser.close();
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
