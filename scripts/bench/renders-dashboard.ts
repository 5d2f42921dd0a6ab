/**
 * React's work on the bench's 50-chart dashboard, counted rather than timed (a shared machine's timings swing by
 * 2x): per Apply of a native filter, the commits, the components rendered, and how many of those were chart cells
 * and charts (SuperChart). A devtools hook sees each commit and walks only the parts of the tree that were rendered
 * again. Run: npx tsx scripts/bench/renders-dashboard.ts
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chooseTimeRange } from './explore.bench';
import { createFiftyChartDashboard } from './fifty-charts';
import { adminHeaders, launchChromium, signedIn, startServer } from './util';

const server = await startServer({ DATA_DIR: mkdtempSync(join(tmpdir(), 'meridian-renders-')), EXAMPLES_SALES_ROWS: '100000' });
const browser = await launchChromium();
try {
  const { dashboardId } = await createFiftyChartDashboard(server.url, await adminHeaders(server.url));
  const page = await (await signedIn(browser, server.url, { width: 1440, height: 7600 })).newPage();
  await page.addInitScript(() => {
    // tsx keeps function names with a __name helper the page does not have.
    (globalThis as any).__name ??= (f: unknown) => f;
    const w = window as any;
    w.renders = { commits: 0, components: 0, cells: 0, charts: 0, byName: new Map<string, number>() };
    w.__REACT_DEVTOOLS_GLOBAL_HOOK__ = {
      supportsFiber: true, renderers: new Map(), inject: () => 1, onScheduleFiberRoot() {}, onCommitFiberUnmount() {}, onPostCommitFiberRoot() {}, checkDCE() {},
      onCommitFiberRoot(_id: number, root: any) {
        const r = w.renders;
        r.commits++;
        const stack = [root.current];
        while (stack.length) {
          const f = stack.pop();
          // A component (not a host element) with PerformedWork (flag 1) rendered in this commit.
          if ((typeof f.type === 'function' || (f.type && typeof f.type === 'object')) && (f.flags & 1) !== 0) {
            r.components++;
            const props = f.memoizedProps ?? {};
            if ('refreshToken' in props && 'chart' in props) r.cells++;
            if ('queriesData' in props && 'formData' in props && 'onRenderError' in props) r.charts++;
            const name = f.type.displayName || f.type.name || f.type.render?.name || f.type.type?.name || '?';
            r.byName.set(name, (r.byName.get(name) ?? 0) + 1);
          }
          // A subtree React bailed out of keeps its children: nothing below was rendered again.
          if (f.child && !(f.alternate && f.alternate.child === f.child)) stack.push(f.child);
          if (f.sibling) stack.push(f.sibling);
        }
      },
    };
  });
  const settled = () => page.waitForFunction(() => { const all = [...document.querySelectorAll('[data-testid="dashboard-chart"]')]; return all.length >= 50 && all.every((c) => ['rendered', 'failed'].includes(c.getAttribute('data-chart-state') ?? '')); }, undefined, { timeout: 120_000, polling: 50 });
  const take = () => page.evaluate(() => {
    const r = (window as any).renders;
    const out = { commits: r.commits, components: r.components, cells: r.cells, charts: r.charts, top: [...r.byName].sort((a: any, b: any) => b[1] - a[1]).slice(0, 12).map(([k, v]: any) => `${k}:${v}`).join(' ') };
    (window as any).renders = { commits: 0, components: 0, cells: 0, charts: 0, byName: new Map() };
    return out;
  });
  await page.goto(`${server.url}/superset/dashboard/${dashboardId}/`);
  await settled();
  console.log('open', JSON.stringify(await take()));
  for (let round = 0; round < 2; round++) {
    await chooseTimeRange(page, `19${70 + round}-01-01`, '2010-01-01');
    await take();
    await page.getByTestId('filter-bar-apply').click();
    await page.waitForFunction(() => document.querySelector('[data-testid="dashboard-chart"]:not([data-chart-state="rendered"]):not([data-chart-state="failed"])') !== null, undefined, { timeout: 10_000, polling: 10 }).catch(() => undefined);
    await settled();
    console.log(`apply ${round + 1}`, JSON.stringify(await take()));
  }
} finally {
  await browser.close();
  await server.stop();
}
