/**
 * Where the renderer's main thread spends the opening of a page (a saved line chart in Explore by default, the path
 * given, or with `fifty` the bench's 50-chart dashboard in a viewport showing every chart), from a Chrome trace of
 * the fourth visit, until every chart is drawn: each trace event's total duration, largest first (script, React's
 * scheduler tasks, style and layout, paint, resource requests). Nested events each count, so the sums overlap.
 * Run: npx tsx scripts/bench/trace-page.ts [path | fifty]
 */
import { createFiftyChartDashboard } from './fifty-charts';
import { adminHeaders, examplesPage } from './util';

const fifty = process.argv[2] === 'fifty';
const { url: serverUrl, browser, page, lineChartId, close } = await examplesPage(fifty ? { width: 1440, height: 7600 } : undefined);
try {
  const url = fifty
    ? `${serverUrl}/superset/dashboard/${(await createFiftyChartDashboard(serverUrl, await adminHeaders(serverUrl))).dashboardId}/`
    : process.argv[2]
      ? `${serverUrl}${process.argv[2]}`
      : `${serverUrl}/explore/?slice_id=${lineChartId}`;
  const drawn = () =>
    fifty
      ? page.waitForFunction(() => document.querySelectorAll('[data-testid="dashboard-chart"][data-chart-state="rendered"]').length >= 50, undefined, { timeout: 120_000, polling: 50 })
      : page.locator('[data-chart-state="rendered"]').first().waitFor({ timeout: 60_000 });
  for (let i = 0; i < 3; i++) {
    await page.goto(url);
    await drawn();
  }
  await browser.startTracing(page, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8', 'blink'] });
  const t0 = Date.now();
  await page.goto(url);
  await drawn();
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
  await close();
}
