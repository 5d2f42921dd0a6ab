/**
 * A 50-chart dashboard's load as the page saw it (in page time): its API calls, the chart data calls' spread,
 * when each chart read success and rendered (with its type), long tasks and frame gaps. What the bench's
 * navigation figure is made of. Run: ROUNDS=3 npx tsx scripts/bench/timeline-dashboard.ts
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createFiftyChartDashboard } from './fifty-charts';
import { adminHeaders, launchChromium, signedIn, startServer } from './util';

const dataDir = mkdtempSync(join(tmpdir(), 'meridian-prof-'));
const server = await startServer({ DATA_DIR: dataDir, EXAMPLES_SALES_ROWS: '100000' });
const browser = await launchChromium();
const headers = await adminHeaders(server.url);
const { dashboardId, charts } = await createFiftyChartDashboard(server.url, headers);
const context = await signedIn(browser, server.url, { width: 1440, height: 7600 });
const page = await context.newPage();
await page.addInitScript(() => {
  (globalThis as any).__name ??= (f: unknown) => f;
  const w = window as any;
  w.states = [];
  w.longtasks = [];
  new PerformanceObserver((l) => { for (const e of l.getEntries()) w.longtasks.push([Math.round(e.startTime), Math.round(e.duration)]); }).observe({ type: 'longtask', buffered: true });
  const start = () => new MutationObserver((records) => {
    for (const r of records) { const el = r.target as Element; w.states.push([Math.round(performance.now()), el.getAttribute('data-chart-id'), el.getAttribute('data-chart-state')]); }
  }).observe(document, { subtree: true, attributes: true, attributeFilter: ['data-chart-state'] });
  start();
  // Frames drawn: each animation frame's time, to see how long the page spends per frame.
  w.frames = [];
  const frame = (t: number) => { w.frames.push(Math.round(t)); requestAnimationFrame(frame); };
  requestAnimationFrame(frame);
});
const rounds = Number(process.env.ROUNDS ?? 4);
for (let round = 0; round < rounds; round++) {
  const t0 = Date.now();
  await page.goto(`${server.url}/superset/dashboard/${dashboardId}/`);
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="dashboard-chart"][data-chart-state="rendered"]').length >= 50, undefined, { timeout: 120_000, polling: 20 });
  const total = Date.now() - t0;
  const info = await page.evaluate(() => {
    // tsx keeps function names with a __name helper the page does not have.
    (globalThis as any).__name ??= (f: unknown) => f;
    const w = window as any;
    const res = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
    const api = res.filter((r) => !r.name.includes('/static/')).map((r) => `${Math.round(r.startTime)}-${Math.round(r.responseEnd)} ${new URL(r.name).pathname}`);
    const data = res.filter((r) => r.name.includes('/chart/data'));
    const chunks = res.filter((r) => r.name.includes('/static/assets/'));
    const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
    const firstOf = (s: string) => { const by = new Map<string, number>(); for (const [t, id, st] of w.states) if (st === s && !by.has(id)) by.set(id, t); return [...by.values()].sort((a, b) => a - b); };
    const q = (a: number[]) => a.length ? `n=${a.length} first ${a[0]} median ${a[Math.floor(a.length / 2)]} last ${a[a.length - 1]}` : 'none';
    return {
      nav: `responseEnd ${Math.round(nav.responseEnd)} domInteractive ${Math.round(nav.domInteractive)} dcl ${Math.round(nav.domContentLoadedEventEnd)}`,
      api: api.filter((a) => !a.includes('/chart/data')),
      data: `chart data n=${data.length} starts ${Math.round(Math.min(...data.map((d) => d.startTime)))}..${Math.round(Math.max(...data.map((d) => d.startTime)))} ends ${Math.round(Math.min(...data.map((d) => d.responseEnd)))}..${Math.round(Math.max(...data.map((d) => d.responseEnd)))}`,
      chunks: `chunks n=${chunks.length} last end ${Math.round(Math.max(...chunks.map((d) => d.responseEnd)))}`,
      renderedAll: (() => { const by = new Map<string, number>(); const ok = new Map<string, number>(); for (const [t, id, st] of w.states) { if (st === 'rendered' && !by.has(id)) by.set(id, t); if (st === 'success' && !ok.has(id)) ok.set(id, t); } return [...by].sort((a, b) => a[1] - b[1]).map(([id, t]) => [id, t, ok.get(id)]); })(),
      loading: q(firstOf('loading')), success: q(firstOf('success')), rendered: q(firstOf('rendered')),
      longtasks: w.longtasks.map(([s, d]: number[]) => `${s}+${d}`).join(' '),
      frames: (() => { const f = w.frames as number[]; const gaps = f.slice(1).map((t, i) => t - f[i]!); return `n=${f.length} gaps>40ms: ${f.slice(1).map((t, i) => [f[i], t - f[i]!]).filter(([, g]) => g! > 40).map(([s, g]) => `${s}+${g}`).join(' ')} sum ${gaps.reduce((a, b) => a + b, 0)}`; })(),
      busy: w.longtasks.reduce((a: number, [, d]: number[]) => a + d, 0),
    };
  });
  const vizOf = new Map(charts.map((c) => [String(c.id), c.viz_type]));
  (info as any).renderedAll = (info.renderedAll as Array<[string, number, number | undefined]>).map(([id, t, ok]) => `${t}:${vizOf.get(id)}(${ok ?? '-'})`).join(' ');
  console.log(`round ${round}: total ${total} ms`, JSON.stringify(info, null, 1));
}
await browser.close();
await server.stop();
process.exit(0);
