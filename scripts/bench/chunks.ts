/**
 * Lists the JavaScript chunks a page loads from a cold cache, each with its gzipped size, largest first:
 * where the bench's "gzipped JavaScript loaded by Explore" goes. A page path may be given; the default is
 * Explore with the examples' line chart. Run: npx tsx scripts/bench/chunks.ts [/superset/dashboard/births/]
 */
import { gzipSync } from 'node:zlib';
import { examplesPage } from './util';

const { url, page, lineChartId, close } = await examplesPage();
try {
  const rows: [string, number][] = [];
  const pending: Promise<void>[] = [];
  page.on('response', (res) => {
    if (res.request().resourceType() !== 'script') return;
    pending.push(res.body().then((b) => void rows.push([new URL(res.url()).pathname, gzipSync(b).length / 1024])));
  });
  await page.goto(`${url}${process.argv[2] ?? `/explore/?slice_id=${lineChartId}`}`);
  await page.locator('[data-chart-state="rendered"]').first().waitFor({ timeout: 60_000 });
  await page.waitForTimeout(1500);
  await Promise.all(pending);
  rows.sort((a, b) => b[1] - a[1]);
  for (const [p, kb] of rows) console.log(kb.toFixed(1).padStart(7), p);
  console.log('total', rows.reduce((s, r) => s + r[1], 0).toFixed(1), 'KB in', rows.length);
} finally {
  await close();
}
