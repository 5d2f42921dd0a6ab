/**
 * Where the renderer's main thread spends the opening of a page (a saved line chart in Explore by default, or the
 * path given), from a Chrome trace of the fourth visit: each trace event's total duration, largest first (script,
 * React's scheduler tasks, style and layout, resource requests). Run: npx tsx scripts/bench/trace-page.ts [path]
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { adminHeaders, launchChromium, okBody, signedIn, startServer } from './util';

const server = await startServer({ DATA_DIR: mkdtempSync(join(tmpdir(), 'mb-')), EXAMPLES_SALES_ROWS: '1000' });
const browser = await launchChromium();
try {
  const headers = await adminHeaders(server.url);
  const chart = JSON.parse((await okBody(await fetch(`${server.url}/api/v1/chart/?q=${encodeURIComponent("(filters:!((col:slice_name,opr:eq,value:'Births by gender over time')))")}`, { headers }))).toString()).result[0];
  const ctx = await signedIn(browser, server.url, { width: 1440, height: 900 });
  const page = await ctx.newPage();
  const url = process.argv[2] ? `${server.url}${process.argv[2]}` : `${server.url}/explore/?slice_id=${chart.id}`;
  for (let i = 0; i < 3; i++) {
    await page.goto(url);
    await page.locator('[data-chart-state="rendered"]').first().waitFor({ timeout: 60_000 });
  }
  await browser.startTracing(page, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8', 'blink'] });
  const t0 = Date.now();
  await page.goto(url);
  await page.locator('[data-chart-state="rendered"]').first().waitFor({ timeout: 60_000 });
  console.log('open', Date.now() - t0, 'ms');
  const buf = await browser.stopTracing();
  const events = JSON.parse(buf.toString()).traceEvents as any[];
  // The renderer's main thread: the one that evaluated the most scripts.
  const counts = new Map<string, number>();
  for (const e of events) if (e.name === 'EvaluateScript' || e.name === 'v8.evaluateModule') counts.set(`${e.pid}:${e.tid}`, (counts.get(`${e.pid}:${e.tid}`) ?? 0) + 1);
  const mainTid = [...counts].sort((a, b) => b[1] - a[1])[0]![0];
  const sums = new Map<string, number>();
  for (const e of events) {
    if (`${e.pid}:${e.tid}` !== mainTid || e.ph !== 'X' || !e.dur) continue;
    sums.set(e.name, (sums.get(e.name) ?? 0) + e.dur / 1000);
  }
  for (const [k, v] of [...sums].sort((a, b) => b[1] - a[1]).slice(0, 30)) console.log(v.toFixed(1).padStart(8), k);
} finally {
  await browser.close();
  await server.stop();
}
