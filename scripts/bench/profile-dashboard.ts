import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chooseTimeRange } from './explore.bench';
import { createFiftyChartDashboard } from './fifty-charts';
import { adminHeaders, launchChromium, signedIn, startServer } from './util';

const dataDir = mkdtempSync(join(tmpdir(), 'meridian-prof-'));
const server = await startServer({ DATA_DIR: dataDir, EXAMPLES_SALES_ROWS: '100000' });
const browser = await launchChromium();
const headers = await adminHeaders(server.url);
const { dashboardId } = await createFiftyChartDashboard(server.url, headers);
const context = await signedIn(browser, server.url, { width: 1440, height: 7600 });
const page = await context.newPage();
for (let round = 0; round < 3; round++) {
  const t0 = Date.now();
  const events: string[] = [];
  const onReq = (r: import('playwright-core').Request) => events.push(`${Date.now() - t0} req ${r.method()} ${new URL(r.url()).pathname}`);
  const onRes = (r: import('playwright-core').Response) => events.push(`${Date.now() - t0} res ${r.status()} ${new URL(r.url()).pathname} ${r.headers()['content-length'] ?? ''}`);
  page.on('request', onReq);
  page.on('response', onRes);
  // Round 1 records a Chrome trace (style, layout, paint and script per task) into /tmp/prof/dashboard.trace.json.
  if (round === 1) await browser.startTracing(page, { path: '/tmp/prof/dashboard.trace.json', categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'blink', 'cc'] });
  const cdp = round === 2 ? await context.newCDPSession(page) : null;
  if (cdp) {
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
    await cdp.send('Profiler.start');
  }
  await page.goto(`${server.url}/superset/dashboard/${dashboardId}/`);
  await page.evaluate(() => {
    const seen = new Set<string>();
    (window as any).renderedAt = [];
    new MutationObserver(() => {
      for (const el of document.querySelectorAll('[data-testid="dashboard-chart"][data-chart-state="rendered"]')) {
        const id = el.getAttribute('data-chart-id')!;
        if (!seen.has(id)) { seen.add(id); (window as any).renderedAt.push([Math.round(performance.now()), id]); }
      }
    }).observe(document.body, { subtree: true, attributes: true, attributeFilter: ['data-chart-state'] });
  });
  const drawnAt: number[] = [];
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="dashboard-chart"][data-chart-state="rendered"]').length >= 50, undefined, { timeout: 120_000, polling: 20 });
  const total = Date.now() - t0;
  const renderedAt = await page.evaluate(() => (window as any).renderedAt as Array<[number, string]>);
  const nav = await page.evaluate(() => Math.round(performance.timeOrigin) );
  events.push(...renderedAt.map(([t, id]) => `${nav + t - t0} rendered ${id}`));
  events.push(`${total} ALL RENDERED`);
  writeFileSync(`/tmp/prof/round-${round}.txt`, String(total));
  if (round === 1) await browser.stopTracing();
  page.off('request', onReq);
  page.off('response', onRes);
  if (cdp) {
    const { profile } = await cdp.send('Profiler.stop');
    writeFileSync('/tmp/prof/dashboard.cpuprofile', JSON.stringify(profile));
  }
  writeFileSync(`/tmp/prof/events-${round}.txt`, events.join('\n'));
  void drawnAt;
}

// Apply of a native filter (a new time range): events and a CPU profile from the click until every chart is drawn again.
for (let round = 0; round < 2; round++) {
  await chooseTimeRange(page, `19${70 + round}-01-01`, '2010-01-01');
  const cdp = round === 1 ? await context.newCDPSession(page) : null;
  if (cdp) {
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
    await cdp.send('Profiler.start');
  }
  const events: string[] = [];
  const t0 = Date.now();
  const onReq = (r: import('playwright-core').Request) => events.push(`${Date.now() - t0} req ${r.method()} ${new URL(r.url()).pathname}`);
  const onRes = (r: import('playwright-core').Response) => events.push(`${Date.now() - t0} res ${r.status()} ${new URL(r.url()).pathname}`);
  page.on('request', onReq);
  page.on('response', onRes);
  await page.evaluate(() => {
    performance.clearResourceTimings();
    performance.setResourceTimingBufferSize(10_000);
    document.addEventListener('click', () => void ((window as any).clickAt = performance.now()), { capture: true, once: true });
    (window as any).redrawn = [];
    new MutationObserver((records) => {
      for (const r of records) {
        const el = r.target as Element;
        if (el.getAttribute('data-chart-state') === 'rendered') (window as any).redrawn.push(`${Math.round(performance.now() - (window as any).clickAt)} ${el.querySelector('a,p')?.textContent}`);
      }
    }).observe(document.body, { subtree: true, attributes: true, attributeFilter: ['data-chart-state'] });
  });
  await page.getByTestId('filter-bar-apply').click();
  await page.waitForFunction(() => document.querySelector('[data-testid="dashboard-chart"]:not([data-chart-state="rendered"]):not([data-chart-state="failed"])') !== null, undefined, { timeout: 10_000, polling: 10 }).catch(() => undefined);
  await page.waitForFunction(() => [...document.querySelectorAll('[data-testid="dashboard-chart"]')].every((c) => ['rendered', 'failed'].includes(c.getAttribute('data-chart-state') ?? '')), undefined, { timeout: 120_000, polling: 20 });
  events.push(`${Date.now() - t0} ALL DRAWN AGAIN`);
  events.push(...(await page.evaluate(() => (window as any).redrawn as string[])));
  events.push(await page.evaluate(() => {
    const at = (window as any).clickAt as number;
    const calls = (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).filter((e) => e.name.includes('/api/v1/chart/data') && e.startTime > at);
    return `in page: click at ${Math.round(at)}; first chart data call ${Math.round(Math.min(...calls.map((c) => c.startTime)) - at)} ms after it; last answer ${Math.round(Math.max(...calls.map((c) => c.responseEnd)) - at)} ms; now ${Math.round(performance.now() - at)} ms`;
  }));
  page.off('request', onReq);
  page.off('response', onRes);
  if (cdp) writeFileSync('/tmp/prof/apply.cpuprofile', JSON.stringify((await cdp.send('Profiler.stop')).profile));
  writeFileSync(`/tmp/prof/apply-events-${round}.txt`, events.join('\n'));
}
await browser.close();
await server.stop();
process.exit(0);
